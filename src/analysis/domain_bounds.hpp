// Bounds of a kernel's indices over its domain as affine forms in the parameters: what a thread
// mapping and a staged array's tile need. Internal to the analysis.
#pragma once

#include "../support/isl_support.hpp"
#include "kerncast/kernel/expression.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::analysis::detail {

// The affine form of a single-piece, integral bound in the parameters `params` (the bound's
// parameter dimensions, in order); nullopt otherwise.
std::optional<kernel::AffineForm> affine_bound(const ::isl::pw_aff& bound,
                                               const std::vector<std::string>& params);

// The smallest or largest value of set dimension `position` of `domain`, by affine_bound over
// the domain's own parameters.
std::optional<kernel::AffineForm> index_bound(const ::isl::set& domain, int position, bool maximum);

// "the fold 64 along x is larger than the domain, whose index x takes 60 values": why a launch
// whose fold exceeds the values of a thread-mapped index is refused (check_fold_within_domain;
// the staging, which extends such a domain to whole blocks, refuses it alike).
std::string fold_larger_than_domain(int axis, std::int64_t fold, const std::string& index,
                                    const std::string& values);

} // namespace kerncast::analysis::detail
