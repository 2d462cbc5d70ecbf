#include "kerncast/support/cross_validation.hpp"

#include <map>
#include <set>

namespace kerncast::support {

TwoFoldSplit split_by_group(const std::vector<std::string>& group_of_sample) {
    const std::set<std::string> groups(group_of_sample.begin(), group_of_sample.end());
    std::map<std::string, std::size_t> half_of;
    std::size_t position = 0;
    TwoFoldSplit split;
    for (const auto& group : groups) {
        half_of[group] = position % 2;
        split.groups[position++ % 2].push_back(group);
    }
    for (std::size_t i = 0; i < group_of_sample.size(); ++i)
        split.samples[half_of.at(group_of_sample[i])].push_back(i);
    return split;
}

} // namespace kerncast::support
