// A cost model's features of a kernel and output of a record (model_features.hpp).
#include "kerncast/models/calibrated/model_features.hpp"

#include "kerncast/models/calibrated/feature_values.hpp"

namespace kerncast::models::calibrated {

std::vector<double> kernel_features(const CostModel& model,
                                    const analysis::KernelAnalysis& analysis,
                                    const std::vector<std::int64_t>& params) {
    std::vector<double> values;
    values.reserve(model.features().size());
    for (const auto& feature : model.features())
        values.push_back(feature_value(analysis, params, feature));
    return values;
}

std::optional<double> measured_output(const CostModel& model,
                                      const runtime::Measurement& measurement) {
    if (!measurement.has_times())
        return std::nullopt;
    switch (model.output.statistic) {
    case TimeStatistic::median:
        return measurement.results.median_s;
    case TimeStatistic::min:
        return measurement.results.min_s;
    case TimeStatistic::mean:
        return measurement.results.mean_s;
    }
    return std::nullopt;
}

} // namespace kerncast::models::calibrated
