#include "kerncast/machine/catalogue.hpp"

#include "embedded_machines.hpp"
#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/machine_json.hpp"

#include <algorithm>
#include <filesystem>

namespace kerncast {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
}

} // namespace

std::vector<std::string> builtin_machine_ids() {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < embedded::machine_file_count; ++i)
        ids.emplace_back(embedded::machine_files[i].id);
    return ids;
}

namespace {

MachineText builtin_machine_text(const std::string& id) {
    for (std::size_t i = 0; i < embedded::machine_file_count; ++i) {
        const auto& file = embedded::machine_files[i];
        if (file.id == id)
            return {std::string(file.text),
                    "built-in machine '" + id + "' (machines/" + id + ".json)"};
    }
    const auto ids = builtin_machine_ids();
    const auto close = closest_names(id, ids);
    std::vector<std::string> notes;
    if (!close.empty())
        notes.push_back("closest built-in ids: " + quoted_list(close));
    notes.push_back("`kerncast machines` lists the built-in machines; a machine file path "
                    "works wherever an id does");
    throw_input_error("unknown machine id '" + id + "'", {}, notes);
}

} // namespace

MachineModel builtin_machine(const std::string& id) {
    const MachineText machine = builtin_machine_text(id);
    return parse_machine_json(machine.text, machine.origin);
}

std::optional<std::string> builtin_for_device(const std::string& device_name, int cc_major,
                                              int cc_minor) {
    for (const std::string& id : builtin_machine_ids()) {
        const MachineIdentity identity = builtin_machine(id).identity;
        if (identity.cc_major == cc_major && identity.cc_minor == cc_minor &&
            std::find(identity.device_names.begin(), identity.device_names.end(), device_name) !=
                identity.device_names.end())
            return id;
    }
    return std::nullopt;
}

MachineText resolve_machine_text(const std::string& id_or_path) {
    const auto ids = builtin_machine_ids();
    if (std::find(ids.begin(), ids.end(), id_or_path) != ids.end())
        return builtin_machine_text(id_or_path);
    std::error_code error;
    const bool looks_like_path = id_or_path.find('/') != std::string::npos ||
                                 id_or_path.find('\\') != std::string::npos ||
                                 id_or_path.ends_with(".json");
    if (std::filesystem::is_regular_file(id_or_path, error) || looks_like_path)
        return {read_machine_file(id_or_path), id_or_path};
    return builtin_machine_text(id_or_path); // throws: unknown id, naming the closest ids
}

MachineModel resolve_machine(const std::string& id_or_path) {
    const MachineText machine = resolve_machine_text(id_or_path);
    return parse_machine_json(machine.text, machine.origin);
}

} // namespace kerncast
