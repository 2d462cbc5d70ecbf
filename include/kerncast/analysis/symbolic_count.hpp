// An exact count that is a function of the kernel parameters: analyse once, evaluate for any
// parameter values cheaply. Built from integer sets (isl syntax); a closed-form piecewise
// quasi-polynomial where one is derived (see src/analysis/closed_form.hpp), exact isl point
// counting (isl_set_count_val) otherwise. Integer combinations of counts are counts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct isl_set;

namespace kerncast::analysis {

class PointCount; // one counted set (private)

class SymbolicCount {
public:
    SymbolicCount() = default; // zero

    // The number of integer points of `isl_set_text` as a function of `parameters` (the set
    // may use a subset of them). Throws an input Error when isl rejects the set.
    static SymbolicCount of_set(const std::string& isl_set_text,
                                const std::vector<std::string>& parameters);
    // The same, given also the set that text prints (of any isl context, not kept): a count
    // not made before is evaluated by a closed form derived from it, without parsing the text.
    // closed_form() and formula() still describe the text's own parse (the form a set's
    // derivation takes depends on how isl holds it; its value does not).
    static SymbolicCount of_set(const std::string& isl_set_text, isl_set* set_of_text,
                                const std::vector<std::string>& parameters);
    static SymbolicCount constant(std::int64_t value);

    SymbolicCount operator+(const SymbolicCount& other) const;
    SymbolicCount scaled(std::int64_t factor) const;
    bool is_zero() const { return terms_.empty(); }

    // Exact value; `params` in the order of the parameter list given at construction.
    std::int64_t evaluate(const std::vector<std::int64_t>& params) const;
    std::int64_t evaluate(const std::int64_t* params) const;
    // Reference value by isl point counting only (slow; for tests and cross-checks).
    std::int64_t evaluate_with_isl(const std::vector<std::int64_t>& params) const;
    // True when every term has a closed form (evaluation needs no isl).
    bool closed_form() const;
    // The formula in the parameters ("(nx - 8)*..." expanded), or "isl count of {...}".
    std::string formula() const;

private:
    struct Term {
        std::int64_t factor = 1;
        std::shared_ptr<const PointCount> set; // null: the constant 1
    };
    std::vector<Term> terms_;
};

} // namespace kerncast::analysis
