// MWP-CWP's prediction as the shared models::Prediction (mwp_summary.hpp).
#include "kerncast/models/mwp_cwp/mwp_summary.hpp"

namespace kerncast::models::mwp_cwp {

Prediction to_prediction(const KernelMwpPrediction& mwp) {
    Prediction prediction;
    prediction.model = "mwp-cwp " + to_string(mwp.variant);
    prediction.time_s = mwp.model.time_seconds;
    prediction.limiter = "case (" + equation_number(mwp.model.execution_case) + ")";
    prediction.flops = mwp.flops;
    if (!mwp.model.case_reason.empty())
        prediction.notes.push_back(mwp.model.case_reason);
    return prediction;
}

} // namespace kerncast::models::mwp_cwp
