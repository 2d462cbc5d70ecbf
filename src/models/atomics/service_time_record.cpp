// The service-time microbenchmark's raw record (docs/atomics.md, "Raw record").
#include "kerncast/models/atomics/service_time_record.hpp"

#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/support/statistics.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace kerncast::models::atomics {
namespace {

using json_reader::child_pointer;
using nlohmann::json;

} // namespace

json service_record_to_json(const ServiceRecord& record) {
    json series = json::array();
    for (const auto& s : record.series)
        series.push_back(json{{"operation", s.operation},
                              {"queued_warps", s.queued_warps},
                              {"active_threads", s.active_threads},
                              {"total_cycles", s.total_cycles}});
    return json{{"schema", service_record_schema},
                {"device", json{{"name", record.device},
                                {"compute_capability", std::to_string(record.cc_major) + "." +
                                                           std::to_string(record.cc_minor)},
                                {"sm_count", record.sm_count},
                                {"max_warps_per_sm", record.max_warps_per_sm}}},
                {"date_utc", record.date_utc},
                {"command", record.command},
                {"method", record.method},
                {"repetitions", record.repetitions},
                {"series", series}};
}

std::string format_service_record(const ServiceRecord& record) {
    json document = service_record_to_json(record);
    const json series = document["series"];
    document["series"] = json::array();
    std::string text = document.dump(2);
    // Replace the empty array with one series per line.
    const std::string empty = "\"series\": []";
    const auto at = text.find(empty);
    std::string lines = "\"series\": [";
    for (std::size_t i = 0; i < series.size(); ++i)
        lines += std::string(i ? ",\n    " : "\n    ") + series[i].dump();
    lines += series.empty() ? "]" : "\n  ]";
    text.replace(at, empty.size(), lines);
    return text + "\n";
}

ServiceRecord parse_service_record(const std::string& text, const std::string& origin) {
    const json_reader::Document doc = json_reader::parse(text, origin);
    const json_reader::Reader read(doc);
    const json& root = doc.value;
    read.expect_object(
        root, "", {"schema", "device", "date_utc", "command", "method", "repetitions", "series"});
    const std::string schema =
        read.string(read.required(root, "", "schema", "a string"), "/schema");
    if (schema != service_record_schema)
        read.fail("/schema", "expected \"" + std::string(service_record_schema) + "\", got \"" +
                                 schema + "\"");
    ServiceRecord record;
    const json& device = read.required(root, "", "device", "an object");
    read.expect_object(device, "/device",
                       {"name", "compute_capability", "sm_count", "max_warps_per_sm"});
    record.device =
        read.string(read.required(device, "/device", "name", "a string"), "/device/name");
    const std::string cc = read.string(
        read.required(device, "/device", "compute_capability", "a string such as \"9.0\""),
        "/device/compute_capability");
    if (std::sscanf(cc.c_str(), "%d.%d", &record.cc_major, &record.cc_minor) != 2)
        read.fail("/device/compute_capability", "expected \"major.minor\", got \"" + cc + "\"");
    record.sm_count = static_cast<int>(read.integer(
        read.required(device, "/device", "sm_count", "an integer"), "/device/sm_count"));
    record.max_warps_per_sm = static_cast<int>(
        read.integer(read.required(device, "/device", "max_warps_per_sm", "an integer"),
                     "/device/max_warps_per_sm"));
    record.date_utc = read.string(read.required(root, "", "date_utc", "a string"), "/date_utc");
    record.command = read.string(read.required(root, "", "command", "a string"), "/command");
    record.method = read.string(read.required(root, "", "method", "a string"), "/method");
    record.repetitions = static_cast<int>(
        read.integer(read.required(root, "", "repetitions", "an integer"), "/repetitions"));
    if (record.repetitions < 1)
        read.fail("/repetitions", "must be at least 1");
    const json& series = read.required(root, "", "series", "an array");
    read.expect_array(series, "/series");
    for (std::size_t i = 0; i < series.size(); ++i) {
        const std::string path = child_pointer("/series", i);
        const json& item = series[i];
        read.expect_object(item, path,
                           {"operation", "queued_warps", "active_threads", "total_cycles"});
        ServiceSeries s;
        s.operation = read.string(read.required(item, path, "operation", "a string"),
                                  child_pointer(path, "operation"));
        if (s.operation != "add" && s.operation != "popc_inc")
            read.fail(child_pointer(path, "operation"),
                      "must be \"add\" or \"popc_inc\", got \"" + s.operation + "\"");
        s.queued_warps =
            static_cast<int>(read.integer(read.required(item, path, "queued_warps", "an integer"),
                                          child_pointer(path, "queued_warps")));
        s.active_threads =
            static_cast<int>(read.integer(read.required(item, path, "active_threads", "an integer"),
                                          child_pointer(path, "active_threads")));
        if (s.queued_warps < 1 || s.queued_warps > std::max(record.max_warps_per_sm, 1))
            read.fail(child_pointer(path, "queued_warps"),
                      "must be between 1 and max_warps_per_sm (" +
                          std::to_string(record.max_warps_per_sm) + "), got " +
                          std::to_string(s.queued_warps));
        if (s.active_threads < 1 || s.active_threads > 32)
            read.fail(child_pointer(path, "active_threads"),
                      "must be between 1 and 32, got " + std::to_string(s.active_threads));
        const std::string cycles_path = child_pointer(path, "total_cycles");
        const json& cycles = read.required(item, path, "total_cycles", "an array [c][repetition]");
        read.expect_array(cycles, cycles_path);
        if (cycles.size() != static_cast<std::size_t>(s.queued_warps) + 1)
            read.fail(cycles_path, "has " + std::to_string(cycles.size()) +
                                       " rows, one per CAS count c = 0.." +
                                       std::to_string(s.queued_warps) + " expected");
        for (std::size_t c = 0; c < cycles.size(); ++c) {
            const std::string c_path = child_pointer(cycles_path, c);
            read.expect_array(cycles[c], c_path);
            if (cycles[c].empty())
                read.fail(c_path, "has no repetitions");
            std::vector<double> repetitions;
            for (std::size_t r = 0; r < cycles[c].size(); ++r) {
                const double value = read.number(cycles[c][r], child_pointer(c_path, r));
                if (!(value > 0))
                    read.fail(child_pointer(c_path, r), "must be a positive cycle count");
                repetitions.push_back(value);
            }
            s.total_cycles.push_back(std::move(repetitions));
        }
        record.series.push_back(std::move(s));
    }
    return record;
}

ServiceRecord read_service_record(const std::string& path) {
    return parse_service_record(read_input_file(path, "atomic service-time record"), path);
}

AtomicServiceTable service_table_from_record(const ServiceRecord& record,
                                             const std::string& source) {
    AtomicServiceTable table;
    table.source = source;
    std::map<std::string, std::map<std::pair<int, int>, const ServiceSeries*>> by_operation;
    for (const auto& s : record.series)
        if (!by_operation[s.operation]
                 .emplace(std::pair{s.queued_warps, s.active_threads}, &s)
                 .second)
            throw_input_error("the record gives operation " + s.operation +
                              ", n = " + std::to_string(s.queued_warps) +
                              ", e = " + std::to_string(s.active_threads) + " twice");
    for (const auto& [operation, points] : by_operation) {
        std::set<int> ns, es;
        for (const auto& [key, series] : points) {
            ns.insert(key.first);
            es.insert(key.second);
        }
        AtomicServiceGrid grid;
        grid.operation = operation;
        grid.queued_warps.assign(ns.begin(), ns.end());
        grid.active_threads.assign(es.begin(), es.end());
        for (int n : grid.queued_warps) {
            std::vector<std::vector<double>> by_threads;
            for (int e : grid.active_threads) {
                const auto it = points.find({n, e});
                if (it == points.end())
                    throw_input_error("the record lacks operation " + operation +
                                      ", n = " + std::to_string(n) + ", e = " + std::to_string(e) +
                                      ": its n and e must form a full grid");
                std::vector<double> by_cas;
                for (const auto& repetitions : it->second->total_cycles)
                    by_cas.push_back(support::median(repetitions)); // parsed non-empty
                by_threads.push_back(std::move(by_cas));
            }
            grid.total_cycles.push_back(std::move(by_threads));
        }
        table.operations.push_back(std::move(grid));
    }
    return table;
}

} // namespace kerncast::models::atomics
