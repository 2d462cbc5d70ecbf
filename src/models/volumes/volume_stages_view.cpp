// The volume model's stage plan as a table (`kerncast predict --explain`).
#include "kerncast/models/volumes/volume_view.hpp"
#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models {

report::Table volume_stages_table(const VolumeStagePlan& plan) {
    report::TableBuilder t("stages", "Volume-model stages on this machine and the values they "
                                     "use (docs/volume-model.md)");
    t.columns({"stage", "section", "runs", "parameters", "instead"});
    for (const VolumeStage& s : plan.stages) {
        std::string parameters;
        for (const StageParameter& p : s.parameters)
            parameters += fmt::format("{}{} = {}{}", parameters.empty() ? "" : "; ", p.name,
                                      p.value, p.source.empty() ? "" : " (" + p.source + ")");
        t.row(s.name, s.section, s.runs ? "yes" : "no", parameters, s.instead);
    }
    return t.build();
}

} // namespace kerncast::models
