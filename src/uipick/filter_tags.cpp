#include "kerncast/uipick/filter_tags.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cctype>

namespace kerncast::uipick {

MatchCondition parse_match_condition(const std::string& text) {
    for (MatchCondition condition : {MatchCondition::identical, MatchCondition::subset,
                                     MatchCondition::superset, MatchCondition::intersect})
        if (text == match_condition_name(condition))
            return condition;
    throw_usage_error("unknown match condition '" + text +
                      "' (identical, subset, superset, intersect)");
}

const char* match_condition_name(MatchCondition condition) {
    switch (condition) {
    case MatchCondition::identical:
        return "identical";
    case MatchCondition::subset:
        return "subset";
    case MatchCondition::superset:
        return "superset";
    case MatchCondition::intersect:
        return "intersect";
    }
    return "?";
}

namespace {

void check_word(const std::string& word, const std::string& tag, const char* what) {
    if (word.empty())
        throw_usage_error("filter tag '" + tag + "': empty " + what);
    for (char c : word)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-' &&
            c != '+')
            throw_usage_error("filter tag '" + tag + "': character '" + std::string(1, c) +
                              "' in the " + what +
                              " (letters, digits, '_', '.', '-' and '+' only)");
}

} // namespace

FilterTags parse_filter_tags(const std::vector<std::string>& tags) {
    FilterTags parsed;
    for (const auto& tag : tags) {
        if (tag.empty())
            throw_usage_error("empty filter tag");
        const auto colon = tag.find(':');
        if (colon == std::string::npos) {
            check_word(tag, tag, "generator tag");
            if (std::find(parsed.generator_tags.begin(), parsed.generator_tags.end(), tag) ==
                parsed.generator_tags.end())
                parsed.generator_tags.push_back(tag);
            continue;
        }
        VariantTag variant;
        variant.argument = tag.substr(0, colon);
        check_word(variant.argument, tag, "argument");
        for (const auto& other : parsed.variant_tags)
            if (other.argument == variant.argument)
                throw_usage_error(
                    "filter tag '" + tag + "': argument '" + variant.argument +
                    "' is given twice (list its values in one tag: " + variant.argument + ":a,b)");
        const std::string values = tag.substr(colon + 1);
        size_t start = 0;
        while (true) {
            const size_t comma = values.find(',', start);
            const std::string value = values.substr(
                start, comma == std::string::npos ? std::string::npos : comma - start);
            check_word(value, tag, "value");
            if (std::find(variant.values.begin(), variant.values.end(), value) !=
                variant.values.end())
                throw_usage_error("filter tag '" + tag + "': value '" + value + "' is given twice");
            variant.values.push_back(value);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        parsed.variant_tags.push_back(variant);
    }
    return parsed;
}

bool generator_matches(const std::set<std::string>& generator_tags,
                       const std::vector<std::string>& user_tags, MatchCondition condition) {
    const std::set<std::string> user(user_tags.begin(), user_tags.end());
    switch (condition) {
    case MatchCondition::identical:
        return generator_tags == user;
    case MatchCondition::subset: // the generator's tags are a subset of the user's
        return std::includes(user.begin(), user.end(), generator_tags.begin(),
                             generator_tags.end());
    case MatchCondition::superset: // the generator's tags contain every user tag
        return std::includes(generator_tags.begin(), generator_tags.end(), user.begin(),
                             user.end());
    case MatchCondition::intersect:
        return std::any_of(user.begin(), user.end(),
                           [&](const std::string& tag) { return generator_tags.count(tag) > 0; });
    }
    return false;
}

} // namespace kerncast::uipick
