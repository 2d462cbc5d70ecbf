#include "kerncast/probe/raw_series.hpp"

#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/probe/benchmark_kind.hpp"

#include <filesystem>
#include <fstream>
#include <set>

namespace kerncast::probe {

using nlohmann::json;
namespace fs = std::filesystem;

const RawBenchmark* ProbeRecord::benchmark(const std::string& name) const {
    for (const auto& b : benchmarks)
        if (b.name == name)
            return &b;
    return nullptr;
}

namespace {

json device_to_json(const gpu::DeviceInfo& d) {
    return {{"name", d.name},
            {"pci_bus_id", d.pci_bus_id},
            {"cc_major", d.cc_major},
            {"cc_minor", d.cc_minor},
            {"sm_count", d.sm_count},
            {"warp_size", d.warp_size},
            {"sm_clock_peak_mhz", d.sm_clock_peak_mhz},
            {"memory_clock_peak_mhz", d.memory_clock_peak_mhz},
            {"memory_bus_width_bits", d.memory_bus_width_bits},
            {"global_memory_bytes", d.global_memory_bytes},
            {"l2_cache_bytes", d.l2_cache_bytes},
            {"max_threads_per_sm", d.max_threads_per_sm},
            {"max_blocks_per_sm", d.max_blocks_per_sm},
            {"registers_per_sm", d.registers_per_sm},
            {"shared_memory_per_sm_bytes", d.shared_memory_per_sm_bytes},
            {"shared_memory_per_block_optin_bytes", d.shared_memory_per_block_optin_bytes},
            {"driver_version", d.driver_version},
            {"runtime_version", d.runtime_version}};
}

json series_to_json(const RawSeries& s) {
    json j = json::object();
    if (!s.label.empty())
        j["label"] = s.label;
    if (s.repetition != 0)
        j["repetition"] = s.repetition;
    if (s.size_bytes != 0)
        j["size_bytes"] = s.size_bytes;
    if (s.stride_bytes != 0)
        j["stride_bytes"] = s.stride_bytes;
    if (s.blocks != 0)
        j["blocks"] = s.blocks;
    if (s.threads != 0)
        j["threads"] = s.threads;
    if (s.bytes != 0)
        j["bytes"] = s.bytes;
    if (s.sm_clock_mhz != 0)
        j["sm_clock_mhz"] = s.sm_clock_mhz;
    j["values"] = s.values;
    return j;
}

using json_reader::child_pointer;

// Typed optional members on top of json_reader::Reader (absent -> fallback).
class RecordReader : public json_reader::Reader {
public:
    using Reader::Reader;

    std::string text(const json& object, const std::string& path, const std::string& key,
                     const std::string& fallback) const {
        const json* value = optional(object, key);
        return value ? string(*value, child_pointer(path, key)) : fallback;
    }
    std::int64_t whole(const json& object, const std::string& path, const std::string& key,
                       std::int64_t fallback) const {
        const json* value = optional(object, key);
        return value ? integer(*value, child_pointer(path, key)) : fallback;
    }
    int small(const json& object, const std::string& path, const std::string& key,
              int fallback) const {
        const std::int64_t value = whole(object, path, key, fallback);
        if (value < -2147483647 || value > 2147483647)
            fail(child_pointer(path, key), "integer out of range");
        return static_cast<int>(value);
    }
    double real(const json& object, const std::string& path, const std::string& key,
                double fallback) const {
        const json* value = optional(object, key);
        return value ? number(*value, child_pointer(path, key)) : fallback;
    }
};

} // namespace

json probe_record_to_json(const ProbeRecord& record) {
    json benchmarks = json::array();
    for (const auto& b : record.benchmarks) {
        json j{{"name", b.name}, {"kind", b.kind}};
        if (!b.memory.empty())
            j["memory"] = b.memory;
        if (!b.other_memory.empty())
            j["other_memory"] = b.other_memory;
        if (!b.direction.empty())
            j["direction"] = b.direction;
        if (!b.chain.empty())
            j["chain"] = b.chain;
        j["unit"] = b.unit;
        if (!b.note.empty())
            j["note"] = b.note;
        if (b.carveout_percent >= 0)
            j["carveout"] = {{"requested_percent", b.carveout_percent},
                             {"shared_bytes_per_block", b.shared_bytes_per_block}};
        json series = json::array();
        for (const auto& s : b.series)
            series.push_back(series_to_json(s));
        j["series"] = std::move(series);
        benchmarks.push_back(std::move(j));
    }
    return {{"schema", probe_raw_schema},
            {"device", device_to_json(record.device)},
            {"clocks", {{"sm_clock_measured_mhz", record.sm_clock_measured_mhz}}},
            {"carveout",
             {{"requested_percent", record.carveout_percent},
              {"l1_shared_bytes_per_sm", record.l1_shared_bytes_per_sm}}},
            {"date", record.date},
            {"command", record.command},
            {"tool_version", record.tool_version},
            {"host", record.host},
            {"benchmarks", std::move(benchmarks)}};
}

namespace {

gpu::DeviceInfo read_device(const RecordReader& reader, const json& root) {
    const std::string dp = "/device";
    const json& device = reader.required(root, "", "device");
    reader.expect_object(device, dp,
                         {"name", "pci_bus_id", "cc_major", "cc_minor", "sm_count", "warp_size",
                          "sm_clock_peak_mhz", "memory_clock_peak_mhz", "memory_bus_width_bits",
                          "global_memory_bytes", "l2_cache_bytes", "max_threads_per_sm",
                          "max_blocks_per_sm", "registers_per_sm", "shared_memory_per_sm_bytes",
                          "shared_memory_per_block_optin_bytes", "driver_version",
                          "runtime_version"});
    gpu::DeviceInfo d;
    d.name = reader.string(reader.required(device, dp, "name"), dp + "/name");
    d.pci_bus_id = reader.text(device, dp, "pci_bus_id", "");
    reader.required(device, dp, "cc_major");
    reader.required(device, dp, "cc_minor");
    reader.required(device, dp, "sm_count");
    d.cc_major = reader.small(device, dp, "cc_major", 0);
    d.cc_minor = reader.small(device, dp, "cc_minor", 0);
    d.sm_count = reader.small(device, dp, "sm_count", 0);
    d.warp_size = reader.small(device, dp, "warp_size", 32);
    d.sm_clock_peak_mhz = reader.real(device, dp, "sm_clock_peak_mhz", 0);
    d.memory_clock_peak_mhz = reader.real(device, dp, "memory_clock_peak_mhz", 0);
    d.memory_bus_width_bits = reader.small(device, dp, "memory_bus_width_bits", 0);
    d.global_memory_bytes = reader.whole(device, dp, "global_memory_bytes", 0);
    d.l2_cache_bytes = reader.whole(device, dp, "l2_cache_bytes", 0);
    d.max_threads_per_sm = reader.small(device, dp, "max_threads_per_sm", 0);
    d.max_blocks_per_sm = reader.small(device, dp, "max_blocks_per_sm", 0);
    d.registers_per_sm = reader.small(device, dp, "registers_per_sm", 0);
    d.shared_memory_per_sm_bytes = reader.small(device, dp, "shared_memory_per_sm_bytes", 0);
    d.shared_memory_per_block_optin_bytes =
        reader.small(device, dp, "shared_memory_per_block_optin_bytes", 0);
    d.driver_version = reader.small(device, dp, "driver_version", 0);
    d.runtime_version = reader.small(device, dp, "runtime_version", 0);
    if (d.sm_count <= 0)
        reader.fail("/device/sm_count", "sm_count must be positive");
    if (d.warp_size <= 0)
        reader.fail("/device/warp_size", "warp_size must be positive");
    return d;
}

RawSeries read_series(const RecordReader& reader, const json& s, const std::string& p) {
    reader.expect_object(s, p,
                         {"label", "repetition", "size_bytes", "stride_bytes", "blocks", "threads",
                          "bytes", "sm_clock_mhz", "values"});
    RawSeries raw;
    raw.label = reader.text(s, p, "label", "");
    raw.repetition = reader.small(s, p, "repetition", 0);
    raw.size_bytes = reader.whole(s, p, "size_bytes", 0);
    raw.stride_bytes = reader.small(s, p, "stride_bytes", 0);
    raw.blocks = reader.whole(s, p, "blocks", 0);
    raw.threads = reader.whole(s, p, "threads", 0);
    raw.bytes = reader.whole(s, p, "bytes", 0);
    raw.sm_clock_mhz = reader.real(s, p, "sm_clock_mhz", 0);
    const json& values = reader.required(s, p, "values");
    const std::string vp = child_pointer(p, "values");
    reader.expect_array(values, vp);
    if (values.empty())
        reader.fail(vp, "expected a non-empty array of numbers");
    raw.values.reserve(values.size());
    for (std::size_t v = 0; v < values.size(); ++v)
        raw.values.push_back(reader.number(values[v], child_pointer(vp, v)));
    if (raw.size_bytes < 0)
        reader.fail(child_pointer(p, "size_bytes"), "size_bytes must not be negative");
    if (raw.stride_bytes < 0)
        reader.fail(child_pointer(p, "stride_bytes"), "stride_bytes must not be negative");
    return raw;
}

RawBenchmark read_benchmark(const RecordReader& reader, const json& b, const std::string& bp,
                            std::set<std::string>& names) {
    reader.expect_object(b, bp,
                         {"name", "kind", "memory", "other_memory", "direction", "chain", "unit",
                          "note", "carveout", "series"});
    RawBenchmark bench;
    bench.name = reader.string(reader.required(b, bp, "name"), child_pointer(bp, "name"));
    if (!names.insert(bench.name).second)
        reader.fail(child_pointer(bp, "name"),
                    "benchmark name \"" + bench.name + "\" appears twice");
    bench.kind = reader.string(reader.required(b, bp, "kind"), child_pointer(bp, "kind"));
    if (!find_benchmark_kind(bench.kind))
        reader.fail(child_pointer(bp, "kind"), "unknown benchmark kind \"" + bench.kind +
                                                   "\" (docs/probe.md lists the kinds)");
    bench.memory = reader.text(b, bp, "memory", "");
    bench.other_memory = reader.text(b, bp, "other_memory", "");
    bench.direction = reader.text(b, bp, "direction", "");
    bench.chain = reader.text(b, bp, "chain", "");
    bench.unit = reader.string(reader.required(b, bp, "unit"), child_pointer(bp, "unit"));
    if (bench.unit != "cycles" && bench.unit != "ms")
        reader.fail(child_pointer(bp, "unit"),
                    "unit must be \"cycles\" or \"ms\", got \"" + bench.unit + "\"");
    bench.note = reader.text(b, bp, "note", "");
    if (const json* carveout = RecordReader::optional(b, "carveout")) {
        const std::string cp = child_pointer(bp, "carveout");
        reader.expect_object(*carveout, cp, {"requested_percent", "shared_bytes_per_block"});
        reader.required(*carveout, cp, "requested_percent");
        reader.required(*carveout, cp, "shared_bytes_per_block");
        bench.carveout_percent = reader.small(*carveout, cp, "requested_percent", -1);
        bench.shared_bytes_per_block = reader.whole(*carveout, cp, "shared_bytes_per_block", 0);
        if (bench.carveout_percent < 0 || bench.carveout_percent > 100)
            reader.fail(child_pointer(cp, "requested_percent"),
                        "requested_percent must be 0 to 100");
        if (bench.shared_bytes_per_block < 0)
            reader.fail(child_pointer(cp, "shared_bytes_per_block"),
                        "shared_bytes_per_block must not be negative");
    }
    const json& series = reader.required(b, bp, "series");
    const std::string sp = child_pointer(bp, "series");
    reader.expect_array(series, sp);
    for (std::size_t k = 0; k < series.size(); ++k)
        bench.series.push_back(read_series(reader, series[k], child_pointer(sp, k)));
    return bench;
}

} // namespace

ProbeRecord parse_probe_record(const std::string& text, const std::string& origin) {
    const json_reader::Document document = json_reader::parse(text, origin);
    const RecordReader reader(document);
    const json& root = document.value;
    reader.expect_object(root, "",
                         {"schema", "device", "clocks", "carveout", "date", "command",
                          "tool_version", "host", "benchmarks"});
    const std::string schema = reader.string(reader.required(root, "", "schema"), "/schema");
    if (schema != probe_raw_schema)
        reader.fail("/schema", "unsupported schema \"" + schema + "\" (expected \"" +
                                   probe_raw_schema + "\")");
    ProbeRecord record;
    record.device = read_device(reader, root);
    if (const json* clocks = RecordReader::optional(root, "clocks")) {
        reader.expect_object(*clocks, "/clocks", {"sm_clock_measured_mhz"});
        record.sm_clock_measured_mhz = reader.real(*clocks, "/clocks", "sm_clock_measured_mhz", 0);
    }
    if (const json* carveout = RecordReader::optional(root, "carveout")) {
        reader.expect_object(*carveout, "/carveout",
                             {"requested_percent", "l1_shared_bytes_per_sm"});
        record.carveout_percent = reader.small(*carveout, "/carveout", "requested_percent", -1);
        record.l1_shared_bytes_per_sm =
            reader.whole(*carveout, "/carveout", "l1_shared_bytes_per_sm", 0);
    }
    record.date = reader.text(root, "", "date", "");
    record.command = reader.text(root, "", "command", "");
    record.tool_version = reader.text(root, "", "tool_version", "");
    record.host = reader.text(root, "", "host", "");

    const json& benchmarks = reader.required(root, "", "benchmarks");
    reader.expect_array(benchmarks, "/benchmarks");
    std::set<std::string> names;
    for (std::size_t i = 0; i < benchmarks.size(); ++i)
        record.benchmarks.push_back(
            read_benchmark(reader, benchmarks[i], child_pointer("/benchmarks", i), names));
    return record;
}

std::string format_probe_record(const ProbeRecord& record) {
    // Indented, but one series per line: diffable without one line per timing. Each series
    // is swapped for a placeholder string, the document is indented, and the placeholders are
    // replaced by the compact series.
    json j = probe_record_to_json(record);
    std::vector<std::string> compact;
    for (auto& benchmark : j["benchmarks"])
        for (auto& series : benchmark["series"]) {
            compact.push_back(series.dump());
            series = "\x01" + std::to_string(compact.size() - 1) + "\x01";
        }
    std::string text = j.dump(2);
    std::string result;
    result.reserve(text.size() + 64 * compact.size());
    std::size_t pos = 0;
    while (true) {
        const std::size_t start = text.find("\"\\u0001", pos);
        if (start == std::string::npos)
            break;
        const std::size_t digits = start + 7;
        const std::size_t end = text.find("\\u0001\"", digits);
        result.append(text, pos, start - pos);
        result += compact.at(std::stoul(text.substr(digits, end - digits)));
        pos = end + 7;
    }
    result.append(text, pos);
    return result + "\n";
}

void write_probe_record(const ProbeRecord& record, const std::string& directory) {
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        throw_input_error("cannot create directory '" + directory + "': " + ec.message());
    const std::string path = (fs::path(directory) / probe_raw_file_name).string();
    std::ofstream out(path);
    if (!out)
        throw_input_error("cannot open '" + path + "' for writing");
    out << format_probe_record(record);
    if (!out)
        throw_input_error("failed writing '" + path + "'");
}

ProbeRecord read_probe_record(const std::string& directory_or_file) {
    fs::path path(directory_or_file);
    std::error_code ec;
    if (fs::is_directory(path, ec))
        path /= probe_raw_file_name;
    if (!fs::exists(path, ec))
        throw_input_error("cannot read probe record '" + path.string() + "'", {},
                          {"--replay takes a directory written by `kerncast probe --raw DIR` "
                           "(it holds raw.json) or the raw.json file itself"});
    return parse_probe_record(read_input_file(path.string(), "probe record"), path.string());
}

} // namespace kerncast::probe
