// The measurement-record format (docs/measurement-format.md): writing and strict reading.
#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/runtime/dtype.hpp"
#include "kerncast/runtime/kernel_arguments.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/statistics.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace kerncast::runtime {

using json_reader::child_pointer;
using json_reader::Reader;
using nlohmann::json;

// ---------------------------------------------------------------------------- writing ---

static json named_values_to_json(const std::map<std::string, NamedValue>& values) {
    json object = json::object();
    for (const auto& [name, v] : values)
        object[name] = {{"value", v.value}, {"unit", v.unit}};
    return object;
}

static json plain_values_to_json(const std::map<std::string, double>& values) {
    json object = json::object();
    for (const auto& [name, value] : values)
        object[name] = value;
    return object;
}

static json provenance_to_json(const ProvenanceRecord& p) {
    json object = {{"kind", p.kind},
                   {"repository", p.repository},
                   {"commit", p.commit},
                   {"notebook", p.notebook},
                   {"cell", p.cell},
                   {"device", p.device},
                   {"published_values", plain_values_to_json(p.published_values)}};
    if (p.commit_date)
        object["commit_date"] = *p.commit_date;
    if (p.source)
        object["source"] = *p.source;
    if (p.normalisation_points)
        object["normalisation_points"] = *p.normalisation_points;
    if (p.normalisation)
        object["normalisation"] = *p.normalisation;
    if (!p.peer_predictions.empty())
        object["peer_predictions"] = plain_values_to_json(p.peer_predictions);
    if (p.note)
        object["note"] = *p.note;
    return object;
}

json measurement_to_json(const Measurement& m) {
    json device = {
        {"name", m.device.name},
        {"compute_capability",
         std::to_string(m.device.cc_major) + "." + std::to_string(m.device.cc_minor)},
        {"sm_count", m.device.sm_count},
    };
    if (m.device.driver_version)
        device["driver_version"] = *m.device.driver_version;
    if (m.device.runtime_version)
        device["runtime_version"] = *m.device.runtime_version;
    if (m.device.pci_bus_id)
        device["pci_bus_id"] = *m.device.pci_bus_id;
    if (m.device.sm_clock_start_mhz || m.device.sm_clock_end_mhz) {
        json clock = json::object();
        if (m.device.sm_clock_start_mhz)
            clock["start"] = *m.device.sm_clock_start_mhz;
        if (m.device.sm_clock_end_mhz)
            clock["end"] = *m.device.sm_clock_end_mhz;
        device["sm_clock_mhz"] = clock;
    }
    if (m.device.memory_clock_mhz)
        device["memory_clock_mhz"] = *m.device.memory_clock_mhz;
    if (m.device.uuid)
        device["uuid"] = *m.device.uuid;

    json parameters = json::object();
    for (const auto& parameter : m.kernel.parameters) // clang 14: no captured bindings
        std::visit([&](auto v) { parameters[parameter.first] = v; }, parameter.second);
    const auto buffers_to_json = [](const std::vector<BufferRecord>& records) {
        json array = json::array();
        for (const auto& b : records)
            array.push_back(
                {{"name", b.name}, {"dtype", b.dtype}, {"count", b.count}, {"init", b.init}});
        return array;
    };
    const auto& launch = m.kernel.launch;
    json kernel = {
        {"name", m.kernel.name},
        {"file", m.kernel.file},
        {"file_sha256", m.kernel.file_sha256},
        {"parameters", parameters},
        {"buffers", buffers_to_json(m.kernel.buffers)},
        {"launch",
         {{"block", launch.block},
          {"fold", launch.fold},
          {"dynamic_shared_memory_bytes", launch.dynamic_shared_memory_bytes}}},
    };
    if (launch.grid)
        kernel["launch"]["grid"] = *launch.grid;
    if (kernel::strided_fold(launch.config()))
        kernel["launch"]["fold_placement"] = "strided";
    if (!m.kernel.constants.empty())
        kernel["constants"] = buffers_to_json(m.kernel.constants);
    if (m.kernel.registers_per_thread)
        kernel["registers_per_thread"] = *m.kernel.registers_per_thread;
    if (!m.kernel.source_sha256.empty())
        kernel["source_sha256"] = m.kernel.source_sha256;

    json results = {{"throughput", named_values_to_json(m.results.throughput)}};
    if (m.has_times()) {
        results["times_s"] = m.results.times_s;
        results["median_s"] = m.results.median_s;
        results["min_s"] = m.results.min_s;
        results["max_s"] = m.results.max_s;
        results["mean_s"] = m.results.mean_s;
        results["stddev_s"] = m.results.stddev_s;
    }

    json root{{"schema", measurement_schema},
              {"device", device},
              {"kernel", kernel},
              {"results", results},
              {"counters", named_values_to_json(m.counters)}};
    // A published record leaves out what no kerncast run made (empty); kerncast's own have all.
    if (!m.published() || !m.kerncast_version.empty())
        root["kerncast_version"] = m.kerncast_version;
    if (!m.published() || !m.date_utc.empty())
        root["date"] = m.date_utc;
    if (!m.published() || !m.command_line.empty())
        root["command_line"] = m.command_line;
    if (m.method) {
        json method = {{"warmup", m.method->warmup_count},
                       {"repetitions", m.method->repetitions},
                       {"l2_flush", m.method->l2_flush},
                       {"timer", m.method->timer}};
        if (m.method->l2_flush_bytes)
            method["l2_flush_bytes"] = *m.method->l2_flush_bytes;
        root["method"] = method;
    }
    if (m.provenance)
        root["provenance"] = provenance_to_json(*m.provenance);
    return root;
}

const std::vector<PublishedVolumeColumn>& published_volume_columns() {
    static const std::vector<PublishedVolumeColumn> columns = {
        {"dram_load_B", "dram__bytes_read.sum", "byte", 1},
        {"dram_store_B", "dram__bytes_write.sum", "byte", 1},
        {"l2_load_B", "lts__t_sectors_op_read.sum", "sector", 32},
        {"l2_store_B", "lts__t_sectors_op_write.sum", "sector", 32},
    };
    return columns;
}

// ---------------------------------------------------------------------------- reading ---

namespace {

// "YYYY-MM-DDTHH:MM:SS..." (already matched by the pattern) names a real instant: month 1-12,
// a day the month has (leap years included), hour < 24, minute < 60, second <= 60.
bool valid_calendar_date(const std::string& date) {
    const int year = std::stoi(date.substr(0, 4)), month = std::stoi(date.substr(5, 2)),
              day = std::stoi(date.substr(8, 2)), hour = std::stoi(date.substr(11, 2)),
              minute = std::stoi(date.substr(14, 2)), second = std::stoi(date.substr(17, 2));
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60)
        return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return day <= days[month - 1];
}

class MeasurementReader {
public:
    explicit MeasurementReader(const json_reader::Document& document) : r_(document) {}

    Measurement read(const json& root) {
        r_.expect_object(root, "",
                         {"schema", "kerncast_version", "date", "command_line", "device", "kernel",
                          "method", "results", "counters", "provenance"});
        const std::string schema = r_.string(r_.required(root, "", "schema"), "/schema");
        if (schema != measurement_schema)
            r_.fail("/schema",
                    "unsupported schema '" + schema + "'; expected '" + measurement_schema + "'");
        Measurement m;
        // A published record may leave out what a transcription cannot know; read it first.
        if (const json* provenance_node = Reader::optional(root, "provenance"))
            m.provenance = provenance(*provenance_node, "/provenance");
        published_ = m.published();
        if (const json* version = required_unless_published(root, "", "kerncast_version"))
            m.kerncast_version = r_.string(*version, "/kerncast_version");
        if (const json* date = required_unless_published(root, "", "date")) {
            m.date_utc = r_.string(*date, "/date");
            static const std::regex iso8601(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z)");
            if (!std::regex_match(m.date_utc, iso8601) || !valid_calendar_date(m.date_utc))
                r_.fail("/date",
                        "expected an ISO 8601 UTC date like 2026-11-21T13:02:08Z, found '" +
                            m.date_utc + "'");
        }
        if (const json* command = required_unless_published(root, "", "command_line")) {
            r_.expect_array(*command, "/command_line");
            for (std::size_t i = 0; i < command->size(); ++i)
                m.command_line.push_back(
                    r_.string((*command)[i], child_pointer("/command_line", i)));
        }
        m.device = device(r_.required(root, "", "device"), "/device");
        m.kernel = kernel(r_.required(root, "", "kernel"), "/kernel");
        m.method.reset();
        if (const json* method_node = required_unless_published(root, "", "method"))
            m.method = method(*method_node, "/method");
        m.results = results(r_.required(root, "", "results"), "/results",
                            m.method ? std::optional<int>(m.method->repetitions) : std::nullopt);
        m.counters = named_values(r_.required(root, "", "counters"), "/counters");
        return m;
    }

private:
    Reader r_;
    bool published_ = false; // the record has a /provenance (kind "published")

    // Required in kerncast's own records; optional under a published provenance.
    const json* required_unless_published(const json& node, const std::string& path,
                                          const std::string& key) {
        if (published_)
            return Reader::optional(node, key);
        return &r_.required(node, path, key);
    }

    std::map<std::string, double> plain_values(const json& node, const std::string& path) {
        r_.expect_object(node, path);
        std::map<std::string, double> values;
        for (const auto& [name, value] : node.items())
            values[name] = r_.number(value, child_pointer(path, name));
        return values;
    }

    ProvenanceRecord provenance(const json& node, const std::string& path) {
        r_.expect_object(node, path,
                         {"kind", "repository", "commit", "commit_date", "notebook", "cell",
                          "device", "source", "normalisation_points", "normalisation",
                          "published_values", "peer_predictions", "note"});
        ProvenanceRecord p;
        p.kind = r_.string(r_.required(node, path, "kind"), path + "/kind");
        if (p.kind != "published")
            r_.fail(path + "/kind", "unknown provenance kind '" + p.kind +
                                        "'; expected published (kerncast's own records have no "
                                        "provenance)");
        const auto text = [&](const char* key) {
            const std::string value =
                r_.string(r_.required(node, path, key), path + "/" + std::string(key));
            if (value.empty())
                r_.fail(path + "/" + std::string(key), "is empty");
            return value;
        };
        p.repository = text("repository");
        p.commit = text("commit");
        p.notebook = text("notebook");
        p.cell = text("cell");
        p.device = text("device");
        if (const json* date = Reader::optional(node, "commit_date"))
            p.commit_date = r_.string(*date, path + "/commit_date");
        if (const json* source = Reader::optional(node, "source"))
            p.source = r_.string(*source, path + "/source");
        if (const json* points = Reader::optional(node, "normalisation_points")) {
            p.normalisation_points = r_.integer(*points, path + "/normalisation_points");
            if (*p.normalisation_points < 1)
                r_.fail(path + "/normalisation_points", "expected a positive number of points");
        }
        if (const json* what = Reader::optional(node, "normalisation"))
            p.normalisation = r_.string(*what, path + "/normalisation");
        p.published_values =
            plain_values(r_.required(node, path, "published_values"), path + "/published_values");
        if (const json* peer = Reader::optional(node, "peer_predictions"))
            p.peer_predictions = plain_values(*peer, path + "/peer_predictions");
        if (const json* note = Reader::optional(node, "note"))
            p.note = r_.string(*note, path + "/note");
        return p;
    }

    double positive(const json& node, const std::string& path) {
        const double value = r_.number(node, path);
        if (!(value > 0) || !std::isfinite(value))
            r_.fail(path, "expected a positive number, found " + node.dump());
        return value;
    }

    DeviceRecord device(const json& node, const std::string& path) {
        r_.expect_object(node, path,
                         {"name", "compute_capability", "sm_count", "driver_version",
                          "runtime_version", "sm_clock_mhz", "memory_clock_mhz", "pci_bus_id",
                          "uuid"});
        DeviceRecord d;
        d.driver_version.reset(); // set below when present (required unless published)
        d.runtime_version.reset();
        d.pci_bus_id.reset();
        d.name = r_.string(r_.required(node, path, "name"), path + "/name");
        const std::string cc_path = path + "/compute_capability";
        const std::string cc = r_.string(r_.required(node, path, "compute_capability"), cc_path);
        static const std::regex cc_pattern(R"((\d{1,3})\.(\d{1,3}))");
        std::smatch parts;
        if (!std::regex_match(cc, parts, cc_pattern))
            r_.fail(cc_path, "expected a compute capability like \"9.0\", found '" + cc + "'");
        d.cc_major = std::stoi(parts[1]);
        d.cc_minor = std::stoi(parts[2]);
        d.sm_count =
            static_cast<int>(non_negative(r_.required(node, path, "sm_count"), path + "/sm_count"));
        if (const json* driver = required_unless_published(node, path, "driver_version"))
            d.driver_version = static_cast<int>(non_negative(*driver, path + "/driver_version"));
        if (const json* runtime = required_unless_published(node, path, "runtime_version"))
            d.runtime_version = static_cast<int>(non_negative(*runtime, path + "/runtime_version"));
        if (const json* bus = required_unless_published(node, path, "pci_bus_id"))
            d.pci_bus_id = r_.string(*bus, path + "/pci_bus_id");
        if (const json* clock = Reader::optional(node, "sm_clock_mhz")) {
            const std::string clock_path = path + "/sm_clock_mhz";
            r_.expect_object(*clock, clock_path, {"start", "end"});
            if (const json* start = Reader::optional(*clock, "start"))
                d.sm_clock_start_mhz = positive(*start, clock_path + "/start");
            if (const json* end = Reader::optional(*clock, "end"))
                d.sm_clock_end_mhz = positive(*end, clock_path + "/end");
        }
        if (const json* memory = Reader::optional(node, "memory_clock_mhz"))
            d.memory_clock_mhz = positive(*memory, path + "/memory_clock_mhz");
        if (const json* uuid = Reader::optional(node, "uuid"))
            d.uuid = r_.string(*uuid, path + "/uuid");
        return d;
    }

    std::int64_t non_negative(const json& node, const std::string& path) {
        const std::int64_t value = r_.integer(node, path);
        if (value < 0)
            r_.fail(path, "expected a non-negative integer, found " + std::to_string(value));
        return value;
    }

    kernel::Dim3 dim3(const json& node, const std::string& path) {
        r_.expect_array(node, path);
        if (node.size() != 3)
            r_.fail(path, "expected [x, y, z], found " + std::to_string(node.size()) + " values");
        kernel::Dim3 result{};
        for (std::size_t i = 0; i < 3; ++i) {
            result[i] = r_.integer(node[i], child_pointer(path, i));
            if (result[i] < 1)
                r_.fail(child_pointer(path, i),
                        "expected a positive integer, found " + std::to_string(result[i]));
        }
        return result;
    }

    // /kernel/buffers and /kernel/constants: arrays of {name, dtype, count, init}.
    std::vector<BufferRecord> buffer_records(const json& node, const std::string& path) {
        r_.expect_array(node, path);
        std::vector<BufferRecord> records;
        for (std::size_t i = 0; i < node.size(); ++i) {
            const std::string b_path = child_pointer(path, i);
            r_.expect_object(node[i], b_path, {"name", "dtype", "count", "init"});
            BufferRecord b;
            b.name = r_.string(r_.required(node[i], b_path, "name"), b_path + "/name");
            b.dtype = r_.string(r_.required(node[i], b_path, "dtype"), b_path + "/dtype");
            if (!parse_dtype(b.dtype))
                r_.fail(b_path + "/dtype",
                        "unknown dtype '" + b.dtype + "'; expected one of " + dtype_list());
            b.count = r_.integer(r_.required(node[i], b_path, "count"), b_path + "/count");
            if (b.count < 1)
                r_.fail(b_path + "/count", "a buffer needs at least one element");
            b.init = r_.string(r_.required(node[i], b_path, "init"), b_path + "/init");
            if (BufferSpec scratch; !parse_buffer_init_text(b.init, scratch))
                r_.fail(b_path + "/init", "unknown initialisation '" + b.init +
                                              "'; expected hash, zero or pattern=HEX");
            records.push_back(std::move(b));
        }
        return records;
    }

    KernelRecord kernel(const json& node, const std::string& path) {
        r_.expect_object(node, path,
                         {"name", "file", "file_sha256", "source_sha256", "parameters", "buffers",
                          "constants", "launch", "registers_per_thread"});
        KernelRecord k;
        k.name = r_.string(r_.required(node, path, "name"), path + "/name");
        if (k.name.empty())
            r_.fail(path + "/name", "the kernel name is empty");
        k.file = r_.string(r_.required(node, path, "file"), path + "/file");
        k.file_sha256 = r_.string(r_.required(node, path, "file_sha256"), path + "/file_sha256");
        static const std::regex sha256_pattern("[0-9a-f]{64}");
        if (!std::regex_match(k.file_sha256, sha256_pattern))
            r_.fail(path + "/file_sha256",
                    "expected 64 lower-case hexadecimal digits (SHA-256), found '" + k.file_sha256 +
                        "'");
        if (const json* source = Reader::optional(node, "source_sha256")) {
            k.source_sha256 = r_.string(*source, path + "/source_sha256");
            if (!std::regex_match(k.source_sha256, sha256_pattern))
                r_.fail(path + "/source_sha256",
                        "expected 64 lower-case hexadecimal digits (SHA-256), found '" +
                            k.source_sha256 + "'");
        }

        const std::string parameters_path = path + "/parameters";
        const json& parameters = r_.required(node, path, "parameters");
        r_.expect_object(parameters, parameters_path);
        for (const auto& [name, value] : parameters.items()) {
            const std::string value_path = child_pointer(parameters_path, name);
            if (value.is_number_integer())
                k.parameters[name] = r_.integer(value, value_path);
            else
                k.parameters[name] = r_.number(value, value_path);
        }

        k.buffers = buffer_records(r_.required(node, path, "buffers"), path + "/buffers");
        if (const json* constants = Reader::optional(node, "constants"))
            k.constants = buffer_records(*constants, path + "/constants");

        const std::string launch_path = path + "/launch";
        const json& launch = r_.required(node, path, "launch");
        r_.expect_object(
            launch, launch_path,
            {"block", "fold", "fold_placement", "grid", "dynamic_shared_memory_bytes"});
        k.launch.block = dim3(r_.required(launch, launch_path, "block"), launch_path + "/block");
        k.launch.fold = dim3(r_.required(launch, launch_path, "fold"), launch_path + "/fold");
        if (const json* placement = Reader::optional(launch, "fold_placement")) {
            if (!placement->is_string() || (*placement != "strided" && *placement != "consecutive"))
                r_.fail(launch_path + "/fold_placement", "expected \"consecutive\" or \"strided\"");
            if (*placement == "strided" && kernel::volume(k.launch.fold) > 1)
                k.launch.fold_placement = kernel::FoldPlacement::strided; // else: nothing to place
        }
        k.launch.grid.reset();
        if (const json* grid = required_unless_published(launch, launch_path, "grid"))
            k.launch.grid = dim3(*grid, launch_path + "/grid");
        k.launch.dynamic_shared_memory_bytes =
            non_negative(r_.required(launch, launch_path, "dynamic_shared_memory_bytes"),
                         launch_path + "/dynamic_shared_memory_bytes");
        if (const json* registers = Reader::optional(node, "registers_per_thread")) {
            const std::int64_t count = r_.integer(*registers, path + "/registers_per_thread");
            if (count < 1 || count > 255)
                r_.fail(path + "/registers_per_thread",
                        "expected 1..255 registers per thread, found " + std::to_string(count));
            k.registers_per_thread = static_cast<int>(count);
        }
        return k;
    }

    MethodRecord method(const json& node, const std::string& path) {
        r_.expect_object(node, path,
                         {"warmup", "repetitions", "l2_flush", "l2_flush_bytes", "timer"});
        MethodRecord m;
        m.warmup_count =
            static_cast<int>(non_negative(r_.required(node, path, "warmup"), path + "/warmup"));
        const std::int64_t repetitions =
            r_.integer(r_.required(node, path, "repetitions"), path + "/repetitions");
        if (repetitions < 1)
            r_.fail(path + "/repetitions", "expected at least one repetition");
        m.repetitions = static_cast<int>(repetitions);
        m.l2_flush = r_.boolean(r_.required(node, path, "l2_flush"), path + "/l2_flush");
        if (const json* bytes = Reader::optional(node, "l2_flush_bytes"))
            m.l2_flush_bytes = non_negative(*bytes, path + "/l2_flush_bytes");
        m.timer = r_.string(r_.required(node, path, "timer"), path + "/timer");
        if (m.timer != "cuda-event")
            r_.fail(path + "/timer", "unknown timer '" + m.timer + "'; expected cuda-event");
        return m;
    }

    // `repetitions`: /method/repetitions; absent only in a published record without a method.
    ResultsRecord results(const json& node, const std::string& path,
                          std::optional<int> repetitions) {
        r_.expect_object(
            node, path,
            {"times_s", "median_s", "min_s", "max_s", "mean_s", "stddev_s", "throughput"});
        ResultsRecord res;
        res.throughput = named_values(r_.required(node, path, "throughput"), path + "/throughput");
        const std::string times_path = path + "/times_s";
        const json* times = required_unless_published(node, path, "times_s");
        if (!times) {
            // A published record that states no times: no summary either.
            for (const char* key : {"median_s", "min_s", "max_s", "mean_s", "stddev_s"})
                if (Reader::optional(node, key))
                    r_.fail(path + "/" + key, "a summary of times without times_s");
            return res;
        }
        r_.expect_array(*times, times_path);
        for (std::size_t i = 0; i < times->size(); ++i)
            res.times_s.push_back(positive((*times)[i], child_pointer(times_path, i)));
        if (repetitions && res.times_s.size() != static_cast<std::size_t>(*repetitions))
            r_.fail(times_path, std::to_string(res.times_s.size()) + " times for " +
                                    std::to_string(*repetitions) +
                                    " repetitions (/method/repetitions)");
        if (res.times_s.empty())
            r_.fail(times_path, "expected at least one time");
        res.median_s = r_.number(r_.required(node, path, "median_s"), path + "/median_s");
        res.min_s = r_.number(r_.required(node, path, "min_s"), path + "/min_s");
        res.max_s = r_.number(r_.required(node, path, "max_s"), path + "/max_s");
        res.mean_s = r_.number(r_.required(node, path, "mean_s"), path + "/mean_s");
        res.stddev_s = r_.number(r_.required(node, path, "stddev_s"), path + "/stddev_s");
        // The summary must describe the times it sits beside (an edited record would not).
        const TimeSummary expected = summarize_times(res.times_s);
        check_summary(path + "/median_s", res.median_s, expected.median_s);
        check_summary(path + "/min_s", res.min_s, expected.min_s);
        check_summary(path + "/max_s", res.max_s, expected.max_s);
        check_summary(path + "/mean_s", res.mean_s, expected.mean_s);
        // Equal times: the recomputed deviation is rounding noise; compare on the times' scale.
        check_summary(path + "/stddev_s", res.stddev_s, expected.stddev_s, expected.mean_s);
        return res;
    }

    void check_summary(const std::string& path, double recorded, double expected,
                       double scale = 0.0) {
        // Relative 1e-12: rounding of a different summation order, nothing more.
        if (std::abs(recorded - expected) >
            1e-12 * std::max({std::abs(expected), std::abs(scale), 1e-300})) {
            std::ostringstream message;
            message.precision(17);
            message << "recorded value " << recorded << " does not match times_s (expected "
                    << expected << ")";
            r_.fail(path, message.str());
        }
    }

    std::map<std::string, NamedValue> named_values(const json& node, const std::string& path) {
        r_.expect_object(node, path);
        std::map<std::string, NamedValue> values;
        for (const auto& [name, entry] : node.items()) {
            const std::string entry_path = child_pointer(path, name);
            r_.expect_object(entry, entry_path, {"value", "unit"});
            NamedValue v;
            v.value = r_.number(r_.required(entry, entry_path, "value"), entry_path + "/value");
            v.unit = r_.string(r_.required(entry, entry_path, "unit"), entry_path + "/unit");
            values[name] = v;
        }
        return values;
    }
};

} // namespace

Measurement parse_measurement_json(const std::string& text, const std::string& origin) {
    const json_reader::Document document = json_reader::parse(text, origin);
    return MeasurementReader(document).read(document.value);
}

Measurement load_measurement_file(const std::string& path) {
    return parse_measurement_json(read_input_file(path, "measurement record"), path);
}

void write_measurement_file(const Measurement& measurement, const std::string& path) {
    const std::string text = measurement_to_json(measurement).dump(2) + "\n";
    if (path == "-") {
        std::cout << text;
        return;
    }
    std::ofstream file(path, std::ios::binary);
    if (!file)
        throw_input_error("cannot open '" + path + "' for writing");
    file << text;
    if (!file)
        throw_input_error("failed writing '" + path + "'");
}

std::string iso8601_utc_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

} // namespace kerncast::runtime
