// Private to src/machine: the machine-file reader (docs/machine-format.md) shared by
// machine_read.cpp (the sections), machine_extends.cpp ("extends") and machine_json.cpp.
#pragma once

#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "machine_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace kerncast::machine_format {

using json = nlohmann::json;
using json_reader::child_pointer;
using json_reader::describe_type;
using json_reader::PositionIndex;
using json_reader::quoted_list;
namespace mf = machine_fields;

// Scalar types of machine values and how the format spells them.
template <class T> struct ScalarTraits;
template <> struct ScalarTraits<int> { static constexpr const char* expected = "an integer"; };
template <> struct ScalarTraits<std::int64_t> {
    static constexpr const char* expected = "an integer";
};
template <> struct ScalarTraits<double> { static constexpr const char* expected = "a number"; };
template <> struct ScalarTraits<std::string> {
    static constexpr const char* expected = "a string";
};

// The shared strict reader plus the machine format's rules: sourced values, sizes written as
// "48 KiB", and documents merged onto a built-in ("extends").
class Reader : public json_reader::Reader {
public:
    explicit Reader(const PositionIndex& positions) : json_reader::Reader(positions) {}

    // For a document merged onto a built-in: merged paths -> paths in the user's text.
    void set_extended(std::string base_id, std::map<std::string, std::string> path_map) {
        base_id_ = std::move(base_id);
        path_map_ = std::move(path_map);
    }

    SourceLocation locate(const std::string& path, bool at_key = false) const override {
        if (base_id_.empty())
            return with_path(positions().locate(through_value_members(path), at_key), path);
        const std::string text_path = through_value_members(path_in_text(path));
        if (!text_path.empty()) // in the file, or the nearest enclosing object of the file
            return with_path(positions().locate(text_path, at_key), path);
        SourceLocation where;
        where.file = origin();
        where.json_path = path;
        return where;
    }

    // True when the value at path came from the built-in machine, not from the file.
    bool inherited(const std::string& path) const {
        if (base_id_.empty())
            return false;
        const std::string text_path = through_value_members(path_in_text(path));
        return text_path.empty() || !positions().contains(text_path);
    }

    void set_sources(const std::map<std::string, Provenance>* sources) { sources_ = sources; }

    // ----- scalars -----

    template <class T> T scalar(const json& value, const std::string& path) const {
        if constexpr (std::is_same_v<T, std::string>) {
            return string(value, path);
        } else if constexpr (std::is_same_v<T, double>) {
            return number(value, path);
        } else {
            if (value.is_string() && mf::is_size_key(last_key(path)))
                return static_cast<T>(size_string(value.get<std::string>(), path));
            if (!value.is_number_integer() && mf::is_size_key(last_key(path)))
                fail(path, "expected an integer (bytes) or a size such as \"48 KiB\", got " +
                               describe_type(value));
            const std::int64_t number = integer(value, path);
            if (number < std::numeric_limits<T>::min() || number > std::numeric_limits<T>::max())
                fail(path, "integer " + value.dump() + " is out of range");
            return static_cast<T>(number);
        }
    }

    // "48 KiB", "40 MiB", "1.5 MiB", "512 B": binary units only, so that "MB" cannot be
    // misread (vendors write "40 MB" for 40 MiB of L2).
    std::int64_t size_string(const std::string& text, const std::string& path) const {
        static const std::regex pattern(R"(^\s*([0-9]+(\.[0-9]+)?)\s*(B|KiB|MiB|GiB)\s*$)");
        std::smatch match;
        if (!std::regex_match(text, match, pattern))
            fail(path,
                 "expected a size such as \"48 KiB\" or an integer number of bytes, got \"" + text +
                     "\"",
                 {"units: B, KiB, MiB, GiB (powers of 1024)"});
        const double number = std::stod(match[1].str());
        const std::string unit = match[3].str();
        const double scale = unit == "B"     ? 1.0
                             : unit == "KiB" ? 1024.0
                             : unit == "MiB" ? 1024.0 * 1024.0
                                             : 1024.0 * 1024.0 * 1024.0;
        const double bytes = number * scale;
        if (bytes != std::floor(bytes) || bytes > 9.0e18)
            fail(path, "size \"" + text + "\" is not a whole number of bytes");
        return static_cast<std::int64_t>(bytes);
    }

    // ----- sources -----

    // A source key given at `path` must be declared in "sources".
    std::string source_key(const json& value, const std::string& path) const {
        const auto key = scalar<std::string>(value, path);
        if (sources_->count(key) == 0) {
            std::vector<std::string> declared;
            for (const auto& [name, provenance] : *sources_)
                declared.push_back(name);
            std::vector<std::string> notes;
            const auto close = closest_names(key, declared, 1);
            if (!close.empty())
                notes.push_back("did you mean \"" + close.front() + "\"?");
            notes.push_back(declared.empty() ? "\"sources\" declares no sources"
                                             : "declared sources: " + quoted_list(declared));
            fail(path, "unknown source \"" + key + "\"", notes);
        }
        return key;
    }

    // The default source an object gives its members: its own "source", else inherited.
    std::string default_source(const json& object, const std::string& path,
                               const std::string& inherited) const {
        if (object.contains("source"))
            return source_key(object.at("source"), child_pointer(path, "source"));
        return inherited;
    }

    // A value written bare (inheriting the default source) or as {"value": X, "source": K}.
    // null means unknown: the value is absent (an "extends" file can remove a value so).
    template <class T>
    std::optional<Sourced<T>> sourced(const json& value, const std::string& path,
                                      const std::string& default_source_key) const {
        if (value.is_null())
            return std::nullopt;
        Sourced<T> result;
        if (value.is_object()) {
            check_keys(value, path, {"value", "source"});
            result.value = scalar<T>(required(value, path, "value", ScalarTraits<T>::expected),
                                     child_pointer(path, "value"));
            result.source = value.contains("source")
                                ? source_key(value.at("source"), child_pointer(path, "source"))
                                : default_source_key;
        } else {
            result.value = scalar<T>(value, path);
            result.source = default_source_key;
        }
        if (result.source.empty())
            fail(path, "value has no source",
                 {"write {\"value\": ..., \"source\": \"<key>\"}, or give the enclosing object a "
                  "\"source\" default; keys name entries of \"sources\""});
        return result;
    }

    // A list of values with one source: written bare ([...], taking the default source) or as
    // {"value": [...], "source": K}; null means unknown. read_element(json, path) reads one
    // element. `section` names where a default source could be given, for the error note.
    template <class T, class ReadElement>
    std::optional<Sourced<std::vector<T>>>
    sourced_list(const json& value, const std::string& path, const std::string& default_source_key,
                 const std::string& expected, const std::string& section,
                 ReadElement read_element) const {
        if (value.is_null())
            return std::nullopt;
        const json* list = &value;
        std::string list_path = path;
        Sourced<std::vector<T>> result;
        result.source = default_source_key;
        if (value.is_object()) {
            check_keys(value, path, {"value", "source"});
            list = &required(value, path, "value", expected);
            list_path = child_pointer(path, "value");
            if (value.contains("source"))
                result.source = source_key(value.at("source"), child_pointer(path, "source"));
        }
        expect_array(*list, list_path);
        for (std::size_t i = 0; i < list->size(); ++i)
            result.value.push_back(read_element((*list)[i], child_pointer(list_path, i)));
        if (result.source.empty())
            fail(path, "value has no source",
                 {"give {\"value\": [...], \"source\": \"<key>\"} or a \"source\" default in " +
                  section});
        return result;
    }

    // Reads every listed scalar field present in `object` into `section`.
    template <class Section, std::size_t N>
    void fields(const json& object, const std::string& path,
                const std::array<mf::Field<Section>, N>& list, const std::string& source,
                Section& section) const {
        for (const auto& field : list) {
            const std::string key(field.key);
            if (!object.contains(key))
                continue;
            const std::string field_path = child_pointer(path, key);
            std::visit(
                [&](auto member) {
                    read_known(object.at(key), field_path, source, section.*member);
                },
                field.member);
        }
    }

    template <class T>
    void read_known(const json& value, const std::string& path, const std::string& source,
                    Known<T>& destination) const {
        destination = sourced<T>(value, path, source);
    }

private:
    // The field a path names: "/memory/0/size_bytes/value" -> "size_bytes".
    static std::string last_key(std::string path) {
        if (path.size() > 6 && path.compare(path.size() - 6, 6, "/value") == 0)
            path.erase(path.size() - 6);
        const auto slash = path.rfind('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    }

    std::string path_in_text(const std::string& path) const {
        // Longest mapped prefix wins; unmapped paths are the same in the text.
        std::string best_from;
        std::string best_to;
        for (const auto& [from, to] : path_map_) {
            if (from.size() > best_from.size() && path.compare(0, from.size(), from) == 0 &&
                (path.size() == from.size() || path[from.size()] == '/')) {
                best_from = from;
                best_to = to;
            }
        }
        if (best_from.empty())
            return path;
        if (best_to.empty())
            return {}; // inherited from the base machine, not in the text
        return best_to + path.substr(best_from.size());
    }

    // A path of the model (".../effective_size_by_carveout/1/shared_kib") as the text spells
    // it where a list or value is written {"value": ..., "source": K} (".../value/1/...");
    // the path itself when the text has it or spells it no other way. The validator builds
    // its paths from the model, which does not record which form the text used.
    std::string through_value_members(const std::string& text_path) const {
        if (text_path.empty() || positions().contains(text_path))
            return text_path;
        std::string spelled;
        std::size_t start = 1; // after the leading '/'
        while (start <= text_path.size()) {
            const std::size_t end = std::min(text_path.find('/', start), text_path.size());
            const std::string segment = text_path.substr(start, end - start);
            if (segment != "value" && !positions().contains(spelled + "/" + segment) &&
                positions().contains(spelled + "/value"))
                spelled += "/value";
            spelled += "/" + segment;
            start = end + 1;
        }
        return positions().contains(spelled) ? spelled : text_path;
    }

    static SourceLocation with_path(SourceLocation where, const std::string& path) {
        where.json_path = path;
        return where;
    }

    const std::map<std::string, Provenance>* sources_ = nullptr;
    std::string base_id_;
    std::map<std::string, std::string> path_map_;
};

// A whole machine document (an "extends" overlay already merged onto its base) into a
// MachineModel; validation is the caller's.
MachineModel read_machine(Reader& reader, const json& document);

} // namespace kerncast::machine_format
