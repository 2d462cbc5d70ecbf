// Reading the sections of a machine file (docs/machine-format.md) into a MachineModel.
#include "machine_read.hpp"

namespace kerncast::machine_format {
namespace {

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
                       "kerncast_version", "oversubscription_ranges"});
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
    if (object.contains("oversubscription_ranges")) {
        const std::string ranges_path = child_pointer(path, "oversubscription_ranges");
        const json& ranges = object.at("oversubscription_ranges");
        reader.expect_object(ranges, ranges_path);
        for (const auto& [name, range] : ranges.items()) {
            const std::string at = child_pointer(ranges_path, name);
            reader.expect_array(range, at);
            if (range.size() != 2)
                reader.fail(at, "expected [smallest O, largest O], got " +
                                    std::to_string(range.size()) + " numbers");
            fit.oversubscription_ranges[name] = {
                reader.scalar<double>(range[0], child_pointer(at, std::size_t{0})),
                reader.scalar<double>(range[1], child_pointer(at, std::size_t{1}))};
        }
    }
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
    reader.check_keys(object, path,
                      {"id", "name", "vendor", "architecture", "compute_capability", "incomplete",
                       "notes", "device_names"});
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
    if (object.contains("device_names")) {
        const std::string names_path = child_pointer(path, "device_names");
        const json& names = object.at("device_names");
        if (!names.is_array())
            reader.fail(names_path,
                        "expected an array of device names, got " + describe_type(names));
        for (std::size_t k = 0; k < names.size(); ++k) {
            const std::string at = names_path + "/" + std::to_string(k);
            std::string name = reader.scalar<std::string>(names[k], at);
            if (name.empty())
                reader.fail(at, "a device name must not be empty");
            identity.device_names.push_back(std::move(name));
        }
    }
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

// The number `key` of a list entry, which must be there (`expected` says what it holds).
double required_number(const Reader& reader, const json& element, const std::string& element_path,
                       const char* key, const char* expected) {
    return reader.scalar<double>(reader.required(element, element_path, key, expected),
                                 child_pointer(element_path, key));
}

// [{"store_fraction": 0.5, "bandwidth_gbs": 2817.5}, ...] with one source.
std::optional<Sourced<std::vector<MixedBandwidth>>>
read_mixed_bandwidths(const Reader& reader, const json& value, const std::string& path,
                      const std::string& default_source) {
    return reader.sourced_list<MixedBandwidth>(
        value, path, default_source, "an array of {\"store_fraction\", \"bandwidth_gbs\"} objects",
        "the memory level", [&](const json& element, const std::string& element_path) {
            reader.expect_object(element, element_path);
            reader.check_keys(element, element_path, {"store_fraction", "bandwidth_gbs"});
            MixedBandwidth entry;
            entry.store_fraction =
                required_number(reader, element, element_path, "store_fraction",
                                "a number from 0 (loads alone) to 1 (stores alone)");
            entry.bandwidth_gbs =
                required_number(reader, element, element_path, "bandwidth_gbs", "a number (GB/s)");
            return entry;
        });
}

// [{"store_fraction": 0, "bandwidth_gbs": 1200, "latency_cycles": 900}, ...] with one source
// (and optionally "latency_stddev_cycles" an entry).
std::optional<Sourced<std::vector<LoadedLatency>>>
read_loaded_latencies(const Reader& reader, const json& value, const std::string& path,
                      const std::string& default_source) {
    return reader.sourced_list<LoadedLatency>(
        value, path, default_source,
        "an array of {\"store_fraction\", \"bandwidth_gbs\", \"latency_cycles\"} objects",
        "the memory level", [&](const json& element, const std::string& element_path) {
            reader.expect_object(element, element_path);
            reader.check_keys(
                element, element_path,
                {"store_fraction", "bandwidth_gbs", "latency_cycles", "latency_stddev_cycles"});
            LoadedLatency entry;
            entry.store_fraction =
                required_number(reader, element, element_path, "store_fraction",
                                "a number from 0 (loads alone) to 1 (stores alone)");
            entry.bandwidth_gbs =
                required_number(reader, element, element_path, "bandwidth_gbs", "a number (GB/s)");
            entry.latency_cycles = required_number(reader, element, element_path, "latency_cycles",
                                                   "a number (SM cycles)");
            if (element.contains("latency_stddev_cycles"))
                entry.latency_stddev_cycles =
                    reader.scalar<double>(element.at("latency_stddev_cycles"),
                                          child_pointer(element_path, "latency_stddev_cycles"));
            return entry;
        });
}

// [{"store_fraction": 0, "loads_in_flight_bytes_per_sm": 16384, "bandwidth_gbs": 3300}, ...]
// with one source.
std::optional<Sourced<std::vector<InFlightBandwidth>>>
read_in_flight_bandwidths(const Reader& reader, const json& value, const std::string& path,
                          const std::string& default_source) {
    return reader.sourced_list<InFlightBandwidth>(
        value, path, default_source,
        "an array of {\"store_fraction\", \"loads_in_flight_bytes_per_sm\", \"bandwidth_gbs\"} "
        "objects",
        "the memory level", [&](const json& element, const std::string& element_path) {
            reader.expect_object(element, element_path);
            reader.check_keys(element, element_path,
                              {"store_fraction", "loads_in_flight_bytes_per_sm", "bandwidth_gbs"});
            InFlightBandwidth entry;
            entry.store_fraction = required_number(reader, element, element_path, "store_fraction",
                                                   "a number from 0 (loads alone) to below 1");
            entry.loads_in_flight_bytes_per_sm =
                required_number(reader, element, element_path, "loads_in_flight_bytes_per_sm",
                                "a number (bytes an SM)");
            entry.bandwidth_gbs =
                required_number(reader, element, element_path, "bandwidth_gbs", "a number (GB/s)");
            return entry;
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
        reader.check_keys(
            object, level_path,
            keys_of(mf::level_fields, {"name", "shared_by", "source", "effective_size_by_carveout",
                                       "mixed_bandwidth_by_store_fraction", "latency_under_load",
                                       "bandwidth_by_loads_in_flight"}));
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
        if (object.contains("mixed_bandwidth_by_store_fraction"))
            level.mixed_bandwidth_by_store_fraction = read_mixed_bandwidths(
                reader, object.at("mixed_bandwidth_by_store_fraction"),
                child_pointer(level_path, "mixed_bandwidth_by_store_fraction"), source);
        if (object.contains("latency_under_load"))
            level.latency_under_load =
                read_loaded_latencies(reader, object.at("latency_under_load"),
                                      child_pointer(level_path, "latency_under_load"), source);
        if (object.contains("bandwidth_by_loads_in_flight"))
            level.bandwidth_by_loads_in_flight = read_in_flight_bandwidths(
                reader, object.at("bandwidth_by_loads_in_flight"),
                child_pointer(level_path, "bandwidth_by_loads_in_flight"), source);
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

} // namespace

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

} // namespace kerncast::machine_format
