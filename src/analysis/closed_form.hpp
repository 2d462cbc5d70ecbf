// Private: exact closed-form point counts of parametric integer sets.
//
// Stevens & Klöckner (sec. 5) get piecewise quasi-polynomials from barvinok, which Debian
// does not package. This derives them for the sets kerncast produces: nested loops whose
// bounds are affine in outer indices and parameters (unit coefficients), or floor/ceil of an
// affine function of the parameters alone (tiling, divisibility). The sum over each index,
// innermost first, is a polynomial sum done with Faulhaber's formula; several lower or upper
// bounds split the set into disjoint pieces (which bound is the max/min), decided either by
// extra affine constraints (isl keeps them exact) or by guards on the parameters evaluated at
// run time. Anything else (existential variables, non-unit coefficients on outer indices)
// is reported as "no closed form" (so is any isl failure) and the caller counts with isl.
#pragma once

#include "../support/isl_support.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::analysis::detail {

__extension__ using int128 = __int128;

struct Rational {
    int128 num = 0;
    int128 den = 1;
    Rational() = default;
    Rational(int128 n, int128 d = 1);
    Rational operator+(const Rational& o) const;
    Rational operator-(const Rational& o) const;
    Rational operator*(const Rational& o) const;
    Rational operator/(const Rational& o) const;
    bool is_zero() const { return num == 0; }
};

// A monomial: sorted (variable, exponent) pairs. Variables: parameters 0..P-1, floor atoms
// P.., set dimensions dim_base + position.
using Monomial = std::vector<std::pair<int, int>>;
constexpr int dim_base = 1 << 20;

struct Polynomial {
    std::map<Monomial, Rational> terms;

    static Polynomial constant(Rational value);
    static Polynomial variable(int var);
    Polynomial operator+(const Polynomial& o) const;
    Polynomial operator-(const Polynomial& o) const;
    Polynomial operator*(const Polynomial& o) const;
    Polynomial scaled(Rational factor) const;
    int degree_in(int var) const;
    Polynomial coefficient_of(int var, int power) const; // terms with var^power, var removed
    Polynomial substitute(int var, const Polynomial& value) const;
};

// floor((sum coefficients[v]*v + constant) / denominator) with parameter variables only.
struct FloorAtom {
    std::map<int, std::int64_t> coefficients;
    std::int64_t constant = 0;
    std::int64_t denominator = 1;
    bool operator==(const FloorAtom&) const = default;
};

// A bound value: sign * floor(numerator / denominator); numerator affine over params and
// dims (dims only when denominator == 1).
struct BoundValue {
    std::map<int, std::int64_t> coefficients;
    std::int64_t constant = 0;
    std::int64_t denominator = 1;
    int sign = 1;
    bool parameters_only() const;
};

// lhs <= rhs (lhs + 1 <= rhs when strict), both parameter-only: decided at evaluation time.
struct Guard {
    BoundValue lhs;
    BoundValue rhs;
    bool strict = false;
};

// sum(coefficients[p]*p) + constant >= 0 (== 0 for equalities), parameters only.
struct ParamConstraint {
    std::map<int, std::int64_t> coefficients;
    std::int64_t constant = 0;
    bool equality = false;
};

struct Piece {
    Polynomial count;
    std::vector<Guard> guards;
    std::vector<ParamConstraint> constraints;
};

struct ClosedForm {
    int param_count = 0;
    std::vector<FloorAtom> atoms;
    std::vector<Piece> pieces;

    // Exact count at the given parameter values (param_count of them).
    std::int64_t evaluate(const std::int64_t* params) const;
    std::string to_string(const std::vector<std::string>& param_names) const;
};

// set: parameters aligned to the caller's parameter list (param_count of them), set
// dimensions in nesting order (outermost first). nullopt: no closed form derived.
std::optional<ClosedForm> derive_closed_form(const ::isl::set& set, int param_count);

// A compiled closed form for fast repeated evaluation.
class CompiledClosedForm {
public:
    explicit CompiledClosedForm(const ClosedForm& form);
    std::int64_t evaluate(const std::int64_t* params) const;

private:
    struct Term {
        int128 coefficient;
        std::vector<std::pair<int, int>> powers;
    };
    struct CompiledPiece {
        std::vector<Term> terms;
        int128 denominator;
        std::vector<Guard> guards;
        std::vector<ParamConstraint> constraints;
    };
    int param_count_;
    std::vector<FloorAtom> atoms_;
    std::vector<CompiledPiece> pieces_;
};

} // namespace kerncast::analysis::detail
