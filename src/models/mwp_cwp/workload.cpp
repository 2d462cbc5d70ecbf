// The workload file (docs/mwp-cwp.md, "Workload files").
#include "kerncast/models/mwp_cwp/workload.hpp"

#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/json_reader.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

namespace kerncast::models {
namespace {

using json_reader::child_pointer;
using nlohmann::json;

// Every key a workload document may have.
const std::vector<std::string> known_keys = {"schema",
                                             "name",
                                             "comment",
                                             "threads_per_block",
                                             "blocks",
                                             "comp_insts",
                                             "uncoal_mem_insts",
                                             "coal_mem_insts",
                                             "synch_insts",
                                             "uncoal_per_mw",
                                             "load_bytes_per_warp",
                                             "registers_per_thread",
                                             "shared_memory_per_block_bytes",
                                             "active_blocks_per_sm",
                                             "active_sms"};

// The workload's fields on top of the shared strict reader: a workload is one flat object, so
// each field is read by its key and its error names the path "/key".
class WorkloadReader : public json_reader::Reader {
public:
    explicit WorkloadReader(const json_reader::Document& document)
        : json_reader::Reader(document), doc_(document.value) {}

    const json& field(const std::string& key) const {
        return required(doc_, "", key, {}, {"see docs/mwp-cwp.md for the workload format"});
    }

    std::string string_field(const std::string& key) const {
        return string(field(key), child_pointer("", key));
    }

    // A per-thread count: a finite number >= minimum.
    double count(const std::string& key, double minimum = 0) const {
        const std::string path = child_pointer("", key);
        const double value = number(field(key), path);
        if (!std::isfinite(value))
            fail(path, fmt::format("'{}' must be finite", key));
        check_minimum(path, key, value, minimum);
        return value;
    }

    // An integer >= minimum that fits in T.
    template <class T> T integer_in(const json& value, const std::string& key, T minimum) const {
        const std::string path = child_pointer("", key);
        const std::int64_t number = integer(value, path);
        if (number > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
            fail(path, fmt::format("'{}' is too large: {}", key, number));
        if (number < static_cast<std::int64_t>(std::numeric_limits<T>::min()))
            fail(path, fmt::format("'{}' is out of range: {}", key, number));
        const T result = static_cast<T>(number);
        check_minimum(path, key, result, minimum);
        return result;
    }

    template <class T> T required_integer(const std::string& key, T minimum) const {
        return integer_in<T>(field(key), key, minimum);
    }

    template <class T> std::optional<T> optional_integer(const std::string& key, T minimum) const {
        const json* value = optional(doc_, key);
        if (!value)
            return std::nullopt;
        return integer_in<T>(*value, key, minimum);
    }

private:
    template <class T>
    void check_minimum(const std::string& path, const std::string& key, T value, T minimum) const {
        if (value < minimum)
            fail(path, minimum == 0
                           ? fmt::format("'{}' must not be negative, got {}", key, value)
                           : fmt::format("'{}' must be at least {}, got {}", key, minimum, value));
    }

    const json& doc_;
};

} // namespace

Workload parse_workload_json(std::string_view text, const std::string& file_label) {
    const json_reader::Document document = json_reader::parse(std::string(text), file_label);
    const json& doc = document.value;
    const WorkloadReader read(document);
    if (!doc.is_object())
        read.fail("", fmt::format("a workload must be a JSON object, got {}", doc.type_name()));
    read.check_keys(doc, "", known_keys);

    const std::string schema = read.string_field("schema");
    if (schema != workload_schema)
        read.fail("/schema", fmt::format("unsupported schema '{}'; this kerncast reads '{}'",
                                         schema, workload_schema));

    Workload w;
    if (doc.contains("name"))
        w.name = read.string_field("name");
    if (doc.contains("comment"))
        w.comment = read.string_field("comment");
    w.threads_per_block = read.required_integer<int>("threads_per_block", 1);
    w.blocks = read.required_integer<std::int64_t>("blocks", 1);
    w.comp_insts = read.count("comp_insts");
    w.uncoal_mem_insts = read.count("uncoal_mem_insts");
    w.coal_mem_insts = read.count("coal_mem_insts");
    w.synch_insts = read.count("synch_insts");
    w.uncoal_per_mw = read.count("uncoal_per_mw", 1);
    w.load_bytes_per_warp = read.count("load_bytes_per_warp");
    if (w.load_bytes_per_warp == 0)
        read.fail("/load_bytes_per_warp", "'load_bytes_per_warp' must be positive");
    w.registers_per_thread = read.optional_integer<int>("registers_per_thread", 0);
    w.shared_memory_per_block_bytes =
        read.optional_integer<int>("shared_memory_per_block_bytes", 0);
    w.active_blocks_per_sm = read.optional_integer<int>("active_blocks_per_sm", 1);
    w.active_sms = read.optional_integer<int>("active_sms", 1);

    if (w.total_insts() == 0)
        read.fail("/comp_insts", "the workload has no instructions: comp_insts, "
                                 "uncoal_mem_insts and coal_mem_insts are all 0");
    if (!w.active_blocks_per_sm && (!w.registers_per_thread || !w.shared_memory_per_block_bytes)) {
        const std::string missing =
            !w.registers_per_thread ? "registers_per_thread" : "shared_memory_per_block_bytes";
        read.fail(child_pointer("", missing), fmt::format("missing required field \"{}\"", missing),
                  {"the occupancy calculation needs registers_per_thread and "
                   "shared_memory_per_block_bytes unless active_blocks_per_sm is given"});
    }
    return w;
}

Workload load_workload_file(const std::string& path) {
    return parse_workload_json(read_input_file(path, "workload file"), path);
}

} // namespace kerncast::models
