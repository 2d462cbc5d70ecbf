#include "kerncast/closest_names.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace kerncast {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
    // One row of the dynamic-programming table at a time.
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

std::vector<std::string> closest_names(const std::string& wanted,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit) {
    const std::string needle = lower(wanted);
    const std::size_t threshold = std::max<std::size_t>(2, needle.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> scored;
    for (const auto& candidate : candidates) {
        const std::string hay = lower(candidate);
        std::size_t distance = edit_distance(needle, hay);
        const bool contains = needle.size() >= 2 && hay.find(needle) != std::string::npos;
        if (contains)
            distance = std::min(distance, std::size_t{1});
        if (distance <= threshold)
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

} // namespace kerncast
