// A measurement record: one timed (and optionally profiled) run of one kernel on one GPU, as
// written by `kerncast run` and read back by `kerncast validate` on any machine.
// Format: JSON, "schema": "kerncast.measurement/1" (docs/measurement-format.md).
#pragma once

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
    int driver_version = 0;  // CUDA driver API version, e.g. 13000 for 13.0
    int runtime_version = 0; // CUDA runtime kerncast was built against
    int sm_count = 0;
    // SM clock measured over the timed region (clock64() cycles / event time) at its start and
    // end; absent when not measured.
    std::optional<double> sm_clock_start_mhz;
    std::optional<double> sm_clock_end_mhz;
    std::optional<double> memory_clock_mhz; // peak memory clock the driver reports
    std::string pci_bus_id;                 // "0000:17:00.0"
    std::optional<std::string> uuid;        // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"

    bool operator==(const DeviceRecord&) const = default;
};

using Dim3 = std::array<std::int64_t, 3>; // x, y, z

struct LaunchRecord {
    Dim3 block{1, 1, 1};
    Dim3 fold{1, 1, 1}; // thread folding (work items per thread along x, y, z)
    Dim3 grid{1, 1, 1};
    std::int64_t dynamic_shared_memory_bytes = 0;

    bool operator==(const LaunchRecord&) const = default;
};

// A kernel parameter's value: integer parameters (sizes) stay integers, the rest are reals.
using ParameterValue = std::variant<std::int64_t, double>;

// A device buffer the run allocated and initialised (docs/gpu-runtime.md, "Inputs").
struct BufferRecord {
    std::string name;
    std::string dtype; // "f16", "f32", "f64", "i32", "i64", "u32", "u64"
    std::int64_t count = 0;
    std::string init; // "hash" or "zero"

    bool operator==(const BufferRecord&) const = default;
};

struct KernelRecord {
    std::string name;        // the kernel's name (the __global__ function for CUDA sources)
    std::string file;        // the file the kernel came from, as given on the command line
    std::string file_sha256; // lower-case hex SHA-256 of that file's bytes
    std::map<std::string, ParameterValue> parameters;
    std::vector<BufferRecord> buffers;
    // __constant__ arrays the run filled the same way (TimingRequest::constant_symbols); the
    // JSON key "constants" is written only when there are some.
    std::vector<BufferRecord> constants;
    LaunchRecord launch;

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
    std::vector<double> times_s; // one kernel time per repetition, in order
    double median_s = 0;
    double min_s = 0;
    double max_s = 0;
    double mean_s = 0;
    double stddev_s = 0; // sample standard deviation (n - 1); 0 for one repetition
    // Derived throughputs where the caller knows the work (e.g. "dram_bandwidth": B/s).
    std::map<std::string, NamedValue> throughput;

    bool operator==(const ResultsRecord&) const = default;
};

struct Measurement {
    DeviceRecord device;
    KernelRecord kernel;
    MethodRecord method;
    ResultsRecord results;
    std::map<std::string, NamedValue> counters; // Nsight Compute metric name -> value, unit
    std::string kerncast_version;
    std::string date_utc; // ISO 8601, "2026-11-21T13:02:08Z"
    std::vector<std::string> command_line;

    bool operator==(const Measurement&) const = default;
};

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
