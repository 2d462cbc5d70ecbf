// MWP-CWP predictions for recorded configurations (`kerncast validate --mwp-model`, `kerncast
// mwp-fit`): a record's block, fold and integer parameters bound to the kernel file of its name.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/validate/validation.hpp"

#include <optional>
#include <vector>

namespace kerncast::validate {

// The MWP-CWP prediction of the configuration a record describes; nullopt when the record is
// of another kernel. Registers: the record's, else the kernel file's, else not limiting.
std::optional<models::mwp_cwp::KernelMwpPrediction>
predict_record_mwp(const kernel::KernelSpec& spec, const MachineModel& machine,
                   const runtime::KernelRecord& record,
                   const models::mwp_cwp::KernelMwpOptions& options = {});

// For validate: each record's prediction as models::Prediction (to_prediction, mwp_summary.hpp:
// time and flops per launch, the volume model's flop count, so that throughputs rank like the
// volume model's; no counters), by the first spec whose name it has.
PredictionSource mwp_record_predictions(const std::vector<kernel::KernelSpec>& specs,
                                        const MachineModel& machine,
                                        models::mwp_cwp::Variant variant);

} // namespace kerncast::validate
