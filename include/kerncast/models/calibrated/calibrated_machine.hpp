// Calibrated parameters in a machine file (docs/model-format.md, "Calibrated parameters"):
// `calibrated_costs` holds each parameter as "<model>.<parameter>" ("matmul_overlap.p_edge"),
// under a source whose `calibration` member records the model, the dataset and the residuals.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"

#include <string>
#include <vector>

namespace kerncast::models::calibrated {

// "matmul_overlap.p_edge".
std::string calibrated_cost_key(const std::string& model, const std::string& parameter);

// What the calibration's source records about the data.
struct CalibrationDataset {
    std::string path;           // the records' directories: the source's "run"
    std::string records_sha256; // validate::dataset_sha256
    int records = 0;            // records that gave samples
    int published_records = 0;  // of those, published measurements (not kerncast's own)
    std::string date;           // ISO 8601 UTC
    std::string kerncast_version;
};

// "calibrate-<model>": the source key a calibration of the model is written under, or
// "calibrate-<model>-N" when the machine has that key (models/volumes unused_source_key).
std::string calibration_source_base(const std::string& model);

// The machine with the model's parameters under `source_key` (kind "measured"; "derived" when
// any record is published) and its provenance. Existing values of the same keys are replaced;
// the source of an earlier calibration of the model that no value cites any more goes (its
// residuals and date describe numbers the machine no longer holds), and when that frees
// calibration_source_base(model), the new source takes that key instead of `source_key`
// (read the key back from the parameters' values).
MachineModel machine_with_calibration(const MachineModel& machine, const CostModel& model,
                                      const CalibrationResult& result,
                                      const CalibrationDataset& dataset,
                                      const std::string& source_key);

// The model's parameter values from the machine, in model.parameters order; an input Error
// naming the machine and every missing parameter (with the calibrated models it holds).
struct MachineParameters {
    std::vector<double> values;
    std::vector<std::string> sources; // each value's source key
};
MachineParameters calibrated_parameters(const MachineModel& machine, const CostModel& model);

} // namespace kerncast::models::calibrated
