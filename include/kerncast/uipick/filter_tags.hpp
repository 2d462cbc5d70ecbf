// UIPICK filter tags (Stevens & Klöckner sec. 7.1): which measurement-kernel generators run
// and which variants they produce. A *generator filter tag* is a single word (`matmul_sq`);
// a *variant filter tag* is `argument:value[,value...]` (`dtype:float32`, `n:2048,2560`).
// A generator runs when its own tag set matches the user's generator tags under one of the
// four match conditions of sec. 7.1; docs/uipick.md.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace kerncast::uipick {

// Sec. 7.1: (1) the generator's tag set equals the user's tags, (2) it is a subset of them,
// (3) it is a superset of them (the default), (4) the two sets intersect.
enum class MatchCondition { identical, subset, superset, intersect };

// "identical" | "subset" | "superset" | "intersect" (usage Error otherwise).
MatchCondition parse_match_condition(const std::string& text);
const char* match_condition_name(MatchCondition condition);

struct VariantTag {
    std::string argument;            // "n"
    std::vector<std::string> values; // {"2048", "2560"}, in the order given, no duplicates
};

struct FilterTags {
    std::vector<std::string> generator_tags; // in the order given, no duplicates
    std::vector<VariantTag> variant_tags;    // at most one per argument
};

// Splits the user's tags: a tag with ':' is a variant tag, any other a generator tag. Usage
// Error for an empty tag, argument or value, a value given twice, an argument given twice
// and characters other than letters, digits, '_', '.', '-' and '+'.
FilterTags parse_filter_tags(const std::vector<std::string>& tags);

// Whether a generator with tag set `generator_tags` runs for the user's generator tags.
bool generator_matches(const std::set<std::string>& generator_tags,
                       const std::vector<std::string>& user_tags, MatchCondition condition);

} // namespace kerncast::uipick
