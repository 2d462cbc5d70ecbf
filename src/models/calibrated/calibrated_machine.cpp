// Calibrated parameters in machine files (calibrated_machine.hpp).
#include "kerncast/models/calibrated/calibrated_machine.hpp"

#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/sha256.hpp"

#include <fmt/format.h>
#include <set>

namespace kerncast::models::calibrated {

std::string calibrated_cost_key(const std::string& model, const std::string& parameter) {
    return model + "." + parameter;
}

std::string calibration_source_base(const std::string& model) {
    return "calibrate-" + model;
}

MachineModel machine_with_calibration(const MachineModel& machine, const CostModel& model,
                                      const CalibrationResult& result,
                                      const CalibrationDataset& dataset,
                                      const std::string& source_key) {
    if (result.parameters.empty())
        throw_input_error("model '" + model.name + "' has no parameters to write");
    MachineModel out = machine;
    CalibrationProvenance c;
    c.model = model.name;
    c.model_sha256 = sha256_hex(model.text);
    c.records_sha256 = dataset.records_sha256;
    c.records = dataset.records;
    c.relative_error = result.relative_error;
    c.non_negative = result.non_negative;
    c.residual_norm = result.residual_norm;
    c.geometric_mean_abs_relative_error = result.all.geometric_mean_abs_relative_error;
    c.max_abs_relative_error = result.all.max_abs_relative_error;
    c.date = dataset.date;
    c.kerncast_version = dataset.kerncast_version;
    for (const auto& p : result.parameters) {
        c.parameters.push_back(p.name);
        out.calibrated_costs[calibrated_cost_key(model.name, p.name)] =
            Sourced<double>{p.value, source_key};
    }
    Provenance provenance;
    provenance.kind = dataset.published_records > 0 ? SourceKind::derived : SourceKind::measured;
    provenance.citation = fmt::format(
        "kerncast calibrate: parameters of model '{}'{} fitted by Levenberg-Marquardt (Ceres "
        "Solver) to {} measurement{} in {} ({} error){}",
        model.name, model.file.empty() ? "" : " (" + model.file + ")", dataset.records,
        dataset.records == 1 ? "" : "s", dataset.path,
        result.relative_error ? "relative" : "absolute",
        dataset.published_records > 0
            ? fmt::format("; {} of the records are published measurements, not kerncast's",
                          dataset.published_records)
            : "");
    std::string unfixed;
    for (const auto& p : result.parameters)
        if (p.status == ParameterStatus::undetermined || p.status == ParameterStatus::not_separable)
            unfixed +=
                (unfixed.empty() ? "" : ", ") + p.name + " " + parameter_status_name(p.status);
    if (!unfixed.empty()) // written anyway (calibrate --write-undetermined)
        provenance.citation += "; NOT determined by these measurements: " + unfixed;
    provenance.run = dataset.path;
    provenance.calibration = c;
    out.sources[source_key] = provenance;

    // An earlier calibration of this model that no value cites any more: its provenance goes.
    std::set<std::string> cited;
    for (const auto& [key, cost] : out.calibrated_costs)
        cited.insert(cost.source);
    for (auto it = out.sources.begin(); it != out.sources.end();) {
        const bool replaced = it->second.calibration &&
                              it->second.calibration->model == model.name &&
                              cited.count(it->first) == 0;
        it = replaced ? out.sources.erase(it) : std::next(it);
    }
    // ... and the new one takes the base key back (a recalibration leaves one
    // "calibrate-<model>").
    const std::string base = calibration_source_base(model.name);
    if (source_key != base && source_key.starts_with(base + "-") && out.sources.count(base) == 0) {
        out.sources[base] = out.sources.at(source_key);
        out.sources.erase(source_key);
        for (auto& [key, cost] : out.calibrated_costs)
            if (cost.source == source_key)
                cost.source = base;
    }
    return out;
}

MachineParameters calibrated_parameters(const MachineModel& machine, const CostModel& model) {
    MachineParameters out;
    std::vector<std::string> missing;
    for (const auto& p : model.parameters) {
        const auto found = machine.calibrated_costs.find(calibrated_cost_key(model.name, p.name));
        if (found == machine.calibrated_costs.end()) {
            missing.push_back(calibrated_cost_key(model.name, p.name));
            continue;
        }
        out.values.push_back(found->second.value);
        out.sources.push_back(found->second.source);
    }
    if (missing.empty())
        return out;
    std::string list;
    for (const auto& name : missing)
        list += (list.empty() ? "" : ", ") + name;
    std::vector<std::string> notes;
    std::set<std::string> models;
    std::vector<std::string> keys;
    for (const auto& [key, value] : machine.calibrated_costs) {
        keys.push_back(key);
        if (key.find('.') != std::string::npos)
            models.insert(key.substr(0, key.find('.')));
    }
    std::vector<std::string> close = closest_names(missing.front(), keys);
    if (close.empty()) // the same parameter of another model
        for (const auto& key : keys)
            if (key.find('.') != std::string::npos &&
                key.substr(key.find('.')) == missing.front().substr(model.name.size()))
                close.push_back(key);
    if (!close.empty()) {
        std::string names;
        for (const auto& name : close)
            names += (names.empty() ? "" : ", ") + name;
        notes.push_back("closest calibrated parameters: " + names);
    }
    if (!models.empty()) {
        std::string names;
        for (const auto& name : models)
            names += (names.empty() ? "" : ", ") + name;
        notes.push_back("the machine holds calibrated models: " + names);
    }
    notes.push_back("calibrate the model first: kerncast calibrate MODEL --records DIR -m " +
                    machine.identity.id + " -o FILE");
    throw_input_error("machine '" + machine.identity.id + "' has no calibrated value of " + list,
                      SourceLocation{model.file, 0, 0, {}, {}}, notes);
}

} // namespace kerncast::models::calibrated
