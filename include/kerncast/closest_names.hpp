// Internal API: "did you mean ...?" suggestions for a mistyped name (an unknown JSON key, an
// unknown machine id), shared by every reader so they all suggest alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kerncast {

// Levenshtein distance between two strings (insertions, deletions, substitutions; bytes).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The names among `candidates` closest to `wanted`, best first, at most `limit`; ties keep the
// candidates' order. Case is ignored. A candidate counts as close when it is within about one
// edit in three characters of `wanted` (at least 2 edits), or when it contains `wanted`
// ("a100" -> "a100-sxm4-40gb"). Empty when nothing is close: better no suggestion than a
// misleading one.
std::vector<std::string> closest_names(const std::string& wanted,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

} // namespace kerncast
