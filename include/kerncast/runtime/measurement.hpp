// A measurement record: one timed (and optionally profiled) run of one kernel on one GPU, as
// written by `kerncast run` and read back by `kerncast validate` on any machine.
// Format: JSON, "schema": "kerncast.measurement/1" (docs/measurement-format.md).
#pragma once

#include "kerncast/kernel/dim3.hpp"
#include "kerncast/kernel/launch_config.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kerncast::runtime {

inline constexpr const char* measurement_schema = "kerncast.measurement/1";

struct DeviceRecord {
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    // Required in kerncast's own records; absent (nullopt) only in a published record's
    // transcription (ProvenanceRecord), which cannot know them.
    std::optional<int> driver_version = 0;  // CUDA driver API version, e.g. 13000 for 13.0
    std::optional<int> runtime_version = 0; // CUDA runtime kerncast was built against
    int sm_count = 0;
    // SM clock measured over the timed region (clock64() cycles / event time) at its start and
    // end; absent when not measured.
    std::optional<double> sm_clock_start_mhz;
    std::optional<double> sm_clock_end_mhz;
    std::optional<double> memory_clock_mhz;                // peak memory clock the driver reports
    std::optional<std::string> pci_bus_id = std::string(); // "0000:17:00.0"; see driver_version
    std::optional<std::string> uuid; // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"

    bool operator==(const DeviceRecord&) const = default;
};

struct LaunchRecord {
    kernel::Dim3 block{1, 1, 1};
    kernel::Dim3 fold{1, 1, 1}; // thread folding (work items per thread along x, y, z)
    kernel::FoldPlacement fold_placement = kernel::FoldPlacement::consecutive;
    // Absent only in a published record whose domain (hence grid) the source does not state.
    std::optional<kernel::Dim3> grid = kernel::Dim3{1, 1, 1};
    std::int64_t dynamic_shared_memory_bytes = 0;

    bool operator==(const LaunchRecord&) const = default;

    // The launch configuration a model takes: block, fold and placement.
    kernel::LaunchConfig config() const { return {block, fold, fold_placement}; }
};

// A kernel parameter's value: integer parameters (sizes) stay integers, the rest are reals.
using ParameterValue = std::variant<std::int64_t, double>;

// A device buffer the run allocated and initialised (docs/gpu-runtime.md, "Inputs").
struct BufferRecord {
    std::string name;
    std::string dtype; // "f16", "f32", "f64", "i32", "i64", "u32", "u64"
    std::int64_t count = 0;
    std::string init; // "hash", "zero" or "pattern=HEX" (runtime::init_text)

    bool operator==(const BufferRecord&) const = default;
};

struct KernelRecord {
    std::string name;        // the kernel's name (the __global__ function for CUDA sources)
    std::string file;        // the file the kernel came from, as given on the command line
    std::string file_sha256; // lower-case hex SHA-256 of that file's bytes
    // SHA-256 of the CUDA source that ran: kerncast's generated source for a kernel file (which
    // changes when the code generator does, with the same file), the file itself for a CUDA
    // source. Written only when known (records before 2026-11-26 and published ones have none).
    std::string source_sha256;
    std::map<std::string, ParameterValue> parameters;
    std::vector<BufferRecord> buffers;
    // __constant__ arrays the run filled the same way (TimingRequest::constant_symbols); the
    // JSON key "constants" is written only when there are some.
    std::vector<BufferRecord> constants;
    LaunchRecord launch;
    // Registers per thread the compiler reported for this kernel, when the record knows it
    // (written only when present; the volume model's occupancy uses it, validate::predict_record).
    std::optional<int> registers_per_thread;

    bool operator==(const KernelRecord&) const = default;
};

struct MethodRecord {
    int warmup_count = 0;
    int repetitions = 0;
    bool l2_flush = false;
    std::optional<std::int64_t> l2_flush_bytes; // size of the buffer written between reps
    std::string timer = "cuda-event";

    bool operator==(const MethodRecord&) const = default;
};

struct NamedValue {
    double value = 0;
    std::string unit;

    bool operator==(const NamedValue&) const = default;
};

struct ResultsRecord {
    // One kernel time per repetition, in order. Empty only in a published record that states no
    // times (then the summary below is 0 and neither it nor times_s is written).
    std::vector<double> times_s;
    double median_s = 0;
    double min_s = 0;
    double max_s = 0;
    double mean_s = 0;
    double stddev_s = 0; // sample standard deviation (n - 1); 0 for one repetition
    // Derived throughputs where the caller knows the work (e.g. "dram_bandwidth": B/s).
    std::map<std::string, NamedValue> throughput;

    bool operator==(const ResultsRecord&) const = default;
};

// Where a record that kerncast did not measure comes from (JSON "/provenance"). The only kind
// is "published": numbers transcribed from a published source (docs/measurement-format.md,
// "Published records"). kerncast's own records have no provenance.
struct ProvenanceRecord {
    std::string kind = "published";
    std::string repository; // "te42kyfo/warpspeed"
    std::string commit;     // as cited, e.g. "c85e496"
    std::optional<std::string> commit_date;
    std::string notebook;              // the file whose saved output holds the numbers
    std::string cell;                  // the cell (or cells) of that output
    std::string device;                // the device as the source states it, caveats included
    std::optional<std::string> source; // the transcription: file and line
    // Points the published per-point values are divided by; counters = value x points.
    std::optional<std::int64_t> normalisation_points;
    std::optional<std::string> normalisation; // what those points are
    // The published values exactly as printed (CSV column -> value): measurements.
    std::map<std::string, double> published_values;
    // The source's own model predictions printed beside them (peer_pred_* columns, per point):
    // NOT measurements; validate compares them with the measurements as the peer's error.
    std::map<std::string, double> peer_predictions;
    std::optional<std::string> note;

    bool operator==(const ProvenanceRecord&) const = default;
};

struct Measurement {
    DeviceRecord device;
    KernelRecord kernel;
    // Absent only in a published record (the source's method is described in provenance).
    std::optional<MethodRecord> method = MethodRecord{};
    ResultsRecord results;
    std::map<std::string, NamedValue> counters; // Nsight Compute metric name -> value, unit
    // Empty (and not written) only in a published record, which no kerncast run made.
    std::string kerncast_version;
    std::string date_utc; // ISO 8601, "2026-11-21T13:02:08Z"
    std::vector<std::string> command_line;
    std::optional<ProvenanceRecord> provenance; // absent: kerncast measured it

    bool published() const { return provenance.has_value(); }
    bool has_times() const { return !results.times_s.empty(); }

    bool operator==(const Measurement&) const = default;
};

// The published volume columns (bytes per point) and the counter each one is a value of: the
// notebooks of ../shared/reference/measured print dram__bytes_read.sum, dram__bytes_write.sum
// and lts__t_sectors_op_read/write.sum x 32 B, divided by their normalisation points. A
// published record stores the counter as the total value x points / bytes_per_unit; the peer's
// prediction of the same quantity is the column "peer_pred_" + column.
struct PublishedVolumeColumn {
    const char* column;    // "dram_load_B"
    const char* metric;    // "dram__bytes_read.sum"
    const char* unit;      // the metric's base unit: "byte" or "sector"
    double bytes_per_unit; // 1 for bytes, 32 for L2 sectors
};
const std::vector<PublishedVolumeColumn>& published_volume_columns();

// The record as JSON (lossless: parse_measurement_json(dump(to_json(m))) == m).
nlohmann::json measurement_to_json(const Measurement& measurement);

// Strict reading: unknown or missing keys, wrong types and inconsistent values are input
// Errors naming `origin`, the JSON path and (for syntax errors) line:column.
Measurement parse_measurement_json(const std::string& text, const std::string& origin);

// Reads and parses one record file.
Measurement load_measurement_file(const std::string& path);

// Writes the record (pretty-printed JSON, trailing newline); "-" writes to standard output.
void write_measurement_file(const Measurement& measurement, const std::string& path);

// The current time as ISO 8601 UTC with seconds, e.g. "2026-11-21T13:02:08Z".
std::string iso8601_utc_now();

} // namespace kerncast::runtime
