// MWP-CWP's prediction of a kernel launch (Hong & Kim 2009) as the shared models::Prediction.
#pragma once

#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/prediction/prediction.hpp"

namespace kerncast::models::mwp_cwp {

// model "mwp-cwp classic" or "mwp-cwp cache-aware"; time_s: Exec_cycles_with_synch / Freq
// (eq. 22-24, sec. 3.2); limiter: the execution case that applied, "case (22)", "(23)" or
// "(24)"; flops: the launch's floating-point operations (the volume model's count); no
// counters; notes: why that case applied.
Prediction to_prediction(const KernelMwpPrediction& mwp);

} // namespace kerncast::models::mwp_cwp
