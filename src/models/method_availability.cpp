#include "kerncast/models/method_availability.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/report/table_builder.hpp"

#include <algorithm>
#include <functional>

namespace kerncast::models {

namespace {

// "" when `check` passes, else its error's message.
std::string missing_for(const std::function<void()>& check) {
    try {
        check();
        return {};
    } catch (const Error& error) {
        return error.message();
    }
}

} // namespace

std::vector<MethodAvailability> method_availability(const MachineModel& machine) {
    const std::string volumes = missing_for([&] { check_volume_machine(machine); });
    const std::string mwp = missing_for([&] { (void)mwp_cwp_machine_parameters(machine); });
    const std::string atomics =
        machine.atomic_service_times
            ? std::string()
            : std::string("no shared-memory atomic service-time table (atomic_service_times; "
                          "`kerncast atomics --measure-table` measures it)");
    return {{"volumes", "volume model (predict, explore)", volumes},
            {"mwp", "MWP-CWP (mwp)", mwp},
            {"mwp_cache_aware", "MWP-CWP cache-aware (mwp --mwp-model cache-aware)",
             !volumes.empty() ? volumes : mwp},
            {"atomics", "shared-memory atomics (atomics)", atomics}};
}

std::vector<std::string> calibrated_models(const MachineModel& machine) {
    std::vector<std::string> models;
    for (const auto& [key, cost] : machine.calibrated_costs) {
        const std::string model = key.substr(0, key.find('.'));
        if (std::find(models.begin(), models.end(), model) == models.end())
            models.push_back(model);
    }
    std::sort(models.begin(), models.end());
    return models;
}

void add_method_table(report::Document& document, const std::vector<MachineModel>& machines) {
    report::TableBuilder table("methods", "Models each machine can run");
    table.columns({"id",
                   {"volumes", "volume model"},
                   {"mwp", "MWP-CWP"},
                   {"mwp_cache_aware", "MWP-CWP cache-aware"},
                   {"atomics", "atomics"},
                   {"calibrated", "calibrated costs"}});
    std::vector<std::string> uncalibrated;
    // What is lacking -> the machines that lack it: the methods that lack one value and the
    // message without the machine's name ("machine 'a100-sxm4-40gb' lacks ..." -> "lacks ...").
    std::vector<std::pair<std::string, std::vector<std::string>>> lacking;
    for (const MachineModel& machine : machines) {
        std::vector<report::Cell> row{machine.identity.id};
        std::vector<std::pair<std::string, std::string>> own; // message, method keys
        for (const MethodAvailability& m : method_availability(machine)) {
            row.emplace_back(std::string(m.missing.empty() ? "yes" : "no"));
            if (m.missing.empty())
                continue;
            std::string message = m.missing;
            const std::string named = "machine '" + machine.identity.id + "' ";
            if (message.rfind(named, 0) == 0)
                message.erase(0, named.size());
            const auto same = std::find_if(own.begin(), own.end(),
                                           [&](const auto& o) { return o.first == message; });
            if (same != own.end())
                same->second += ", " + m.key;
            else
                own.emplace_back(message, m.key);
        }
        std::string calibrated;
        for (const std::string& model : calibrated_models(machine))
            calibrated += (calibrated.empty() ? "" : ", ") + model;
        if (calibrated.empty())
            uncalibrated.push_back(machine.identity.id);
        row.emplace_back(calibrated.empty() ? std::string("none") : calibrated);
        table.row_cells(std::move(row));
        for (const auto& [message, keys] : own) {
            const std::string what = keys + ": " + message;
            const auto same = std::find_if(lacking.begin(), lacking.end(),
                                           [&](const auto& l) { return l.first == what; });
            if (same != lacking.end())
                same->second.push_back(machine.identity.id);
            else
                lacking.push_back({what, {machine.identity.id}});
        }
    }
    document.tables.push_back(table.build());
    for (const auto& [what, ids] : lacking) {
        std::string list;
        for (const std::string& id : ids)
            list += (list.empty() ? "" : ", ") + id;
        document.notes.push_back(what + " (" + list + ")");
    }
    if (!uncalibrated.empty()) {
        std::string list;
        for (const std::string& id : uncalibrated)
            list += (list.empty() ? "" : ", ") + id;
        document.notes.push_back(
            "calibrated: no calibrated cost-model parameters (calibrated_costs: `kerncast "
            "calibrate MODEL --records DIR -m MACHINE -o FILE` fits a model's to measurement "
            "records, "
            "docs/model-format.md) (" +
            list + ")");
    }
}

} // namespace kerncast::models
