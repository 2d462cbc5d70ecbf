#include "kerncast/machine/catalogue.hpp"

#include "embedded_machines.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/machine_json.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace kerncast {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "'" : ", '") + name + "'";
    return text;
}

} // namespace

std::vector<std::string> closest_names(const std::string& wanted,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit) {
    const std::string needle = lower(wanted);
    // A name that contains what was typed ("a100" -> "a100-sxm4-40gb") is close whatever the
    // edit distance; otherwise allow about one edit in three characters.
    const std::size_t threshold = std::max<std::size_t>(2, needle.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto& candidate : candidates) {
        const std::string hay = lower(candidate);
        std::size_t distance = edit_distance(needle, hay);
        const bool contains = needle.size() >= 2 && hay.find(needle) != std::string::npos;
        if (contains)
            distance = std::min(distance, std::size_t{1});
        if (distance <= threshold || contains)
            scored.emplace_back(distance, candidate);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> result;
    for (const auto& [distance, name] : scored) {
        if (result.size() >= limit)
            break;
        result.push_back(name);
    }
    return result;
}

std::vector<std::string> builtin_machine_ids() {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < embedded::machine_file_count; ++i)
        ids.emplace_back(embedded::machine_files[i].id);
    return ids;
}

MachineModel builtin_machine(const std::string& id) {
    for (std::size_t i = 0; i < embedded::machine_file_count; ++i) {
        const auto& file = embedded::machine_files[i];
        if (file.id == id)
            return parse_machine_json(std::string(file.text),
                                      "built-in machine '" + id + "' (machines/" + id + ".json)");
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

MachineModel resolve_machine(const std::string& id_or_path) {
    const auto ids = builtin_machine_ids();
    if (std::find(ids.begin(), ids.end(), id_or_path) != ids.end())
        return builtin_machine(id_or_path);
    std::error_code error;
    const bool looks_like_path = id_or_path.find('/') != std::string::npos ||
                                 id_or_path.find('\\') != std::string::npos ||
                                 id_or_path.ends_with(".json");
    if (std::filesystem::is_regular_file(id_or_path, error) || looks_like_path)
        return load_machine_file(id_or_path);
    return builtin_machine(id_or_path); // throws: unknown id, naming the closest ids
}

} // namespace kerncast
