// Table "models" of `kerncast predict` (model_times.hpp).
#include "kerncast/models/prediction/model_times_view.hpp"

#include "kerncast/report/table_builder.hpp"

namespace kerncast::models {

report::Table model_times_table(const std::vector<ModelTime>& times) {
    report::TableBuilder t("models", "Time per launch by model");
    t.columns({"model", {"time_ms", "time per launch", "ms", 4}, {"detail", "binds / case"}});
    for (const auto& m : times)
        t.row(m.model,
              m.prediction ? std::optional<double>(m.prediction->time_s * 1e3) : std::nullopt,
              m.detail);
    return t.build();
}

} // namespace kerncast::models
