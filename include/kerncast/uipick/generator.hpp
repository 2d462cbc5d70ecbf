// A UIPICK measurement-kernel generator (Stevens & Klöckner sec. 7.1): a kernel creation
// function with generator filter tags and, per variant argument, the set of values it allows.
// Running a generator makes one kernel per point of the Cartesian product of the argument
// value sets, each narrowed by the user's variant filter tags. docs/uipick.md.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/uipick/filter_tags.hpp"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::uipick {

// One variant argument: the values used when the user names none (`defaults`) and the
// criterion for values the user names (`accepts`; null: only the defaults are allowed).
struct VariantArgument {
    std::string name;
    std::vector<std::string> defaults;
    std::function<bool(const std::string&)> accepts;
    std::string accepted;    // what `accepts` allows, in words ("positive integers")
    std::string description; // what the argument changes, for `kerncast gen --generators`
};

// Argument values of one variant, in the generator's argument order.
using VariantValues = std::vector<std::pair<std::string, std::string>>;

// The value of `argument` (internal Error when the generator has no such argument).
const std::string& value_of(const VariantValues& values, const std::string& argument);

// The outcome of one kernel creation: a kernel, or the reason this combination of values
// makes none (a prefetch tile needs square work-groups, ...).
struct VariantResult {
    std::optional<kernel::KernelSpec> spec;
    std::string skip_reason;
};

struct Generator {
    std::string name;
    std::set<std::string> tags; // generator filter tags
    std::string description;
    std::string source; // where the kernel design comes from (paper, section)
    std::vector<VariantArgument> arguments;
    std::function<VariantResult(const VariantValues&)> create;
};

// Acceptance criteria shared by the generators.
bool is_positive_integer(const std::string& text);
bool is_bool_text(const std::string& text);   // "True" | "False" (the paper's spelling)
bool is_float_dtype(const std::string& text); // float16 | float32 | float64

} // namespace kerncast::uipick
