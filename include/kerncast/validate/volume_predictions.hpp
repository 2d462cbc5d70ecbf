// The volume model's predictions (Ernst et al. 2023: DRAM and L2 volumes and the limiter time)
// of recorded configurations, as the shared models::Prediction that `kerncast validate`
// compares with the records' times and Nsight Compute counters.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/validate/validation.hpp"

#include <optional>
#include <vector>

namespace kerncast::validate {

// The volume model's prediction for the configuration a record describes: its block, fold and
// integer parameters bound to the kernel file. nullopt when the record is of another kernel.
std::optional<models::VolumePrediction>
predict_record_volumes(const kernel::KernelSpec& spec, const MachineModel& machine,
                       const runtime::KernelRecord& record,
                       const models::VolumeOptions& options = {});

// Bytes of one L2 sector, which the lts__t_sectors_* counters count (the machine's l2
// sector_bytes); an input Error naming the machine when it lacks it.
double l2_sector_bytes(const MachineModel& machine);

// The volume model's prediction for the configuration a record describes (its block, fold and
// integer parameters; parameters the record lacks keep the kernel file's values), as the shared
// models::Prediction with the Nsight Compute counters it compares with (models::to_prediction,
// models/volumes/volume_summary.hpp, with the machine's L2 sector size). Registers for the
// occupancy: the record's registers_per_thread, else the kernel file's, else unlimited. nullopt
// when the record is of another kernel (its name differs from the kernel file's). Input Errors
// from the model (a launch it cannot take, a machine lacking a field, l2_sector_bytes)
// propagate.
std::optional<models::Prediction> predict_record(const kernel::KernelSpec& spec,
                                                 const MachineModel& machine,
                                                 const runtime::KernelRecord& record);

PredictionSource volume_model_predictions(const kernel::KernelSpec& spec,
                                          const MachineModel& machine);

// Several kernel files: each record is predicted by the spec whose name matches it (the first
// that does); nullopt for records of none of them.
PredictionSource volume_model_predictions(const std::vector<kernel::KernelSpec>& specs,
                                          const MachineModel& machine);

} // namespace kerncast::validate
