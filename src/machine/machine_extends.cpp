// "extends": deep merge of the user's document onto a built-in machine.
#include "machine_extends.hpp"

#include "kerncast/machine/catalogue.hpp"
#include "machine_write.hpp"
#include "validate_at.hpp"

#include <algorithm>

namespace kerncast::machine_format {
namespace {

// Arrays whose elements are matched by key rather than replaced wholesale.
std::vector<std::string> element_key(const std::string& path) {
    if (path == "/memory" || path == "/special_memories" || path == "/tlbs")
        return {"name"};
    if (path == "/compute/issue_rates")
        return {"op", "dtype"};
    return {};
}

thread_local int extends_depth = 0;

} // namespace

void merge_into(json& base, const json& overlay, const std::string& path,
                std::map<std::string, std::string>& path_map) {
    for (const auto& [key, value] : overlay.items()) {
        const std::string child = child_pointer(path, key);
        // Replaced whole, not merged key by key:
        // - the atomic table: its single source must describe every entry;
        // - a value written {"value": ..., "source": ...}: a value the file gives without a
        //   source must not inherit the base value's source (it takes the file's default);
        // - a source's uncertainty (its three members describe one set of repetitions) and
        //   fit provenance (its members describe one fit).
        // ("/sources" and "/calibrated_costs" are keyed by the user's names, which may be
        // "value".)
        const bool named_members = child == "/sources" || child == "/calibrated_costs";
        const bool sourced_value = value.is_object() && value.contains("value") && !named_members;
        const bool whole_source_member =
            (key == "uncertainty" || key == "fit" || key == "calibration") &&
            path.rfind("/sources/", 0) == 0;
        const bool replace_whole =
            child == "/atomic_service_times" || sourced_value || whole_source_member;
        if (!replace_whole && base.contains(key) && base[key].is_object() && value.is_object()) {
            merge_into(base[key], value, child, path_map);
            continue;
        }
        const auto match_keys = element_key(child);
        if (!match_keys.empty() && base.contains(key) && base[key].is_array() && value.is_array()) {
            json& merged = base[key];
            std::vector<bool> from_overlay(merged.size(), false);
            for (std::size_t i = 0; i < value.size(); ++i) {
                const json& element = value[i];
                std::size_t target = merged.size();
                if (element.is_object()) {
                    for (std::size_t j = 0; j < merged.size(); ++j) {
                        bool same = true;
                        for (const auto& k : match_keys)
                            same = same && element.contains(k) && merged[j].contains(k) &&
                                   element[k] == merged[j][k];
                        if (same) {
                            target = j;
                            break;
                        }
                    }
                }
                if (target == merged.size()) {
                    merged.push_back(element);
                    from_overlay.push_back(true);
                } else {
                    merge_into(merged[target], element, child_pointer(child, target), path_map);
                    from_overlay[target] = true;
                }
                path_map[child_pointer(child, target)] = child_pointer(child, i);
            }
            for (std::size_t j = 0; j < from_overlay.size(); ++j)
                if (!from_overlay[j])
                    path_map[child_pointer(child, j)] = ""; // inherited, not in the text
            continue;
        }
        base[key] = value;
    }
}

MachineModel read_extended_machine(Reader& reader, const json& document) {
    const auto base_id = reader.scalar<std::string>(document.at("extends"), "/extends");
    const auto ids = builtin_machine_ids();
    if (std::find(ids.begin(), ids.end(), base_id) == ids.end()) {
        const auto close = closest_names(base_id, ids);
        std::vector<std::string> notes;
        notes.push_back(close.empty() ? "built-in machines: " + quoted_list(ids)
                                      : "closest built-in ids: " + quoted_list(close));
        reader.fail("/extends", "\"extends\" names no built-in machine: \"" + base_id + "\"",
                    notes);
    }
    if (extends_depth > 8)
        reader.fail("/extends", "\"extends\" chain is deeper than 8 machines");
    ++extends_depth;
    MachineModel base;
    try {
        base = builtin_machine(base_id);
    } catch (...) {
        --extends_depth;
        throw;
    }
    --extends_depth;
    json merged = explicit_machine_json(base);
    merged["identity"].erase("id"); // a machine derived from a built-in needs its own id
    std::map<std::string, std::string> path_map;
    json overlay = document;
    overlay.erase("extends");
    merge_into(merged, overlay, "", path_map);
    reader.set_extended(base_id, path_map);
    MachineModel machine = read_machine(reader, merged);
    try {
        validate_machine_at(machine, [&](const std::string& path) { return reader.locate(path); });
    } catch (const Error& error) {
        if (!reader.inherited(error.where().json_path))
            throw;
        auto notes = error.notes();
        notes.push_back("the value at " + error.where().json_path +
                        " comes from the built-in machine '" + base_id +
                        "' that this file extends");
        throw Error(error.kind(), error.message(), error.where(), notes);
    }
    return machine;
}

} // namespace kerncast::machine_format
