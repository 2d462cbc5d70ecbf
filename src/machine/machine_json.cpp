// Reading and writing the machine-file format (docs/machine-format.md).
#include "kerncast/machine/machine_json.hpp"

#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "machine_fields.hpp"
#include "validate_at.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <sstream>

namespace kerncast {
namespace {

using json = nlohmann::json;
using json_reader::child_pointer;
using json_reader::describe_type;
using json_reader::PositionIndex;
using json_reader::quoted_list;
namespace mf = machine_fields;

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

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
            return json_reader::Reader::locate(path, at_key);
        const std::string text_path = path_in_text(path);
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
        const std::string text_path = path_in_text(path);
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

    static SourceLocation with_path(SourceLocation where, const std::string& path) {
        where.json_path = path;
        return where;
    }

    const std::map<std::string, Provenance>* sources_ = nullptr;
    std::string base_id_;
    std::map<std::string, std::string> path_map_;
};

template <class Section, std::size_t N>
std::vector<std::string> keys_of(const std::array<mf::Field<Section>, N>& list,
                                 std::vector<std::string> extra) {
    for (const auto& field : list)
        extra.emplace_back(field.key);
    return extra;
}

// {"relative_spread": 0.012, "confidence": "high", "repetitions": 5}: every member required;
// the ranges are checked by the validator.
Uncertainty read_uncertainty(const Reader& reader, const json& object, const std::string& path) {
    reader.expect_object(object, path);
    reader.check_keys(object, path, {"relative_spread", "confidence", "repetitions"});
    Uncertainty uncertainty;
    uncertainty.relative_spread = reader.scalar<double>(
        reader.required(object, path, "relative_spread", "a number such as 0.012"),
        child_pointer(path, "relative_spread"));
    uncertainty.confidence = reader.scalar<std::string>(
        reader.required(object, path, "confidence", "one of \"high\", \"medium\", \"low\""),
        child_pointer(path, "confidence"));
    uncertainty.repetitions =
        reader.scalar<int>(reader.required(object, path, "repetitions", "an integer"),
                           child_pointer(path, "repetitions"));
    return uncertainty;
}

// {"fits": [...], "records": 90, "samples": 270, "median_abs_relative_error": 0.03, ...}:
// what a fit rests on (docs/machine-format.md); ranges are checked by the validator.
FitProvenance read_fit_provenance(const Reader& reader, const json& object,
                                  const std::string& path) {
    reader.expect_object(object, path);
    reader.check_keys(object, path,
                      {"fits", "records", "samples", "median_abs_relative_error",
                       "p90_abs_relative_error", "held_out_median_abs_relative_error",
                       "held_out_p90_abs_relative_error", "records_sha256", "date",
                       "kerncast_version"});
    FitProvenance fit;
    auto number = [&](const char* key) {
        return reader.scalar<double>(reader.required(object, path, key, "a number"),
                                     child_pointer(path, key));
    };
    auto optional_number = [&](const char* key) -> std::optional<double> {
        if (!object.contains(key) || object.at(key).is_null())
            return std::nullopt;
        return reader.scalar<double>(object.at(key), child_pointer(path, key));
    };
    auto text = [&](const char* key, const char* expected) {
        return reader.scalar<std::string>(reader.required(object, path, key, expected),
                                          child_pointer(path, key));
    };
    const std::string fits_path = child_pointer(path, "fits");
    const json& fits =
        reader.required(object, path, "fits", "an array of fit names such as \"z_layer_overlap\"");
    reader.expect_array(fits, fits_path);
    for (std::size_t i = 0; i < fits.size(); ++i)
        fit.fits.push_back(reader.scalar<std::string>(fits[i], child_pointer(fits_path, i)));
    fit.records = reader.scalar<int>(reader.required(object, path, "records", "an integer"),
                                     child_pointer(path, "records"));
    fit.samples = reader.scalar<int>(reader.required(object, path, "samples", "an integer"),
                                     child_pointer(path, "samples"));
    fit.median_abs_relative_error = number("median_abs_relative_error");
    fit.p90_abs_relative_error = number("p90_abs_relative_error");
    fit.held_out_median_abs_relative_error = optional_number("held_out_median_abs_relative_error");
    fit.held_out_p90_abs_relative_error = optional_number("held_out_p90_abs_relative_error");
    fit.records_sha256 = text("records_sha256", "64 hexadecimal digits");
    fit.date = text("date", "an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\"");
    fit.kerncast_version = text("kerncast_version", "a string such as \"0.1.0\"");
    return fit;
}

// {"model": "matmul_overlap", "parameters": [...], "records": 300, ...}: what a calibration
// rests on (docs/model-format.md); ranges are checked by the validator.
CalibrationProvenance read_calibration_provenance(const Reader& reader, const json& object,
                                                  const std::string& path) {
    reader.expect_object(object, path);
    reader.check_keys(object, path,
                      {"model", "model_sha256", "parameters", "records", "records_sha256",
                       "relative_error", "non_negative", "residual_norm",
                       "geometric_mean_abs_relative_error", "max_abs_relative_error", "date",
                       "kerncast_version"});
    CalibrationProvenance c;
    auto number = [&](const char* key) {
        return reader.scalar<double>(reader.required(object, path, key, "a number"),
                                     child_pointer(path, key));
    };
    auto text = [&](const char* key, const char* expected) {
        return reader.scalar<std::string>(reader.required(object, path, key, expected),
                                          child_pointer(path, key));
    };
    auto flag = [&](const char* key) {
        const json& value = reader.required(object, path, key, "true or false");
        if (!value.is_boolean())
            reader.fail(child_pointer(path, key),
                        "expected true or false, got " + describe_type(value));
        return value.get<bool>();
    };
    c.model = text("model", "the model's name");
    c.model_sha256 = text("model_sha256", "64 hexadecimal digits");
    const std::string parameters_path = child_pointer(path, "parameters");
    const json& parameters = reader.required(object, path, "parameters",
                                             "an array of parameter names such as \"p_edge\"");
    reader.expect_array(parameters, parameters_path);
    for (std::size_t i = 0; i < parameters.size(); ++i)
        c.parameters.push_back(
            reader.scalar<std::string>(parameters[i], child_pointer(parameters_path, i)));
    c.records = reader.scalar<int>(reader.required(object, path, "records", "an integer"),
                                   child_pointer(path, "records"));
    c.records_sha256 = text("records_sha256", "64 hexadecimal digits");
    c.relative_error = flag("relative_error");
    c.non_negative = flag("non_negative");
    c.residual_norm = number("residual_norm");
    c.geometric_mean_abs_relative_error = number("geometric_mean_abs_relative_error");
    c.max_abs_relative_error = number("max_abs_relative_error");
    c.date = text("date", "an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\"");
    c.kerncast_version = text("kerncast_version", "a string such as \"0.1.0\"");
    return c;
}

std::map<std::string, Provenance> read_sources(const Reader& reader, const json& object) {
    const std::string path = "/sources";
    reader.expect_object(object, path);
    std::map<std::string, Provenance> sources;
    for (const auto& [key, entry] : object.items()) {
        const std::string entry_path = child_pointer(path, key);
        reader.expect_object(entry, entry_path);
        reader.check_keys(entry, entry_path,
                          {"kind", "citation", "run", "uncertainty", "fit", "calibration"});
        Provenance provenance;
        const auto kind = reader.scalar<std::string>(
            reader.required(
                entry, entry_path, "kind",
                "one of \"datasheet\", \"paper\", \"measured\", \"derived\", \"benchmark\""),
            child_pointer(entry_path, "kind"));
        if (kind == "datasheet")
            provenance.kind = SourceKind::datasheet;
        else if (kind == "paper")
            provenance.kind = SourceKind::paper;
        else if (kind == "measured")
            provenance.kind = SourceKind::measured;
        else if (kind == "derived")
            provenance.kind = SourceKind::derived;
        else if (kind == "benchmark")
            provenance.kind = SourceKind::benchmark;
        else {
            std::vector<std::string> notes;
            const auto close =
                closest_names(kind, {"datasheet", "paper", "measured", "derived", "benchmark"}, 1);
            if (!close.empty())
                notes.push_back("did you mean \"" + close.front() + "\"?");
            reader.fail(child_pointer(entry_path, "kind"),
                        "unknown source kind \"" + kind +
                            "\" (expected \"datasheet\", \"paper\", \"measured\", \"derived\" or "
                            "\"benchmark\")",
                        notes);
        }
        provenance.citation =
            reader.scalar<std::string>(reader.required(entry, entry_path, "citation", "a string"),
                                       child_pointer(entry_path, "citation"));
        if (entry.contains("run"))
            provenance.run =
                reader.scalar<std::string>(entry.at("run"), child_pointer(entry_path, "run"));
        if (entry.contains("uncertainty") && !entry.at("uncertainty").is_null())
            provenance.uncertainty = read_uncertainty(reader, entry.at("uncertainty"),
                                                      child_pointer(entry_path, "uncertainty"));
        if (entry.contains("fit") && !entry.at("fit").is_null())
            provenance.fit =
                read_fit_provenance(reader, entry.at("fit"), child_pointer(entry_path, "fit"));
        if (entry.contains("calibration") && !entry.at("calibration").is_null())
            provenance.calibration = read_calibration_provenance(
                reader, entry.at("calibration"), child_pointer(entry_path, "calibration"));
        sources.emplace(key, std::move(provenance));
    }
    return sources;
}

MachineIdentity read_identity(const Reader& reader, const json& object) {
    const std::string path = "/identity";
    reader.expect_object(object, path);
    reader.check_keys(
        object, path,
        {"id", "name", "vendor", "architecture", "compute_capability", "incomplete", "notes"});
    MachineIdentity identity;
    auto text = [&](const char* key) {
        return reader.scalar<std::string>(reader.required(object, path, key, "a string"),
                                          child_pointer(path, key));
    };
    identity.id = text("id");
    identity.name = text("name");
    identity.vendor = text("vendor");
    identity.architecture = text("architecture");
    const std::string cc_path = child_pointer(path, "compute_capability");
    const auto cc = reader.scalar<std::string>(
        reader.required(object, path, "compute_capability", "a string such as \"8.0\""), cc_path);
    static const std::regex cc_pattern(R"(^([0-9]{1,2})\.([0-9]{1,2})$)");
    std::smatch match;
    if (!std::regex_match(cc, match, cc_pattern))
        reader.fail(cc_path, "expected a compute capability such as \"8.0\", got \"" + cc + "\"");
    identity.cc_major = std::stoi(match[1].str());
    identity.cc_minor = std::stoi(match[2].str());
    if (object.contains("incomplete")) {
        if (!object.at("incomplete").is_boolean())
            reader.fail(child_pointer(path, "incomplete"),
                        "expected true or false, got " + describe_type(object.at("incomplete")));
        identity.incomplete = object.at("incomplete").get<bool>();
    }
    if (object.contains("notes"))
        identity.notes =
            reader.scalar<std::string>(object.at("notes"), child_pointer(path, "notes"));
    return identity;
}

ComputeUnits read_compute(const Reader& reader, const json& object,
                          const std::string& inherited_source) {
    const std::string path = "/compute";
    reader.expect_object(object, path);
    reader.check_keys(
        object, path,
        keys_of(mf::compute_fields, {"source", "shared_memory_carveouts_kib", "issue_rates"}));
    const std::string source = reader.default_source(object, path, inherited_source);
    ComputeUnits compute;
    reader.fields(object, path, mf::compute_fields, source, compute);
    reader.required(object, path, "sm_count", "an integer");
    if (!compute.sm_count)
        reader.fail(child_pointer(path, "sm_count"), "sm_count is required and cannot be null");

    if (object.contains("shared_memory_carveouts_kib"))
        compute.shared_memory_carveouts_kib = reader.sourced_list<int>(
            object.at("shared_memory_carveouts_kib"),
            child_pointer(path, "shared_memory_carveouts_kib"), source, "an array of integers",
            "\"compute\"", [&](const json& element, const std::string& element_path) {
                return reader.scalar<int>(element, element_path);
            });

    if (object.contains("issue_rates")) {
        const std::string rates_path = child_pointer(path, "issue_rates");
        const json& rates = object.at("issue_rates");
        reader.expect_array(rates, rates_path);
        for (std::size_t i = 0; i < rates.size(); ++i) {
            const std::string rate_path = child_pointer(rates_path, i);
            const json& entry = rates[i];
            reader.expect_object(entry, rate_path);
            reader.check_keys(entry, rate_path, {"op", "dtype", "per_cycle_per_sm", "source"});
            IssueRate rate;
            rate.op = reader.scalar<std::string>(
                reader.required(entry, rate_path, "op", "a string such as \"fma\""),
                child_pointer(rate_path, "op"));
            rate.dtype = reader.scalar<std::string>(
                reader.required(entry, rate_path, "dtype", "a string such as \"f32\""),
                child_pointer(rate_path, "dtype"));
            const std::string rate_source = reader.default_source(entry, rate_path, source);
            const std::string value_path = child_pointer(rate_path, "per_cycle_per_sm");
            auto value = reader.sourced<double>(
                reader.required(entry, rate_path, "per_cycle_per_sm", "a number"), value_path,
                rate_source);
            if (!value)
                reader.fail(value_path, "per_cycle_per_sm cannot be null");
            rate.per_cycle_per_sm = *value;
            compute.issue_rates.push_back(std::move(rate));
        }
    }
    return compute;
}

// [{"shared_kib": 0, "effective_size_bytes": 262144}, ...] with one source.
std::optional<Sourced<std::vector<CarveoutSize>>>
read_carveout_sizes(const Reader& reader, const json& value, const std::string& path,
                    const std::string& default_source) {
    return reader.sourced_list<CarveoutSize>(
        value, path, default_source,
        "an array of {\"shared_kib\", \"effective_size_bytes\"} objects", "the memory level",
        [&](const json& element, const std::string& element_path) {
            reader.expect_object(element, element_path);
            reader.check_keys(element, element_path, {"shared_kib", "effective_size_bytes"});
            CarveoutSize size;
            size.shared_kib = reader.scalar<int>(
                reader.required(element, element_path, "shared_kib", "an integer (KiB)"),
                child_pointer(element_path, "shared_kib"));
            size.effective_size_bytes = reader.scalar<std::int64_t>(
                reader.required(element, element_path, "effective_size_bytes",
                                "an integer (bytes) or a size such as \"48 KiB\""),
                child_pointer(element_path, "effective_size_bytes"));
            return size;
        });
}

std::vector<MemoryLevel> read_levels(const Reader& reader, const json& list,
                                     const std::string& path, const std::string& inherited_source) {
    reader.expect_array(list, path);
    std::vector<MemoryLevel> levels;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string level_path = child_pointer(path, i);
        const json& object = list[i];
        reader.expect_object(object, level_path);
        reader.check_keys(object, level_path,
                          keys_of(mf::level_fields,
                                  {"name", "shared_by", "source", "effective_size_by_carveout"}));
        MemoryLevel level;
        level.name = reader.scalar<std::string>(
            reader.required(object, level_path, "name", "a string such as \"l2\""),
            child_pointer(level_path, "name"));
        level.shared_by =
            reader.scalar<std::string>(reader.required(object, level_path, "shared_by",
                                                       "one of \"sm\", \"tpc\", \"gpc\", \"gpu\""),
                                       child_pointer(level_path, "shared_by"));
        const std::string source = reader.default_source(object, level_path, inherited_source);
        reader.fields(object, level_path, mf::level_fields, source, level);
        if (object.contains("effective_size_by_carveout"))
            level.effective_size_by_carveout = read_carveout_sizes(
                reader, object.at("effective_size_by_carveout"),
                child_pointer(level_path, "effective_size_by_carveout"), source);
        levels.push_back(std::move(level));
    }
    return levels;
}

std::vector<TlbLevel> read_tlbs(const Reader& reader, const json& list,
                                const std::string& inherited_source) {
    const std::string path = "/tlbs";
    reader.expect_array(list, path);
    std::vector<TlbLevel> tlbs;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string tlb_path = child_pointer(path, i);
        const json& object = list[i];
        reader.expect_object(object, tlb_path);
        reader.check_keys(object, tlb_path,
                          keys_of(mf::tlb_fields, {"name", "shared_by", "source"}));
        TlbLevel tlb;
        tlb.name = reader.scalar<std::string>(
            reader.required(object, tlb_path, "name", "a string such as \"l1_tlb\""),
            child_pointer(tlb_path, "name"));
        // Optional: a probe measures reach, page size and miss latency, not which units
        // share a TLB (docs/machine-format.md).
        if (const json* shared_by = Reader::optional(object, "shared_by"))
            tlb.shared_by =
                reader.scalar<std::string>(*shared_by, child_pointer(tlb_path, "shared_by"));
        const std::string source = reader.default_source(object, tlb_path, inherited_source);
        reader.fields(object, tlb_path, mf::tlb_fields, source, tlb);
        tlbs.push_back(std::move(tlb));
    }
    return tlbs;
}

template <class Section, std::size_t N>
Section read_section(const Reader& reader, const json& object, const std::string& path,
                     const std::array<mf::Field<Section>, N>& list,
                     const std::string& inherited_source) {
    reader.expect_object(object, path);
    reader.check_keys(object, path, keys_of(list, {"source"}));
    const std::string source = reader.default_source(object, path, inherited_source);
    Section section;
    reader.fields(object, path, list, source, section);
    return section;
}

CapacityFits read_capacity_fits(const Reader& reader, const json& object,
                                const std::string& inherited_source) {
    const std::string path = "/capacity_fits";
    reader.expect_object(object, path);
    std::vector<std::string> allowed{"source"};
    for (const auto& slot : mf::capacity_fit_slots)
        allowed.emplace_back(slot.key);
    reader.check_keys(object, path, allowed);
    const std::string source = reader.default_source(object, path, inherited_source);
    CapacityFits fits;
    for (const auto& slot : mf::capacity_fit_slots) {
        const std::string key(slot.key);
        if (!object.contains(key) || object.at(key).is_null())
            continue;
        const std::string fit_path = child_pointer(path, key);
        const json& fit_object = object.at(key);
        reader.expect_object(fit_object, fit_path);
        reader.check_keys(fit_object, fit_path, {"a", "b", "c", "source"});
        const std::string fit_source = reader.default_source(fit_object, fit_path, source);
        CapacityFit fit;
        for (auto [name, member] :
             {std::pair{"a", &CapacityFit::a}, std::pair{"b", &CapacityFit::b},
              std::pair{"c", &CapacityFit::c}}) {
            const std::string value_path = child_pointer(fit_path, name);
            auto value = reader.sourced<double>(
                reader.required(fit_object, fit_path, name, "a number"), value_path, fit_source);
            if (!value)
                reader.fail(value_path, std::string(name) + " cannot be null");
            fit.*member = *value;
        }
        fits.*slot.member = fit;
    }
    return fits;
}

std::map<std::string, Sourced<double>>
read_calibrated_costs(const Reader& reader, const json& object, const std::string& inherited) {
    const std::string path = "/calibrated_costs";
    reader.expect_object(object, path);
    const std::string source = reader.default_source(object, path, inherited);
    std::map<std::string, Sourced<double>> costs;
    for (const auto& [key, value] : object.items()) {
        if (key == "source")
            continue;
        if (auto cost = reader.sourced<double>(value, child_pointer(path, key), source))
            costs.emplace(key, *cost);
    }
    return costs;
}

// Dong & Pai 2025 sec. 3.2, the compact form (docs/machine-format.md): per operation the two
// sampled axes and T as nested arrays [n][e][c]. Shapes are checked here (they decide how the
// arrays are read); values and orderings in validate.cpp.
AtomicServiceTable read_atomic_table(const Reader& reader, const json& object,
                                     const std::string& inherited) {
    const std::string path = "/atomic_service_times";
    reader.expect_object(object, path);
    reader.check_keys(object, path, {"source", "operations"});
    AtomicServiceTable table;
    table.source = reader.default_source(object, path, inherited);
    if (table.source.empty())
        reader.fail(child_pointer(path, "source"), "missing required field \"source\"",
                    {"the table names one source for all its values"});
    const std::string operations_path = child_pointer(path, "operations");
    const json& operations = reader.required(object, path, "operations", "an array");
    reader.expect_array(operations, operations_path);
    for (std::size_t i = 0; i < operations.size(); ++i) {
        const std::string grid_path = child_pointer(operations_path, i);
        const json& entry = operations[i];
        reader.expect_object(entry, grid_path);
        reader.check_keys(entry, grid_path,
                          {"operation", "queued_warps", "active_threads", "total_cycles"});
        AtomicServiceGrid grid;
        grid.operation =
            reader.scalar<std::string>(reader.required(entry, grid_path, "operation", "a string"),
                                       child_pointer(grid_path, "operation"));
        auto axis = [&](const char* key) {
            const std::string axis_path = child_pointer(grid_path, key);
            const json& list = reader.required(entry, grid_path, key, "an array of integers");
            reader.expect_array(list, axis_path);
            std::vector<int> values;
            for (std::size_t k = 0; k < list.size(); ++k)
                values.push_back(reader.scalar<int>(list[k], child_pointer(axis_path, k)));
            return values;
        };
        grid.queued_warps = axis("queued_warps");
        grid.active_threads = axis("active_threads");
        const std::string cycles_path = child_pointer(grid_path, "total_cycles");
        const json& cycles =
            reader.required(entry, grid_path, "total_cycles", "an array [n][e][c] of numbers");
        reader.expect_array(cycles, cycles_path);
        if (cycles.size() != grid.queued_warps.size())
            reader.fail(cycles_path, "has " + std::to_string(cycles.size()) +
                                         " rows, one per queued_warps value (" +
                                         std::to_string(grid.queued_warps.size()) + ") expected");
        for (std::size_t n = 0; n < cycles.size(); ++n) {
            const std::string n_path = child_pointer(cycles_path, n);
            reader.expect_array(cycles[n], n_path);
            if (cycles[n].size() != grid.active_threads.size())
                reader.fail(n_path, "has " + std::to_string(cycles[n].size()) +
                                        " rows, one per active_threads value (" +
                                        std::to_string(grid.active_threads.size()) + ") expected");
            std::vector<std::vector<double>> by_threads;
            for (std::size_t e = 0; e < cycles[n].size(); ++e) {
                const std::string e_path = child_pointer(n_path, e);
                const json& row = cycles[n][e];
                reader.expect_array(row, e_path);
                const std::size_t expected = static_cast<std::size_t>(grid.queued_warps[n]) + 1;
                if (grid.queued_warps[n] >= 0 && row.size() != expected)
                    reader.fail(e_path, "has " + std::to_string(row.size()) +
                                            " values, one per CAS count c = 0.." +
                                            std::to_string(grid.queued_warps[n]) + " (" +
                                            std::to_string(expected) + ") expected");
                std::vector<double> by_cas;
                for (std::size_t c = 0; c < row.size(); ++c)
                    by_cas.push_back(reader.scalar<double>(row[c], child_pointer(e_path, c)));
                by_threads.push_back(std::move(by_cas));
            }
            grid.total_cycles.push_back(std::move(by_threads));
        }
        table.operations.push_back(std::move(grid));
    }
    return table;
}

MachineModel read_machine(Reader& reader, const json& document) {
    reader.check_keys(document, "",
                      {"schema", "extends", "source", "identity", "sources", "compute", "memory",
                       "special_memories", "tlbs", "shared_memory_banks", "mwp_cwp",
                       "capacity_fits", "calibrated_costs", "atomic_service_times"});
    MachineModel machine;
    machine.sources = read_sources(
        reader, reader.required(document, "", "sources", "an object of named sources"));
    reader.set_sources(&machine.sources);
    const std::string source = reader.default_source(document, "", "");
    machine.identity =
        read_identity(reader, reader.required(document, "", "identity", "an object"));
    machine.compute =
        read_compute(reader, reader.required(document, "", "compute", "an object"), source);
    machine.memory =
        read_levels(reader, reader.required(document, "", "memory", "an array of memory levels"),
                    "/memory", source);
    if (document.contains("special_memories"))
        machine.special_memories =
            read_levels(reader, document.at("special_memories"), "/special_memories", source);
    if (document.contains("tlbs"))
        machine.tlbs = read_tlbs(reader, document.at("tlbs"), source);
    if (document.contains("shared_memory_banks"))
        machine.shared_memory_banks = read_section(reader, document.at("shared_memory_banks"),
                                                   "/shared_memory_banks", mf::bank_fields, source);
    if (document.contains("mwp_cwp"))
        machine.mwp_cwp =
            read_section(reader, document.at("mwp_cwp"), "/mwp_cwp", mf::mwp_cwp_fields, source);
    if (document.contains("capacity_fits"))
        machine.capacity_fits = read_capacity_fits(reader, document.at("capacity_fits"), source);
    if (document.contains("calibrated_costs"))
        machine.calibrated_costs =
            read_calibrated_costs(reader, document.at("calibrated_costs"), source);
    if (document.contains("atomic_service_times") && !document.at("atomic_service_times").is_null())
        machine.atomic_service_times =
            read_atomic_table(reader, document.at("atomic_service_times"), source);
    return machine;
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

// Counts sources in a section so the most common one becomes the section's default.
class SourceTally {
public:
    void add(const std::string& source) {
        if (counts_.emplace(source, 0).second)
            order_.push_back(source);
        ++counts_[source];
    }
    template <class T> void add(const Known<T>& value) {
        if (value)
            add(value->source);
    }
    std::string most_common() const {
        std::string best;
        int best_count = 0;
        for (const auto& source : order_) {
            if (counts_.at(source) > best_count) {
                best = source;
                best_count = counts_.at(source);
            }
        }
        return best;
    }

private:
    std::map<std::string, int> counts_;
    std::vector<std::string> order_;
};

// explicit_sources: every value as {"value", "source"} and no section defaults (the form an
// "extends" overlay is merged onto, so that a default in the overlay never re-attributes a
// value of the base machine).
// Json: nlohmann::json (sorted keys) or nlohmann::ordered_json (keys in the order written,
// which is the order docs/machine-format.md lists them).
template <class Json> class Writer {
public:
    explicit Writer(bool explicit_sources) : explicit_(explicit_sources) {}

    template <class T>
    void value(Json& object, const std::string& key, const Sourced<T>& sourced,
               const std::string& section_source) const {
        if (!explicit_ && sourced.source == section_source)
            object[key] = sourced.value;
        else
            object[key] = Json{{"value", sourced.value}, {"source", sourced.source}};
    }

    template <class Section, std::size_t N>
    std::string fields(Json& object, const Section& section,
                       const std::array<mf::Field<Section>, N>& list,
                       std::vector<std::string> extra_sources = {}) const {
        SourceTally tally;
        for (const auto& field : list)
            std::visit([&](auto member) { tally.add(section.*member); }, field.member);
        for (const auto& source : extra_sources)
            tally.add(source);
        const std::string source = explicit_ ? std::string() : tally.most_common();
        if (!source.empty())
            object["source"] = source;
        for (const auto& field : list) {
            std::visit(
                [&](auto member) {
                    const auto& known = section.*member;
                    if (known)
                        value(object, std::string(field.key), *known, source);
                },
                field.member);
        }
        return source;
    }

    // A list with one source, bare when the section's default source is its source.
    template <class T, class ElementToJson>
    void list(Json& object, const std::string& key, const Sourced<std::vector<T>>& sourced,
              const std::string& section_source, ElementToJson to_json) const {
        Json array = Json::array();
        for (const auto& element : sourced.value)
            array.push_back(to_json(element));
        if (!explicit_ && sourced.source == section_source)
            object[key] = array;
        else
            object[key] = Json{{"value", array}, {"source", sourced.source}};
    }

    Json level(const MemoryLevel& level) const {
        Json object = Json::object();
        object["name"] = level.name;
        object["shared_by"] = level.shared_by;
        std::vector<std::string> extra;
        if (level.effective_size_by_carveout)
            extra.push_back(level.effective_size_by_carveout->source);
        const std::string source = fields(object, level, mf::level_fields, extra);
        if (level.effective_size_by_carveout)
            list(object, "effective_size_by_carveout", *level.effective_size_by_carveout, source,
                 [](const CarveoutSize& size) {
                     return Json{{"shared_kib", size.shared_kib},
                                 {"effective_size_bytes", size.effective_size_bytes}};
                 });
        return object;
    }

    Json tlb(const TlbLevel& tlb) const {
        Json object = Json::object();
        object["name"] = tlb.name;
        if (!tlb.shared_by.empty())
            object["shared_by"] = tlb.shared_by;
        fields(object, tlb, mf::tlb_fields);
        return object;
    }

    Json machine(const MachineModel& m) const {
        Json document = Json::object();
        document["schema"] = machine_schema;

        Json identity = Json::object();
        identity["id"] = m.identity.id;
        identity["name"] = m.identity.name;
        identity["vendor"] = m.identity.vendor;
        identity["architecture"] = m.identity.architecture;
        identity["compute_capability"] =
            std::to_string(m.identity.cc_major) + "." + std::to_string(m.identity.cc_minor);
        if (m.identity.incomplete)
            identity["incomplete"] = true;
        if (!m.identity.notes.empty())
            identity["notes"] = m.identity.notes;
        document["identity"] = identity;

        Json sources = Json::object();
        for (const auto& [key, provenance] : m.sources) {
            Json entry{{"kind", source_kind_name(provenance.kind)},
                       {"citation", provenance.citation}};
            if (!provenance.run.empty())
                entry["run"] = provenance.run;
            if (const auto& u = provenance.uncertainty)
                entry["uncertainty"] = Json{{"relative_spread", u->relative_spread},
                                            {"confidence", u->confidence},
                                            {"repetitions", u->repetitions}};
            if (const auto& f = provenance.fit) {
                Json fit = Json::object();
                fit["fits"] = f->fits;
                fit["records"] = f->records;
                fit["samples"] = f->samples;
                fit["median_abs_relative_error"] = f->median_abs_relative_error;
                fit["p90_abs_relative_error"] = f->p90_abs_relative_error;
                if (f->held_out_median_abs_relative_error)
                    fit["held_out_median_abs_relative_error"] =
                        *f->held_out_median_abs_relative_error;
                if (f->held_out_p90_abs_relative_error)
                    fit["held_out_p90_abs_relative_error"] = *f->held_out_p90_abs_relative_error;
                fit["records_sha256"] = f->records_sha256;
                fit["date"] = f->date;
                fit["kerncast_version"] = f->kerncast_version;
                entry["fit"] = fit;
            }
            if (const auto& c = provenance.calibration)
                entry["calibration"] = Json{
                    {"model", c->model},
                    {"model_sha256", c->model_sha256},
                    {"parameters", c->parameters},
                    {"records", c->records},
                    {"records_sha256", c->records_sha256},
                    {"relative_error", c->relative_error},
                    {"non_negative", c->non_negative},
                    {"residual_norm", c->residual_norm},
                    {"geometric_mean_abs_relative_error", c->geometric_mean_abs_relative_error},
                    {"max_abs_relative_error", c->max_abs_relative_error},
                    {"date", c->date},
                    {"kerncast_version", c->kerncast_version}};
            sources[key] = entry;
        }
        document["sources"] = sources;

        Json compute = Json::object();
        std::vector<std::string> extra;
        if (m.compute.shared_memory_carveouts_kib)
            extra.push_back(m.compute.shared_memory_carveouts_kib->source);
        const std::string compute_source = fields(compute, m.compute, mf::compute_fields, extra);
        if (m.compute.shared_memory_carveouts_kib)
            list(compute, "shared_memory_carveouts_kib", *m.compute.shared_memory_carveouts_kib,
                 compute_source, [](int kib) { return Json(kib); });
        if (!m.compute.issue_rates.empty()) {
            Json rates = Json::array();
            for (const auto& rate : m.compute.issue_rates) {
                Json entry{{"op", rate.op}, {"dtype", rate.dtype}};
                if (explicit_) {
                    value(entry, "per_cycle_per_sm", rate.per_cycle_per_sm, "");
                } else {
                    entry["per_cycle_per_sm"] = rate.per_cycle_per_sm.value;
                    entry["source"] = rate.per_cycle_per_sm.source;
                }
                rates.push_back(entry);
            }
            compute["issue_rates"] = rates;
        }
        document["compute"] = compute;

        document["memory"] = Json::array();
        for (const auto& level : m.memory)
            document["memory"].push_back(this->level(level));
        if (!m.special_memories.empty()) {
            document["special_memories"] = Json::array();
            for (const auto& level : m.special_memories)
                document["special_memories"].push_back(this->level(level));
        }
        if (!m.tlbs.empty()) {
            document["tlbs"] = Json::array();
            for (const auto& tlb : m.tlbs)
                document["tlbs"].push_back(this->tlb(tlb));
        }

        auto section = [&](const char* key, const auto& data, const auto& list) {
            Json object = Json::object();
            fields(object, data, list);
            if (object.size() > (object.contains("source") ? 1u : 0u))
                document[key] = object;
        };
        section("shared_memory_banks", m.shared_memory_banks, mf::bank_fields);
        section("mwp_cwp", m.mwp_cwp, mf::mwp_cwp_fields);

        Json fits = Json::object();
        for (const auto& slot : mf::capacity_fit_slots) {
            const auto& fit = m.capacity_fits.*slot.member;
            if (!fit)
                continue;
            Json object = Json::object();
            SourceTally tally;
            tally.add(fit->a.source);
            tally.add(fit->b.source);
            tally.add(fit->c.source);
            const std::string source = explicit_ ? std::string() : tally.most_common();
            if (!source.empty())
                object["source"] = source;
            value(object, "a", fit->a, source);
            value(object, "b", fit->b, source);
            value(object, "c", fit->c, source);
            fits[std::string(slot.key)] = object;
        }
        if (!fits.empty())
            document["capacity_fits"] = fits;

        if (!m.calibrated_costs.empty()) {
            Json costs = Json::object();
            SourceTally tally;
            for (const auto& [name, cost] : m.calibrated_costs)
                tally.add(cost.source);
            const std::string source = explicit_ ? std::string() : tally.most_common();
            if (!source.empty())
                costs["source"] = source;
            for (const auto& [name, cost] : m.calibrated_costs)
                value(costs, name, cost, source);
            document["calibrated_costs"] = costs;
        }

        if (m.atomic_service_times) {
            Json operations = Json::array();
            for (const auto& grid : m.atomic_service_times->operations)
                operations.push_back(Json{{"operation", grid.operation},
                                          {"queued_warps", grid.queued_warps},
                                          {"active_threads", grid.active_threads},
                                          {"total_cycles", grid.total_cycles}});
            document["atomic_service_times"] =
                Json{{"source", m.atomic_service_times->source}, {"operations", operations}};
        }
        return document;
    }

private:
    bool explicit_;
};

// ---------------------------------------------------------------------------------------
// "extends": deep merge of the user's document onto a built-in machine
// ---------------------------------------------------------------------------------------

// Arrays whose elements are matched by key rather than replaced wholesale.
std::vector<std::string> element_key(const std::string& path) {
    if (path == "/memory" || path == "/special_memories" || path == "/tlbs")
        return {"name"};
    if (path == "/compute/issue_rates")
        return {"op", "dtype"};
    return {};
}

void merge_into(json& base, const json& overlay, const std::string& path,
                std::map<std::string, std::string>& path_map) {
    for (const auto& [key, value] : overlay.items()) {
        const std::string child = child_pointer(path, key);
        // Replaced whole, not merged key by key:
        // - the atomic table: its single source must describe every entry;
        // - a value written {"value": ..., "source": ...}: a value the file gives without a
        //   source must not inherit the base value's source (it takes the file's default);
        // - a source's uncertainty (its three members describe one set of repetitions) and
        //   fit provenance (its members describe one fit).
        // ("/sources" and "/calibrated_costs" are keyed by the user's names, which may be
        // "value".)
        const bool named_members = child == "/sources" || child == "/calibrated_costs";
        const bool sourced_value = value.is_object() && value.contains("value") && !named_members;
        const bool whole_source_member =
            (key == "uncertainty" || key == "fit" || key == "calibration") &&
            path.rfind("/sources/", 0) == 0;
        const bool replace_whole =
            child == "/atomic_service_times" || sourced_value || whole_source_member;
        if (!replace_whole && base.contains(key) && base[key].is_object() && value.is_object()) {
            merge_into(base[key], value, child, path_map);
            continue;
        }
        const auto match_keys = element_key(child);
        if (!match_keys.empty() && base.contains(key) && base[key].is_array() && value.is_array()) {
            json& merged = base[key];
            std::vector<bool> from_overlay(merged.size(), false);
            for (std::size_t i = 0; i < value.size(); ++i) {
                const json& element = value[i];
                std::size_t target = merged.size();
                if (element.is_object()) {
                    for (std::size_t j = 0; j < merged.size(); ++j) {
                        bool same = true;
                        for (const auto& k : match_keys)
                            same = same && element.contains(k) && merged[j].contains(k) &&
                                   element[k] == merged[j][k];
                        if (same) {
                            target = j;
                            break;
                        }
                    }
                }
                if (target == merged.size()) {
                    merged.push_back(element);
                    from_overlay.push_back(true);
                } else {
                    merge_into(merged[target], element, child_pointer(child, target), path_map);
                    from_overlay[target] = true;
                }
                path_map[child_pointer(child, target)] = child_pointer(child, i);
            }
            for (std::size_t j = 0; j < from_overlay.size(); ++j)
                if (!from_overlay[j])
                    path_map[child_pointer(child, j)] = ""; // inherited, not in the text
            continue;
        }
        base[key] = value;
    }
}

thread_local int extends_depth = 0;

MachineModel parse_document(const std::string& text, const std::string& origin) {
    const json_reader::Document parsed = json_reader::parse(text, origin);
    const json& document = parsed.value;
    Reader reader(parsed.positions);
    if (!document.is_object())
        reader.fail("", "expected a JSON object (a machine file), got " + describe_type(document));

    const json& schema =
        reader.required(document, "", "schema", "\"" + std::string(machine_schema) + "\"");
    const auto schema_text = reader.scalar<std::string>(schema, "/schema");
    if (schema_text != machine_schema)
        reader.fail("/schema", "unsupported schema \"" + schema_text + "\"",
                    {std::string("this kerncast reads \"") + machine_schema + "\""});

    if (document.contains("extends")) {
        const auto base_id = reader.scalar<std::string>(document.at("extends"), "/extends");
        const auto ids = builtin_machine_ids();
        if (std::find(ids.begin(), ids.end(), base_id) == ids.end()) {
            const auto close = closest_names(base_id, ids);
            std::vector<std::string> notes;
            notes.push_back(close.empty() ? "built-in machines: " + quoted_list(ids)
                                          : "closest built-in ids: " + quoted_list(close));
            reader.fail("/extends", "\"extends\" names no built-in machine: \"" + base_id + "\"",
                        notes);
        }
        if (extends_depth > 8)
            reader.fail("/extends", "\"extends\" chain is deeper than 8 machines");
        ++extends_depth;
        MachineModel base;
        try {
            base = builtin_machine(base_id);
        } catch (...) {
            --extends_depth;
            throw;
        }
        --extends_depth;
        json merged = Writer<json>(true).machine(base);
        merged["identity"].erase("id"); // a machine derived from a built-in needs its own id
        std::map<std::string, std::string> path_map;
        json overlay = document;
        overlay.erase("extends");
        merge_into(merged, overlay, "", path_map);
        reader.set_extended(base_id, path_map);
        MachineModel machine = read_machine(reader, merged);
        try {
            validate_machine_at(machine,
                                [&](const std::string& path) { return reader.locate(path); });
        } catch (const Error& error) {
            if (!reader.inherited(error.where().json_path))
                throw;
            auto notes = error.notes();
            notes.push_back("the value at " + error.where().json_path +
                            " comes from the built-in machine '" + base_id +
                            "' that this file extends");
            throw Error(error.kind(), error.message(), error.where(), notes);
        }
        return machine;
    }

    MachineModel machine = read_machine(reader, document);
    validate_machine_at(machine, [&](const std::string& path) { return reader.locate(path); });
    return machine;
}

// Machine-file text as people write it: keys in the documented order, and objects or arrays
// of plain values on one line when they fit in 100 columns.
std::string one_line(const nlohmann::ordered_json& value) {
    std::string text;
    if (value.is_object()) {
        for (const auto& [key, member] : value.items())
            text +=
                (text.empty() ? "" : ", ") + nlohmann::json(key).dump() + ": " + one_line(member);
        return "{" + text + "}";
    }
    if (value.is_array()) {
        for (const auto& element : value)
            text += (text.empty() ? "" : ", ") + one_line(element);
        return "[" + text + "]";
    }
    return value.dump();
}

void append_pretty(std::string& out, const nlohmann::ordered_json& value, std::size_t indent,
                   std::size_t prefix_width) {
    constexpr std::size_t width_limit = 100;
    if (!value.is_structured() || value.empty()) {
        out += value.dump();
        return;
    }
    const bool flat = std::none_of(value.begin(), value.end(), [](const auto& element) {
        return element.is_structured() && !(element.is_object() && element.contains("value"));
    });
    const std::string line = one_line(value);
    if (flat && prefix_width + line.size() <= width_limit) {
        out += line;
        return;
    }
    const std::string pad(indent + 2, ' ');
    out += value.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first)
            out += ",\n";
        first = false;
        out += pad;
        std::size_t prefix = pad.size();
        if (value.is_object()) {
            const std::string key = nlohmann::json(it.key()).dump() + ": ";
            out += key;
            prefix += key.size();
        }
        append_pretty(out, *it, indent + 2, prefix);
    }
    out += "\n" + std::string(indent, ' ') + (value.is_object() ? "}" : "]");
}

} // namespace

std::string machine_json_text(const MachineModel& machine) {
    std::string text;
    append_pretty(text, Writer<nlohmann::ordered_json>(false).machine(machine), 0, 0);
    return text + "\n";
}

MachineModel parse_machine_json(const std::string& text, const std::string& origin) {
    return parse_document(text, origin);
}

MachineModel load_machine_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        SourceLocation where;
        where.file = path;
        throw_input_error("cannot open machine file", where);
    }
    std::ostringstream content;
    content << file.rdbuf();
    return parse_machine_json(content.str(), path);
}

nlohmann::json machine_to_json(const MachineModel& machine) {
    return Writer<json>(false).machine(machine);
}

} // namespace kerncast
