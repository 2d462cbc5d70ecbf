// The workload file (docs/mwp-cwp.md, "Workload files").
#include "kerncast/models/workload.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

namespace kerncast::models {
namespace {

using nlohmann::json;

// Every key a workload document may have.
constexpr std::array<std::string_view, 15> known_keys = {"schema",
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

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1,
                                   previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(previous, current);
    }
    return previous[b.size()];
}

// Line (1-based), column (1-based) and text of the line holding byte offset `offset`.
SourceLocation location_of(std::string_view text, std::size_t offset, const std::string& file) {
    offset = std::min(offset, text.size());
    SourceLocation where;
    where.file = file;
    where.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
    const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t begin =
        (line_start == std::string_view::npos || offset == 0) ? 0 : line_start + 1;
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos)
        end = text.size();
    where.column = 1 + static_cast<int>(offset - begin);
    where.source_line = std::string(text.substr(begin, end - begin));
    if (!where.source_line.empty() && where.source_line.back() == '\r')
        where.source_line.pop_back();
    return where;
}

class Reader {
public:
    Reader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

    // Where the top-level key `key` is written (the opening quote of each `"key" :`). The
    // document is flat and JSON strings escape their quotes, so every match is that key.
    std::vector<SourceLocation> key_locations(const std::string& key) const {
        std::vector<SourceLocation> found;
        const std::string quoted = "\"" + key + "\"";
        for (std::size_t at = text_.find(quoted); at != std::string_view::npos;
             at = text_.find(quoted, at + 1)) {
            std::size_t after = at + quoted.size();
            while (after < text_.size() && std::isspace(static_cast<unsigned char>(text_[after])))
                ++after;
            if (after < text_.size() && text_[after] == ':') {
                found.push_back(location_of(text_, at, file_));
                found.back().json_path = "/" + key;
            }
        }
        return found;
    }

    // Where the key is written, or just the file and path when it is not in the text.
    SourceLocation where(const std::string& key) const {
        auto found = key.empty() ? std::vector<SourceLocation>{} : key_locations(key);
        if (!found.empty())
            return found.front();
        SourceLocation location;
        location.file = file_;
        location.json_path = key.empty() ? "" : "/" + key;
        return location;
    }

    [[noreturn]] void fail(const std::string& key, const std::string& message,
                           std::vector<std::string> notes = {}) const {
        throw_input_error(message, where(key), std::move(notes));
    }

    const json& field(const json& doc, const std::string& key) const {
        if (!doc.contains(key))
            fail(key, fmt::format("missing required field '{}'", key),
                 {"see docs/mwp-cwp.md for the workload format"});
        return doc.at(key);
    }

    std::string string_field(const json& doc, const std::string& key) const {
        const json& value = field(doc, key);
        if (!value.is_string())
            fail(key, fmt::format("'{}' must be a string, got {}", key, value.type_name()));
        return value.get<std::string>();
    }

    double number(const json& value, const std::string& key) const {
        if (!value.is_number())
            fail(key, fmt::format("'{}' must be a number, got {}", key, value.type_name()));
        const double number = value.get<double>();
        if (!std::isfinite(number))
            fail(key, fmt::format("'{}' must be finite", key));
        return number;
    }

    // A per-thread count: a finite number >= minimum.
    double count(const json& doc, const std::string& key, double minimum = 0) const {
        const double value = number(field(doc, key), key);
        if (value < minimum)
            fail(key, minimum == 0
                          ? fmt::format("'{}' must not be negative, got {}", key, value)
                          : fmt::format("'{}' must be at least {}, got {}", key, minimum, value));
        return value;
    }

    // An integer >= minimum that fits in T.
    template <class T> T integer(const json& value, const std::string& key, T minimum) const {
        if (!value.is_number_integer())
            fail(key, fmt::format("'{}' must be an integer, got {}", key,
                                  value.is_number() ? value.dump() : value.type_name()));
        if (value.is_number_unsigned()) {
            if (value.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
                fail(key, fmt::format("'{}' is too large: {}", key, value.dump()));
        } else if (value.get<std::int64_t>() < std::numeric_limits<T>::min() ||
                   value.get<std::int64_t>() > std::numeric_limits<T>::max()) {
            fail(key, fmt::format("'{}' is out of range: {}", key, value.dump()));
        }
        const T result = value.get<T>();
        if (result < minimum)
            fail(key, minimum == 0
                          ? fmt::format("'{}' must not be negative, got {}", key, result)
                          : fmt::format("'{}' must be at least {}, got {}", key, minimum, result));
        return result;
    }

    template <class T>
    T required_integer(const json& doc, const std::string& key, T minimum) const {
        return integer<T>(field(doc, key), key, minimum);
    }

    template <class T>
    std::optional<T> optional_integer(const json& doc, const std::string& key, T minimum) const {
        if (!doc.contains(key))
            return std::nullopt;
        return integer<T>(doc.at(key), key, minimum);
    }

private:
    std::string_view text_;
    std::string file_;
};

// The start of the token that ends at `last`: a string's opening quote, or the first
// character of a number or literal.
std::size_t token_start(std::string_view text, std::size_t last) {
    if (last >= text.size())
        return last;
    if (text[last] == '"') {
        for (std::size_t at = last; at > 0; --at)
            if (text[at - 1] == '"' && (at < 2 || text[at - 2] != '\\'))
                return at - 1;
        return last;
    }
    auto in_word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+';
    };
    std::size_t at = last;
    while (in_word(text[at]) && at > 0 && in_word(text[at - 1]) && text[at - 1] != '\n')
        --at;
    return at;
}

json parse_json(std::string_view text, const std::string& file) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // e.byte is the 1-based index of the last character read, the end of the offending
        // token; point at the token's start.
        const std::size_t offset = token_start(text, e.byte == 0 ? 0 : e.byte - 1);
        std::string message = e.what();
        const std::size_t column_at = message.find("column ");
        const std::size_t colon =
            message.find(": ", column_at == std::string::npos ? 0 : column_at);
        if (colon != std::string::npos)
            message = message.substr(colon + 2);
        throw_input_error("malformed JSON: " + message, location_of(text, offset, file));
    }
}

} // namespace

Workload parse_workload_json(std::string_view text, const std::string& file_label) {
    const json doc = parse_json(text, file_label);
    const Reader read(text, file_label);
    if (!doc.is_object())
        read.fail("", fmt::format("a workload must be a JSON object, got {}", doc.type_name()));

    for (const auto& [key, value] : doc.items()) {
        (void)value;
        if (std::find(known_keys.begin(), known_keys.end(), key) != known_keys.end()) {
            // The JSON parser silently keeps the last of two equal keys.
            const auto found = read.key_locations(key);
            if (found.size() > 1)
                throw_input_error(fmt::format("duplicate key '{}'", key), found[1],
                                  {fmt::format("first given at line {}", found[0].line)});
            continue;
        }
        const auto closest = std::min_element(
            known_keys.begin(), known_keys.end(), [&](std::string_view a, std::string_view b) {
                return edit_distance(key, a) < edit_distance(key, b);
            });
        read.fail(key, fmt::format("unknown key '{}'", key),
                  {fmt::format("did you mean '{}'?", *closest)});
    }

    const std::string schema = read.string_field(doc, "schema");
    if (schema != workload_schema)
        read.fail("schema", fmt::format("unsupported schema '{}'; this kerncast reads '{}'", schema,
                                        workload_schema));

    Workload w;
    if (doc.contains("name"))
        w.name = read.string_field(doc, "name");
    if (doc.contains("comment"))
        w.comment = read.string_field(doc, "comment");
    w.threads_per_block = read.required_integer<int>(doc, "threads_per_block", 1);
    w.blocks = read.required_integer<std::int64_t>(doc, "blocks", 1);
    w.comp_insts = read.count(doc, "comp_insts");
    w.uncoal_mem_insts = read.count(doc, "uncoal_mem_insts");
    w.coal_mem_insts = read.count(doc, "coal_mem_insts");
    w.synch_insts = read.count(doc, "synch_insts");
    w.uncoal_per_mw = read.count(doc, "uncoal_per_mw", 1);
    w.load_bytes_per_warp = read.count(doc, "load_bytes_per_warp");
    if (w.load_bytes_per_warp == 0)
        read.fail("load_bytes_per_warp", "'load_bytes_per_warp' must be positive");
    w.registers_per_thread = read.optional_integer<int>(doc, "registers_per_thread", 0);
    w.shared_memory_per_block_bytes =
        read.optional_integer<int>(doc, "shared_memory_per_block_bytes", 0);
    w.active_blocks_per_sm = read.optional_integer<int>(doc, "active_blocks_per_sm", 1);
    w.active_sms = read.optional_integer<int>(doc, "active_sms", 1);

    if (w.total_insts() == 0)
        read.fail("comp_insts", "the workload has no instructions: comp_insts, "
                                "uncoal_mem_insts and coal_mem_insts are all 0");
    if (!w.active_blocks_per_sm && (!w.registers_per_thread || !w.shared_memory_per_block_bytes)) {
        const std::string missing =
            !w.registers_per_thread ? "registers_per_thread" : "shared_memory_per_block_bytes";
        read.fail(missing, fmt::format("missing required field '{}'", missing),
                  {"the occupancy calculation needs registers_per_thread and "
                   "shared_memory_per_block_bytes unless active_blocks_per_sm is given"});
    }
    return w;
}

Workload load_workload_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw_input_error(fmt::format("cannot read workload file '{}'", path));
    std::ostringstream text;
    text << file.rdbuf();
    return parse_workload_json(text.str(), path);
}

} // namespace kerncast::models
