#include "kerncast/probe/probe_machine_file.hpp"

#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"

#include <algorithm>

namespace kerncast::probe {

namespace {

// The probe's L1 sizes by carve-out are keyed by the shared memory a block claimed (a lower
// bound of the carve-out in effect); a machine that lists the carve-outs it offers takes only
// those as keys. Entries the built-in does not offer leave the table out of the file.
void drop_unoffered_carveouts(nlohmann::json& document, const MachineModel& base,
                              std::vector<std::string>& left_out) {
    const auto& offered = base.compute.shared_memory_carveouts_kib;
    if (!offered)
        return;
    for (const char* section : {"memory", "special_memories"}) {
        if (!document.contains(section))
            continue;
        for (nlohmann::json& level : document[section]) {
            if (!level.contains("effective_size_by_carveout"))
                continue;
            const nlohmann::json& sizes = level["effective_size_by_carveout"];
            const nlohmann::json& entries = sizes.is_object() ? sizes["value"] : sizes;
            std::string unoffered;
            for (const nlohmann::json& entry : entries) {
                const int kib = entry.value("shared_kib", -1);
                if (std::find(offered->value.begin(), offered->value.end(), kib) ==
                    offered->value.end())
                    unoffered += (unoffered.empty() ? "" : ", ") + std::to_string(kib);
            }
            if (unoffered.empty())
                continue;
            left_out.push_back(level.value("name", std::string("?")) +
                               " effective_size_by_carveout: the probe keys it by the shared "
                               "memory a block claimed (" +
                               unoffered + " KiB), which " + base.identity.id +
                               " does not list among its shared_memory_carveouts_kib");
            level.erase("effective_size_by_carveout");
        }
    }
}

} // namespace

ProbeMachineFile probe_machine_file(const MachineModel& probed, const std::string& path) {
    ProbeMachineFile file;
    nlohmann::json document = machine_to_json(probed);
    file.extends = builtin_for_device(probed.identity.name, probed.identity.cc_major,
                                      probed.identity.cc_minor);
    if (file.extends) {
        document["extends"] = *file.extends;
        nlohmann::json& identity = document["identity"];
        identity["id"] = *file.extends + "-probed";
        identity.erase("incomplete"); // the built-in supplies what the probe does not measure
        identity["notes"] = identity.value("notes", std::string()) + " Extends the built-in " +
                            *file.extends +
                            ": every value the probe did not measure is the built-in's.";
        drop_unoffered_carveouts(document, builtin_machine(*file.extends), file.left_out);
    }
    file.text = document.dump(2) + "\n";
    // Never a machine file that kerncast itself would reject (constant or degenerate series
    // can yield values the machine-file validation refuses).
    try {
        file.machine = parse_machine_json(file.text, path);
    } catch (const Error& e) {
        throw_input_error("the recorded series do not yield a valid machine file, so '" + path +
                          "' was not written: " + e.message());
    }
    return file;
}

} // namespace kerncast::probe
