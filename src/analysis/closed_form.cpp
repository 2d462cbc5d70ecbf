#include "closed_form.hpp"

#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/error.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>

namespace kerncast::analysis::detail {

// ---- rationals and polynomials -------------------------------------------------------------

static int128 gcd128(int128 a, int128 b) {
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b != 0) {
        int128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

Rational::Rational(int128 n, int128 d) : num(n), den(d) {
    KERNCAST_CHECK(den != 0, "rational with zero denominator");
    if (den < 0) {
        num = -num;
        den = -den;
    }
    const int128 g = gcd128(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
    if (num == 0)
        den = 1;
}
Rational Rational::operator+(const Rational& o) const {
    return Rational(num * o.den + o.num * den, den * o.den);
}
Rational Rational::operator-(const Rational& o) const {
    return Rational(num * o.den - o.num * den, den * o.den);
}
Rational Rational::operator*(const Rational& o) const {
    return Rational(num * o.num, den * o.den);
}
Rational Rational::operator/(const Rational& o) const {
    return Rational(num * o.den, den * o.num);
}

static Monomial multiply(const Monomial& a, const Monomial& b) {
    std::map<int, int> powers;
    for (const auto& [var, power] : a)
        powers[var] += power;
    for (const auto& [var, power] : b)
        powers[var] += power;
    return Monomial(powers.begin(), powers.end());
}

static void accumulate(std::map<Monomial, Rational>& terms, const Monomial& m, Rational value) {
    auto it = terms.find(m);
    if (it == terms.end()) {
        if (!value.is_zero())
            terms.emplace(m, value);
        return;
    }
    it->second = it->second + value;
    if (it->second.is_zero())
        terms.erase(it);
}

Polynomial Polynomial::constant(Rational value) {
    Polynomial p;
    if (!value.is_zero())
        p.terms[{}] = value;
    return p;
}
Polynomial Polynomial::variable(int var) {
    Polynomial p;
    p.terms[{{var, 1}}] = Rational(1);
    return p;
}
Polynomial Polynomial::operator+(const Polynomial& o) const {
    Polynomial r = *this;
    for (const auto& [m, c] : o.terms)
        accumulate(r.terms, m, c);
    return r;
}
Polynomial Polynomial::operator-(const Polynomial& o) const {
    return *this + o.scaled(-1);
}
Polynomial Polynomial::operator*(const Polynomial& o) const {
    Polynomial r;
    for (const auto& [ma, ca] : terms)
        for (const auto& [mb, cb] : o.terms)
            accumulate(r.terms, multiply(ma, mb), ca * cb);
    return r;
}
Polynomial Polynomial::scaled(Rational factor) const {
    Polynomial r;
    for (const auto& [m, c] : terms)
        accumulate(r.terms, m, c * factor);
    return r;
}
int Polynomial::degree_in(int var) const {
    int degree = 0;
    for (const auto& [m, c] : terms)
        for (const auto& [v, power] : m)
            if (v == var)
                degree = std::max(degree, power);
    return degree;
}
Polynomial Polynomial::coefficient_of(int var, int power) const {
    Polynomial r;
    for (const auto& [m, c] : terms) {
        int found = 0;
        Monomial rest;
        for (const auto& entry : m) {
            if (entry.first == var)
                found = entry.second;
            else
                rest.push_back(entry);
        }
        if (found == power)
            accumulate(r.terms, rest, c);
    }
    return r;
}
static Polynomial power_of(const Polynomial& p, int exponent) {
    Polynomial r = Polynomial::constant(Rational(1));
    for (int k = 0; k < exponent; ++k)
        r = r * p;
    return r;
}
Polynomial Polynomial::substitute(int var, const Polynomial& value) const {
    Polynomial r;
    const int degree = degree_in(var);
    for (int k = 0; k <= degree; ++k)
        r = r + coefficient_of(var, k) * power_of(value, k);
    return r;
}

// S_k(x) = sum_{t=0}^{x} t^k as a univariate polynomial (coefficient of x^j at [j]), from
// (x+1)^{k+1} = sum_{j=0}^{k} C(k+1, j) S_j(x)  (telescoping (t+1)^{k+1} - t^{k+1}).
// The table grows on demand and is shared by every thread (explore predicts launches in
// parallel): a mutex guards it, and callers get a copy, since a growing table moves its rows.
static std::vector<Rational> faulhaber(int k) {
    static std::mutex mutex;
    static std::vector<std::vector<Rational>> table;
    const std::lock_guard<std::mutex> lock(mutex);
    while (static_cast<int>(table.size()) <= k) {
        const int n = static_cast<int>(table.size());
        std::vector<int128> binomial(static_cast<size_t>(n) + 2, 0);
        binomial[0] = 1;
        for (int row = 1; row <= n + 1; ++row)
            for (int j = row; j > 0; --j)
                binomial[static_cast<size_t>(j)] += binomial[static_cast<size_t>(j - 1)];
        // (x+1)^{n+1} coefficients are binomial[j] at x^j
        std::vector<Rational> s(static_cast<size_t>(n) + 2);
        for (int j = 0; j <= n + 1; ++j)
            s[static_cast<size_t>(j)] = Rational(binomial[static_cast<size_t>(j)]);
        for (int j = 0; j < n; ++j) {
            const std::vector<Rational>& sj = table[static_cast<size_t>(j)];
            for (size_t c = 0; c < sj.size(); ++c)
                s[c] = s[c] - sj[c] * Rational(binomial[static_cast<size_t>(j)]);
        }
        for (auto& c : s)
            c = c / Rational(binomial[static_cast<size_t>(n)]);
        table.push_back(s);
    }
    return table[static_cast<size_t>(k)];
}

static Polynomial apply_univariate(const std::vector<Rational>& coefficients, const Polynomial& x) {
    Polynomial r;
    Polynomial power = Polynomial::constant(Rational(1));
    for (const auto& c : coefficients) {
        r = r + power.scaled(c);
        power = power * x;
    }
    return r;
}

// sum_{var = lower}^{upper} p
static Polynomial sum_over(const Polynomial& p, int var, const Polynomial& lower,
                           const Polynomial& upper) {
    Polynomial r;
    const Polynomial below = lower - Polynomial::constant(Rational(1));
    const int degree = p.degree_in(var);
    for (int k = 0; k <= degree; ++k) {
        const Polynomial c = p.coefficient_of(var, k);
        if (c.terms.empty())
            continue;
        const auto& s = faulhaber(k);
        r = r + c * (apply_univariate(s, upper) - apply_univariate(s, below));
    }
    return r;
}

// ---- bounds --------------------------------------------------------------------------------

bool BoundValue::parameters_only() const {
    for (const auto& [var, c] : coefficients)
        if (var >= dim_base)
            return false;
    return true;
}

// values: parameters, then floor atoms (an atom may use the parameters and earlier atoms).
static int128 evaluate_affine(const std::map<int, std::int64_t>& coefficients,
                              std::int64_t constant, const int128* values) {
    int128 value = constant;
    for (const auto& [var, c] : coefficients)
        value += c * values[var];
    return value;
}

static int128 evaluate_bound(const BoundValue& b, const int128* values) {
    return b.sign * support::floor_div(evaluate_affine(b.coefficients, b.constant, values),
                                       static_cast<int128>(b.denominator));
}

namespace {

struct RawConstraint {
    bool equality = false;
    std::vector<std::int64_t> params;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> divs;
    std::int64_t constant = 0;
};

// Coefficients of one constraint (the binding has no constraint type: read it through the C
// API, owning it for the duration).
RawConstraint raw_constraint(isl_constraint* borrowed_constraint, int params, int dims, int divs) {
    const isl::Constraint c(borrowed_constraint);
    auto coefficient = [&](isl_dim_type type, int k) {
        return ::isl::manage(isl_constraint_get_coefficient_val(c.get(), type, k)).get_num_si();
    };
    RawConstraint raw;
    raw.equality = isl_constraint_is_equality(c.get()) == isl_bool_true;
    for (int k = 0; k < params; ++k)
        raw.params.push_back(coefficient(isl_dim_param, k));
    for (int k = 0; k < dims; ++k)
        raw.dims.push_back(coefficient(isl_dim_set, k));
    for (int k = 0; k < divs; ++k)
        raw.divs.push_back(coefficient(isl_dim_div, k));
    raw.constant = ::isl::manage(isl_constraint_get_constant_val(c.get())).get_num_si();
    return raw;
}

std::vector<RawConstraint> constraints_of(const ::isl::basic_set& bset) {
    struct Data {
        std::vector<RawConstraint> out;
        int params, dims, divs;
    } data{{},
           isl::dim_count(bset, isl_dim_param),
           isl::dim_count(bset, isl_dim_set),
           isl::dim_count(bset, isl_dim_div)};
    isl_basic_set_foreach_constraint(
        bset.get(),
        [](isl_constraint* c, void* user) -> isl_stat {
            auto* d = static_cast<Data*>(user);
            d->out.push_back(raw_constraint(c, d->params, d->dims, d->divs));
            return isl_stat_ok;
        },
        &data);
    return std::move(data.out);
}

// Adds "sum coefficients*var + constant >= 0" to bset.
::isl::basic_set with_inequality(const ::isl::basic_set& bset,
                                 const std::map<int, std::int64_t>& coefficients,
                                 std::int64_t constant) {
    isl_constraint* c = isl_constraint_alloc_inequality(isl_basic_set_get_local_space(bset.get()));
    for (const auto& [var, value] : coefficients) {
        if (var >= dim_base)
            c = isl_constraint_set_coefficient_si(c, isl_dim_set, var - dim_base,
                                                  static_cast<int>(value));
        else
            c = isl_constraint_set_coefficient_si(c, isl_dim_param, var, static_cast<int>(value));
    }
    c = isl_constraint_set_constant_si(c, static_cast<int>(constant));
    return ::isl::manage(isl_basic_set_add_constraint(bset.copy(), c));
}

// The lower and upper bounds on one set dimension, read from its constraints.
struct DimensionBounds {
    std::vector<BoundValue> lowers;
    std::vector<BoundValue> uppers;
};

class Deriver {
public:
    explicit Deriver(int param_count) { form_.param_count = param_count; }

    bool run(const ::isl::basic_set& bset) {
        derive(bset, isl::dim_count(bset, isl_dim_set), Polynomial::constant(Rational(1)), {});
        return ok_;
    }
    ClosedForm take() { return std::move(form_); }

private:
    ClosedForm form_;
    bool ok_ = true;

    int atom_var(const FloorAtom& atom) {
        for (size_t k = 0; k < form_.atoms.size(); ++k)
            if (form_.atoms[k] == atom)
                return form_.param_count + static_cast<int>(k);
        form_.atoms.push_back(atom);
        return form_.param_count + static_cast<int>(form_.atoms.size()) - 1;
    }

    Polynomial polynomial_of(const BoundValue& b) {
        if (b.denominator == 1) {
            Polynomial p = Polynomial::constant(Rational(b.constant));
            for (const auto& [var, c] : b.coefficients)
                p = p + Polynomial::variable(var).scaled(Rational(c));
            return p.scaled(Rational(b.sign));
        }
        FloorAtom atom{b.coefficients, b.constant, b.denominator};
        return Polynomial::variable(atom_var(atom)).scaled(Rational(b.sign));
    }

    // Registers each existential variable of bset as a floor atom when it is the floor of
    // an affine function of the parameters and earlier atoms.
    bool divs_as_atoms(const ::isl::basic_set& bset, std::vector<int>& vars) {
        const int n = isl::dim_count(bset, isl_dim_div);
        const int params = isl::dim_count(bset, isl_dim_param);
        const int dims = isl::dim_count(bset, isl_dim_set);
        for (int k = 0; k < n; ++k) {
            const ::isl::aff div = ::isl::manage(isl_basic_set_get_div(bset.get(), k));
            const ::isl::val den = ::isl::manage(isl_aff_get_denominator_val(div.get()));
            auto scaled = [&](isl_dim_type type, int position) {
                return ::isl::manage(isl_aff_get_coefficient_val(div.get(), type, position))
                    .mul(den)
                    .get_num_si();
            };
            FloorAtom atom;
            atom.denominator = den.get_num_si();
            atom.constant = div.get_constant_val().mul(den).get_num_si();
            for (int p = 0; p < params; ++p)
                if (const std::int64_t c = scaled(isl_dim_param, p))
                    atom.coefficients[p] = c;
            for (int d = 0; d < dims; ++d)
                if (scaled(isl_dim_in, d) != 0)
                    return false;
            for (int e = 0; e < k; ++e)
                if (const std::int64_t c = scaled(isl_dim_div, e))
                    atom.coefficients[vars[static_cast<size_t>(e)]] += c;
            if (atom.denominator <= 0)
                return false;
            vars.push_back(atom_var(atom));
        }
        return true;
    }

    static BoundValue normalized(BoundValue b) {
        if (b.denominator == 1 && b.sign == -1) {
            for (auto& [var, c] : b.coefficients)
                c = -c;
            b.constant = -b.constant;
            b.sign = 1;
        }
        return b;
    }

    // Records "x <= y" (x + 1 <= y when strict) as an isl constraint or a run-time guard.
    // Returns false when neither is possible exactly.
    static bool add_less_equal(::isl::basic_set& bset, std::vector<Guard>& guards, BoundValue x,
                               BoundValue y, bool strict) {
        x = normalized(x);
        y = normalized(y);
        if (x.parameters_only() && y.parameters_only() &&
            (x.denominator > 1 || y.denominator > 1)) {
            guards.push_back(Guard{x, y, strict});
            return true;
        }
        const std::int64_t shift = strict ? 1 : 0;
        std::map<int, std::int64_t> coefficients;
        std::int64_t constant = 0;
        auto add = [&](const std::map<int, std::int64_t>& cs, std::int64_t k, std::int64_t f) {
            for (const auto& [var, c] : cs)
                coefficients[var] += f * c;
            constant += f * k;
        };
        if (x.denominator == 1 && y.denominator == 1) {
            // y - x - shift >= 0
            add(y.coefficients, y.constant, 1);
            add(x.coefficients, x.constant, -1);
            constant -= shift;
        } else if (x.denominator == 1) {
            // x + shift <= sign*floor(r/c)
            const std::int64_t c = y.denominator;
            if (y.sign == 1) { // c*(x+shift) <= r
                add(y.coefficients, y.constant, 1);
                add(x.coefficients, x.constant, -c);
                constant -= c * shift;
            } else { // x+shift <= ceil(-r/c)  <=>  -r - c*(x+shift) + c - 1 >= 0
                add(y.coefficients, y.constant, -1);
                add(x.coefficients, x.constant, -c);
                constant += -c * shift + c - 1;
            }
        } else if (y.denominator == 1) {
            // sign*floor(r/c) + shift <= y
            const std::int64_t c = x.denominator;
            if (x.sign == 1) { // floor(r/c) <= y - shift  <=>  c*(y-shift) + c - 1 - r >= 0
                add(y.coefficients, y.constant, c);
                add(x.coefficients, x.constant, -1);
                constant += -c * shift + c - 1;
            } else { // ceil(-r/c) <= y - shift  <=>  c*(y-shift) + r >= 0
                add(y.coefficients, y.constant, c);
                add(x.coefficients, x.constant, 1);
                constant -= c * shift;
            }
        } else {
            return false;
        }
        std::erase_if(coefficients, [](const auto& entry) { return entry.second == 0; });
        bset = with_inequality(bset, coefficients, constant);
        return true;
    }

    // The parameter/atom part of a constraint (`rest`) and its coefficients on the outer
    // dimensions 0..d-1; involves_dims tells whether any of those is non-zero.
    static std::map<int, std::int64_t> rest_of(const RawConstraint& raw,
                                               const std::vector<int>& div_vars, int d,
                                               bool& involves_dims) {
        std::map<int, std::int64_t> rest;
        involves_dims = false;
        for (size_t k = 0; k < raw.params.size(); ++k)
            if (raw.params[k] != 0)
                rest[static_cast<int>(k)] = raw.params[k];
        for (size_t k = 0; k < raw.divs.size(); ++k)
            if (raw.divs[k] != 0)
                rest[div_vars[k]] += raw.divs[k];
        for (int k = 0; k < d; ++k)
            if (raw.dims[static_cast<size_t>(k)] != 0) {
                rest[dim_base + k] = raw.dims[static_cast<size_t>(k)];
                involves_dims = true;
            }
        return rest;
    }

    // All dimensions summed: the remaining constraints are on the parameters (and atoms).
    void record_piece(const std::vector<RawConstraint>& constraints,
                      const std::vector<int>& div_vars, Polynomial count,
                      std::vector<Guard> guards) {
        Piece piece;
        piece.count = std::move(count);
        piece.guards = std::move(guards);
        for (const auto& raw : constraints) {
            ParamConstraint pc;
            pc.equality = raw.equality;
            pc.constant = raw.constant;
            for (size_t k = 0; k < raw.params.size(); ++k)
                if (raw.params[k] != 0)
                    pc.coefficients[static_cast<int>(k)] = raw.params[k];
            for (size_t k = 0; k < raw.divs.size(); ++k)
                if (raw.divs[k] != 0)
                    pc.coefficients[div_vars[k]] += raw.divs[k];
            piece.constraints.push_back(pc);
        }
        form_.pieces.push_back(std::move(piece));
    }

    // An equality with a unit coefficient on the innermost dimension d determines it:
    // substitute its value into the count and project d out. False when there is none.
    bool substitute_equality(const ::isl::basic_set& bset,
                             const std::vector<RawConstraint>& constraints,
                             const std::vector<int>& div_vars, int dims, const Polynomial& count,
                             std::vector<Guard>& guards) {
        const int d = dims - 1;
        for (const auto& raw : constraints) {
            const std::int64_t c = raw.dims[static_cast<size_t>(d)];
            if (!raw.equality || (c != 1 && c != -1))
                continue; // |c| > 1 with a param-only rest: handled as a pair of bounds
            // c*d + rest = 0  ->  d = -c*rest
            bool involves_dims;
            BoundValue value{rest_of(raw, div_vars, d, involves_dims), raw.constant, 1,
                             static_cast<int>(-c)};
            Polynomial substituted = count.substitute(dim_base + d, polynomial_of(value));
            derive(isl::project_out(bset, isl_dim_set, d, 1), dims - 1, std::move(substituted),
                   std::move(guards));
            return true;
        }
        return false;
    }

    // Lower and upper bounds on dimension d; false when some bound has no closed form here.
    bool bounds_of(const std::vector<RawConstraint>& constraints, const std::vector<int>& div_vars,
                   int d, DimensionBounds& bounds) {
        for (const auto& raw : constraints) {
            const std::int64_t c = raw.dims[static_cast<size_t>(d)];
            if (c == 0)
                continue;
            bool involves_dims;
            const auto rest = rest_of(raw, div_vars, d, involves_dims);
            const std::int64_t magnitude = c > 0 ? c : -c;
            if (magnitude != 1 && involves_dims)
                return false;
            auto negated = [&](bool negate) {
                std::pair<std::map<int, std::int64_t>, std::int64_t> r{rest, raw.constant};
                if (negate) {
                    for (auto& [v, x] : r.first)
                        x = -x;
                    r.second = -r.second;
                }
                return r;
            };
            // An equality c*d + r = 0 with |c| > 1 (r parameter-only) is the pair
            // c*d + r >= 0 and -c*d - r >= 0: a range of one point when c divides r, empty
            // otherwise, which the sum over [L, U] gets right (U = L - 1 sums to 0).
            if (c > 0 || raw.equality) { // c*d + r >= 0  ->  d >= ceil(-r/c) = -floor(r/c)
                auto [r, k] = negated(c < 0);
                bounds.lowers.push_back(BoundValue{r, k, magnitude, -1});
            }
            if (c < 0 || raw.equality) { // -|c|*d + r >= 0  ->  d <= floor(r/|c|)
                auto [r, k] = negated(c > 0);
                bounds.uppers.push_back(BoundValue{r, k, magnitude, 1});
            }
        }
        return !bounds.lowers.empty() && !bounds.uppers.empty(); // else unbounded
    }

    // Splits the set by which lower bound is the max and which upper bound the min, and sums
    // the count over dimension d in each piece (Faulhaber), recursing on the outer dimensions.
    void sum_over_pieces(const ::isl::basic_set& bset, const DimensionBounds& bounds, int dims,
                         const Polynomial& count, const std::vector<Guard>& guards) {
        const int d = dims - 1;
        const auto& [lowers, uppers] = bounds;
        for (size_t ju = 0; ju < uppers.size(); ++ju) {
            for (size_t jl = 0; jl < lowers.size(); ++jl) {
                ::isl::basic_set piece = bset;
                std::vector<Guard> piece_guards = guards;
                for (size_t i = 0; i < uppers.size() && ok_; ++i)
                    if (i != ju &&
                        !add_less_equal(piece, piece_guards, uppers[ju], uppers[i], i < ju))
                        ok_ = false;
                for (size_t i = 0; i < lowers.size() && ok_; ++i)
                    if (i != jl &&
                        !add_less_equal(piece, piece_guards, lowers[i], lowers[jl], i < jl))
                        ok_ = false;
                if (!ok_)
                    return;
                if (piece.is_empty())
                    continue;
                Polynomial summed = sum_over(count, dim_base + d, polynomial_of(lowers[jl]),
                                             polynomial_of(uppers[ju]));
                derive(isl::project_out(piece, isl_dim_set, d, 1), dims - 1, std::move(summed),
                       std::move(piece_guards));
                if (!ok_)
                    return;
            }
        }
    }

    // Sums `count` over the dimensions of bset, innermost first, adding pieces to form_.
    void derive(const ::isl::basic_set& input, int dims, Polynomial count,
                std::vector<Guard> guards) {
        if (!ok_)
            return;
        const ::isl::basic_set bset =
            ::isl::manage(isl_basic_set_remove_redundancies(input.copy()));
        if (bset.is_empty())
            return;
        // Existential variables that are floors of parameter expressions (divisibility of
        // the parameters) become floor atoms; any other kind has no closed form here.
        std::vector<int> div_vars;
        if (!divs_as_atoms(bset, div_vars)) {
            ok_ = false;
            return;
        }
        const auto constraints = constraints_of(bset);
        if (dims == 0) {
            record_piece(constraints, div_vars, std::move(count), std::move(guards));
            return;
        }
        if (substitute_equality(bset, constraints, div_vars, dims, count, guards))
            return;
        DimensionBounds bounds;
        if (!bounds_of(constraints, div_vars, dims - 1, bounds)) {
            ok_ = false;
            return;
        }
        sum_over_pieces(bset, bounds, dims, count, guards);
    }
};

// Existential variables that depend on set dimensions (e.g. "16*floor(c/16) <= m - 16")
// are each determined by the point, so lifting them to set dimensions keeps the count.
// They go in front (outermost): the original dimensions then have unit-coefficient bounds
// in them (16*e <= c <= 16*e + 15). nullopt when there is nothing to lift.
std::optional<::isl::set> lifted(const ::isl::set& set) {
    const ::isl::set lift = ::isl::manage(isl_set_lift(set.copy()));
    ::isl::set result = lift.flatten();
    const int original = isl::dim_count(set, isl_dim_set);
    const int total = isl::dim_count(result, isl_dim_set);
    if (total <= original)
        return std::nullopt;
    // Move the lifted dimensions to the front, one at a time (a set's dims cannot be moved
    // within the same tuple directly: go through the parameters).
    const auto params = static_cast<unsigned>(isl::dim_count(result, isl_dim_param));
    const auto extra = static_cast<unsigned>(total - original);
    result = ::isl::manage(isl_set_move_dims(result.copy(), isl_dim_param, params, isl_dim_set,
                                             static_cast<unsigned>(original), extra));
    return ::isl::manage(
        isl_set_move_dims(result.copy(), isl_dim_set, 0, isl_dim_param, params, extra));
}

std::optional<ClosedForm> derive_direct(const ::isl::set& set, int param_count) {
    const ::isl::set coalesced = set.coalesce();
    const ::isl::set disjoint = ::isl::manage(isl_set_make_disjoint(coalesced.copy()));
    if (isl::dim_count(disjoint, isl_dim_param) != param_count)
        return std::nullopt;
    std::vector<::isl::basic_set> pieces;
    disjoint.foreach_basic_set([&](::isl::basic_set bset) { pieces.push_back(bset); });
    Deriver deriver(param_count);
    for (const auto& bset : pieces)
        if (!deriver.run(bset))
            return std::nullopt;
    return deriver.take();
}

} // namespace

std::optional<ClosedForm> derive_closed_form(const ::isl::set& set, int param_count) {
    // An isl failure on the way means no closed form: the caller counts with isl instead.
    try {
        if (auto form = derive_direct(set, param_count))
            return form;
        const ::isl::set set_with_divs = set.coalesce();
        if (set_with_divs.n_basic_set() != 1)
            return std::nullopt;
        const auto lift = lifted(set_with_divs);
        if (!lift)
            return std::nullopt;
        return derive_direct(*lift, param_count);
    } catch (const ::isl::exception&) {
        return std::nullopt;
    }
}

// ---- evaluation ----------------------------------------------------------------------------

CompiledClosedForm::CompiledClosedForm(const ClosedForm& form)
    : param_count_(form.param_count), atoms_(form.atoms) {
    for (const auto& piece : form.pieces) {
        CompiledPiece compiled;
        int128 denominator = 1;
        for (const auto& [m, c] : piece.count.terms)
            denominator = denominator / gcd128(denominator, c.den) * c.den;
        compiled.denominator = denominator;
        for (const auto& [m, c] : piece.count.terms) {
            Term term;
            term.coefficient = c.num * (denominator / c.den);
            for (const auto& [var, power] : m) {
                KERNCAST_CHECK(var < dim_base, "closed form still depends on a set dimension");
                term.powers.emplace_back(var, power);
            }
            compiled.terms.push_back(std::move(term));
        }
        compiled.guards = piece.guards;
        compiled.constraints = piece.constraints;
        pieces_.push_back(std::move(compiled));
    }
}

std::int64_t CompiledClosedForm::evaluate(const std::int64_t* params) const {
    int128 values[64];
    std::vector<int128> heap;
    int128* value = values;
    const size_t n = static_cast<size_t>(param_count_) + atoms_.size();
    if (n > 64) {
        heap.resize(n);
        value = heap.data();
    }
    for (int k = 0; k < param_count_; ++k)
        value[k] = params[k];
    for (size_t a = 0; a < atoms_.size(); ++a)
        value[static_cast<size_t>(param_count_) + a] =
            support::floor_div(evaluate_affine(atoms_[a].coefficients, atoms_[a].constant, value),
                               static_cast<int128>(atoms_[a].denominator));
    int128 total = 0;
    for (const auto& piece : pieces_) {
        bool holds = true;
        for (const auto& c : piece.constraints) {
            const int128 v = evaluate_affine(c.coefficients, c.constant, value);
            if (c.equality ? v != 0 : v < 0) {
                holds = false;
                break;
            }
        }
        for (size_t g = 0; holds && g < piece.guards.size(); ++g) {
            const Guard& guard = piece.guards[g];
            holds = evaluate_bound(guard.lhs, value) + (guard.strict ? 1 : 0) <=
                    evaluate_bound(guard.rhs, value);
        }
        if (!holds)
            continue;
        // Checked: parameters near 2^63 make the powers overflow even 128 bits.
        int128 sum = 0;
        for (const auto& term : piece.terms) {
            int128 product = term.coefficient;
            for (const auto& [var, power] : term.powers)
                for (int k = 0; k < power; ++k)
                    if (__builtin_mul_overflow(product, value[var], &product))
                        throw_overflow("a count");
            if (__builtin_add_overflow(sum, product, &sum))
                throw_overflow("a count");
        }
        KERNCAST_CHECK(sum % piece.denominator == 0, "closed form is not integral");
        if (__builtin_add_overflow(total, sum / piece.denominator, &total))
            throw_overflow("a count");
    }
    if (total > std::numeric_limits<std::int64_t>::max() ||
        total < std::numeric_limits<std::int64_t>::min())
        throw_overflow("a count");
    return static_cast<std::int64_t>(total);
}

std::int64_t ClosedForm::evaluate(const std::int64_t* params) const {
    return CompiledClosedForm(*this).evaluate(params);
}

static std::string int128_text(int128 v) {
    if (v == 0)
        return "0";
    const bool negative = v < 0;
    std::string digits;
    while (v != 0) {
        int d = static_cast<int>(v % 10);
        digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
        v /= 10;
    }
    if (negative)
        digits.push_back('-');
    std::reverse(digits.begin(), digits.end());
    return digits;
}

static std::string affine_text(const std::map<int, std::int64_t>& coefficients,
                               std::int64_t constant, const std::vector<std::string>& names) {
    std::string text;
    for (const auto& [var, c] : coefficients) {
        if (c == 0)
            continue;
        const std::string name =
            var < static_cast<int>(names.size()) ? names[static_cast<size_t>(var)] : "?";
        if (text.empty())
            text += c < 0 ? "-" : "";
        else
            text += c < 0 ? " - " : " + ";
        const std::int64_t m = c < 0 ? -c : c;
        text += (m != 1 ? std::to_string(m) + "*" : "") + name;
    }
    if (text.empty())
        return std::to_string(constant);
    if (constant != 0)
        text +=
            (constant < 0 ? " - " : " + ") + std::to_string(constant < 0 ? -constant : constant);
    return text;
}

std::string ClosedForm::to_string(const std::vector<std::string>& param_names) const {
    std::vector<std::string> names = param_names;
    for (const auto& atom : atoms)
        names.push_back("floor((" + affine_text(atom.coefficients, atom.constant, names) + ")/" +
                        std::to_string(atom.denominator) + ")");
    auto polynomial_text = [&](const Polynomial& p) {
        std::string text;
        for (auto it = p.terms.rbegin(); it != p.terms.rend(); ++it) {
            const auto& [m, c] = *it;
            const bool negative = c.num < 0;
            std::string factor;
            const int128 magnitude = negative ? -c.num : c.num;
            std::string coefficient = int128_text(magnitude);
            if (c.den != 1)
                coefficient += "/" + int128_text(c.den);
            std::string monomial;
            for (const auto& [var, power] : m) {
                monomial += (monomial.empty() ? "" : "*") + names[static_cast<size_t>(var)];
                if (power > 1)
                    monomial += "^" + std::to_string(power);
            }
            if (monomial.empty())
                factor = coefficient;
            else if (coefficient == "1")
                factor = monomial;
            else
                factor = coefficient + "*" + monomial;
            if (text.empty())
                text = (negative ? "-" : "") + factor;
            else
                text += (negative ? " - " : " + ") + factor;
        }
        return text.empty() ? std::string("0") : text;
    };
    if (pieces.empty())
        return "0";
    std::string text;
    for (const auto& piece : pieces) {
        std::string conditions;
        for (const auto& c : piece.constraints)
            conditions += (conditions.empty() ? "" : " and ") +
                          affine_text(c.coefficients, c.constant, names) +
                          (c.equality ? " = 0" : " >= 0");
        for (const auto& g : piece.guards) {
            auto bound = [&](const BoundValue& b) {
                std::string t = affine_text(b.coefficients, b.constant, names);
                if (b.denominator != 1)
                    t = "floor((" + t + ")/" + std::to_string(b.denominator) + ")";
                return b.sign < 0 ? "-" + t : t;
            };
            conditions += (conditions.empty() ? "" : " and ") + bound(g.lhs) +
                          (g.strict ? " < " : " <= ") + bound(g.rhs);
        }
        const std::string body = polynomial_text(piece.count);
        if (pieces.size() == 1 && conditions.empty())
            return body;
        text += (text.empty() ? "" : "; ") + body + (conditions.empty() ? "" : " if " + conditions);
    }
    return text;
}

} // namespace kerncast::analysis::detail
