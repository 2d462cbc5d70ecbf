#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/probe/runner.hpp"

#include <algorithm>
#include <sstream>

namespace kerncast::probe {

std::vector<std::string> parse_probe_groups(const std::string& comma_separated) {
    if (comma_separated.empty())
        return probe_groups();
    std::vector<std::string> groups;
    std::stringstream in(comma_separated);
    std::string name;
    while (std::getline(in, name, ',')) {
        if (name.empty())
            continue;
        const auto& known = probe_groups();
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const auto& k : known)
                list += (list.empty() ? "" : ", ") + k;
            std::vector<std::string> notes{"valid groups: " + list};
            if (const auto closest = closest_names(name, known, 1); !closest.empty())
                notes.insert(notes.begin(), "did you mean \"" + closest.front() + "\"?");
            throw_usage_error("unknown probe group \"" + name + "\" in --only", notes);
        }
        if (std::find(groups.begin(), groups.end(), name) == groups.end())
            groups.push_back(name);
    }
    if (groups.empty())
        throw_usage_error("--only needs at least one group");
    return groups;
}

} // namespace kerncast::probe
