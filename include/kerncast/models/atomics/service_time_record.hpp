// The raw record of the service-time microbenchmark (Dong & Pai sec. 3.2), schema
// "kerncast.atomics-raw/1": every repetition's T(n, e, c) as measured, so the machine-file
// table is rebuilt from it on any computer without a GPU (`kerncast atomics --replay`).
// docs/atomics.md, "Raw record".
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

inline constexpr const char* service_record_schema = "kerncast.atomics-raw/1";

// One (operation, n, e) row: the repetitions of T for c = 0..n.
struct ServiceSeries {
    std::string operation;                         // "add" or "popc_inc"
    int queued_warps = 0;                          // n
    int active_threads = 0;                        // e
    std::vector<std::vector<double>> total_cycles; // [c][repetition], c = 0..n
};

struct ServiceRecord {
    std::string device; // the GPU's name
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int max_warps_per_sm = 0; // the largest n measured is at most this
    std::string date_utc;
    std::string command; // the command line that measured it
    std::string method;  // one sentence: what the kernel times
    int repetitions = 0;
    std::vector<ServiceSeries> series;
};

nlohmann::json service_record_to_json(const ServiceRecord& record);
// Indented JSON with one series per line.
std::string format_service_record(const ServiceRecord& record);
// Errors name origin, line:column and the JSON path.
ServiceRecord parse_service_record(const std::string& text, const std::string& origin);
ServiceRecord read_service_record(const std::string& path);

// The machine-file table from a record: per operation the sampled n and e (ascending) and the
// median repetition of each T(n, e, c). `source` names the table's entry in the machine's
// sources. Input Error when the record misses a point of its own grid (naming it), or gives
// one twice.
AtomicServiceTable service_table_from_record(const ServiceRecord& record,
                                             const std::string& source);

} // namespace kerncast::models::atomics
