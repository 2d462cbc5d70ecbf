// The report of `kerncast mwp-fit`: the fitted parameters and every sample. Prints only.
#pragma once

#include "kerncast/models/mwp_cwp/parameter_fit.hpp"
#include "kerncast/report/document.hpp"

#include <string>
#include <vector>

namespace kerncast::models::mwp_cwp {

// Schema "kerncast.mwp-fit/1": tables "parameters", "fit", "samples", and "cross_validation"
// when `cross_validation` is given and ran; notes list the skipped records.
report::Document mwp_fit_view(const MwpFit& fit, const std::string& machine_id,
                              const std::vector<std::string>& skipped,
                              const MwpCrossValidation* cross_validation = nullptr);

} // namespace kerncast::models::mwp_cwp
