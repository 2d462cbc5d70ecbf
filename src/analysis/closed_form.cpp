#include "closed_form.hpp"

#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <functional>
#include <limits>
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
static const std::vector<Rational>& faulhaber(int k) {
    static std::vector<std::vector<Rational>> table;
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

static int128 floor_div(int128 a, int128 b) {
    int128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
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
    return b.sign * floor_div(evaluate_affine(b.coefficients, b.constant, values), b.denominator);
}

namespace {

struct RawConstraint {
    bool equality = false;
    std::vector<std::int64_t> params;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> divs;
    std::int64_t constant = 0;
};

std::int64_t val_si(isl_val* v) {
    const std::int64_t value = isl_val_get_num_si(v);
    isl_val_free(v);
    return value;
}

std::vector<RawConstraint> constraints_of(isl_basic_set* bset) {
    std::vector<RawConstraint> result;
    const isl_size params = isl_basic_set_dim(bset, isl_dim_param);
    const isl_size dims = isl_basic_set_dim(bset, isl_dim_set);
    const isl_size divs = isl_basic_set_dim(bset, isl_dim_div);
    struct Data {
        std::vector<RawConstraint>* out;
        int params, dims, divs;
    } data{&result, static_cast<int>(params), static_cast<int>(dims), static_cast<int>(divs)};
    isl_basic_set_foreach_constraint(
        bset,
        [](isl_constraint* c, void* user) -> isl_stat {
            auto* d = static_cast<Data*>(user);
            RawConstraint raw;
            raw.equality = isl_constraint_is_equality(c) == isl_bool_true;
            for (int k = 0; k < d->params; ++k)
                raw.params.push_back(
                    val_si(isl_constraint_get_coefficient_val(c, isl_dim_param, k)));
            for (int k = 0; k < d->dims; ++k)
                raw.dims.push_back(val_si(isl_constraint_get_coefficient_val(c, isl_dim_set, k)));
            for (int k = 0; k < d->divs; ++k)
                raw.divs.push_back(val_si(isl_constraint_get_coefficient_val(c, isl_dim_div, k)));
            raw.constant = val_si(isl_constraint_get_constant_val(c));
            isl_constraint_free(c);
            d->out->push_back(std::move(raw));
            return isl_stat_ok;
        },
        &data);
    return result;
}

class Deriver {
public:
    Deriver(isl::Context& ctx, int param_count) : ctx_(ctx) { form_.param_count = param_count; }

    bool run(isl_basic_set* bset) {
        const isl_size dims = isl_basic_set_dim(bset, isl_dim_set);
        derive(isl::BasicSet(isl_basic_set_copy(bset)), static_cast<int>(dims),
               Polynomial::constant(Rational(1)), {});
        return ok_;
    }
    ClosedForm take() { return std::move(form_); }

private:
    isl::Context& ctx_;
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
    bool divs_as_atoms(isl_basic_set* bset, std::vector<int>& vars) {
        const isl_size n = isl_basic_set_dim(bset, isl_dim_div);
        if (n == 0)
            return true;
        const isl_size params = isl_basic_set_dim(bset, isl_dim_param);
        const isl_size dims = isl_basic_set_dim(bset, isl_dim_set);
        isl_local_space* space = isl_basic_set_get_local_space(bset);
        bool ok = true;
        for (int k = 0; k < n && ok; ++k) {
            isl::Aff div(isl_local_space_get_div(space, k));
            if (!div) {
                ok = false;
                break;
            }
            isl::Val den(isl_aff_get_denominator_val(div.get()));
            const std::int64_t denominator = isl_val_get_num_si(den.get());
            auto scaled = [&](isl_val* v) {
                isl::Val owned(isl_val_mul(v, isl_val_copy(den.get())));
                return isl_val_get_num_si(owned.get());
            };
            FloorAtom atom;
            atom.denominator = denominator;
            atom.constant = scaled(isl_aff_get_constant_val(div.get()));
            for (int p = 0; p < params; ++p)
                if (const std::int64_t c =
                        scaled(isl_aff_get_coefficient_val(div.get(), isl_dim_param, p)))
                    atom.coefficients[p] = c;
            for (int d = 0; d < dims; ++d)
                if (scaled(isl_aff_get_coefficient_val(div.get(), isl_dim_in, d)) != 0)
                    ok = false;
            for (int e = 0; e < k; ++e)
                if (const std::int64_t c =
                        scaled(isl_aff_get_coefficient_val(div.get(), isl_dim_div, e)))
                    atom.coefficients[vars[static_cast<size_t>(e)]] += c;
            if (denominator <= 0)
                ok = false;
            if (ok)
                vars.push_back(atom_var(atom));
        }
        isl_local_space_free(space);
        return ok;
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

    // Adds "sum coefficients*var + constant >= 0" to bset.
    static isl_basic_set* add_inequality(isl_basic_set* bset,
                                         const std::map<int, std::int64_t>& coefficients,
                                         std::int64_t constant) {
        isl_constraint* c = isl_constraint_alloc_inequality(isl_basic_set_get_local_space(bset));
        for (const auto& [var, value] : coefficients) {
            if (var >= dim_base)
                c = isl_constraint_set_coefficient_si(c, isl_dim_set, var - dim_base,
                                                      static_cast<int>(value));
            else
                c = isl_constraint_set_coefficient_si(c, isl_dim_param, var,
                                                      static_cast<int>(value));
        }
        c = isl_constraint_set_constant_si(c, static_cast<int>(constant));
        return isl_basic_set_add_constraint(bset, c);
    }

    // Records "x <= y" (x + 1 <= y when strict) as an isl constraint or a run-time guard.
    // Returns false when neither is possible exactly.
    bool add_less_equal(isl::BasicSet& bset, std::vector<Guard>& guards, BoundValue x, BoundValue y,
                        bool strict) {
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
        bset.reset(add_inequality(bset.release(), coefficients, constant));
        return true;
    }

    void derive(isl::BasicSet bset, int dims, Polynomial count, std::vector<Guard> guards) {
        if (!ok_)
            return;
        bset.reset(isl_basic_set_remove_redundancies(bset.release()));
        if (!bset) {
            ok_ = false;
            return;
        }
        if (isl_basic_set_is_empty(bset.get()) == isl_bool_true)
            return;
        // Existential variables that are floors of parameter expressions (divisibility of
        // the parameters) become floor atoms; any other kind has no closed form here.
        std::vector<int> div_vars;
        if (!divs_as_atoms(bset.get(), div_vars)) {
            ok_ = false;
            return;
        }
        auto constraints = constraints_of(bset.get());
        if (dims == 0) {
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
            return;
        }
        const int d = dims - 1;
        const int var = dim_base + d;
        auto rest_of = [&](const RawConstraint& raw, std::map<int, std::int64_t>& rest,
                           bool& involves_dims) {
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
        };
        for (const auto& raw : constraints) {
            const std::int64_t c = raw.dims[static_cast<size_t>(d)];
            if (!raw.equality || c == 0)
                continue;
            if (c != 1 && c != -1)
                continue; // param-only rest: handled below as a pair of bounds
            // c*d + rest = 0  ->  d = -c*rest
            std::map<int, std::int64_t> rest;
            bool involves_dims;
            rest_of(raw, rest, involves_dims);
            BoundValue value{rest, raw.constant, 1, static_cast<int>(-c)};
            Polynomial substituted = count.substitute(var, polynomial_of(value));
            isl::BasicSet outer(isl_basic_set_project_out(bset.release(), isl_dim_set,
                                                          static_cast<unsigned>(d), 1));
            derive(std::move(outer), dims - 1, std::move(substituted), std::move(guards));
            return;
        }
        std::vector<BoundValue> lowers, uppers;
        for (const auto& raw : constraints) {
            const std::int64_t c = raw.dims[static_cast<size_t>(d)];
            if (c == 0)
                continue;
            std::map<int, std::int64_t> rest;
            bool involves_dims;
            rest_of(raw, rest, involves_dims);
            const std::int64_t magnitude = c > 0 ? c : -c;
            if (magnitude != 1 && involves_dims) {
                ok_ = false;
                return;
            }
            // An equality c*d + r = 0 with |c| > 1 (r parameter-only) is the pair
            // c*d + r >= 0 and -c*d - r >= 0: a range of one point when c divides r, empty
            // otherwise, which the sum over [L, U] gets right (U = L - 1 sums to 0).
            if (c > 0 || raw.equality) { // c*d + r >= 0  ->  d >= ceil(-r/c) = -floor(r/c)
                std::map<int, std::int64_t> r = rest;
                std::int64_t k = raw.constant;
                if (c < 0) {
                    for (auto& [v, x] : r)
                        x = -x;
                    k = -k;
                }
                lowers.push_back(BoundValue{r, k, magnitude, -1});
            }
            if (c < 0 || raw.equality) { // -|c|*d + r >= 0  ->  d <= floor(r/|c|)
                std::map<int, std::int64_t> r = rest;
                std::int64_t k = raw.constant;
                if (c > 0) {
                    for (auto& [v, x] : r)
                        x = -x;
                    k = -k;
                }
                uppers.push_back(BoundValue{r, k, magnitude, 1});
            }
        }
        if (lowers.empty() || uppers.empty()) {
            ok_ = false; // unbounded
            return;
        }
        for (size_t ju = 0; ju < uppers.size(); ++ju) {
            for (size_t jl = 0; jl < lowers.size(); ++jl) {
                isl::BasicSet piece(isl_basic_set_copy(bset.get()));
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
                if (isl_basic_set_is_empty(piece.get()) == isl_bool_true)
                    continue;
                Polynomial summed =
                    sum_over(count, var, polynomial_of(lowers[jl]), polynomial_of(uppers[ju]));
                isl::BasicSet outer(isl_basic_set_project_out(piece.release(), isl_dim_set,
                                                              static_cast<unsigned>(d), 1));
                derive(std::move(outer), dims - 1, std::move(summed), std::move(piece_guards));
                if (!ok_)
                    return;
            }
        }
    }
};

} // namespace

static std::optional<ClosedForm> derive_direct(isl::Context& ctx, isl_set* set, int param_count);

// Existential variables that depend on set dimensions (e.g. "16*floor(c/16) <= m - 16")
// are each determined by the point, so lifting them to set dimensions keeps the count.
// They go in front (outermost): the original dimensions then have unit-coefficient bounds
// in them (16*e <= c <= 16*e + 15).
static isl::Set lifted(isl_set* set) {
    isl::Set result(isl_set_flatten(isl_set_lift(isl_set_copy(set))));
    if (!result)
        return result;
    const isl_size original = isl_set_dim(set, isl_dim_set);
    const isl_size total = isl_set_dim(result.get(), isl_dim_set);
    if (original < 0 || total <= original)
        return isl::Set();
    // Move the lifted dimensions to the front, one at a time (a set's dims cannot be moved
    // within the same tuple directly: go through the parameters).
    const isl_size params = isl_set_dim(result.get(), isl_dim_param);
    const unsigned extra = static_cast<unsigned>(total - original);
    result.reset(isl_set_move_dims(result.release(), isl_dim_param, static_cast<unsigned>(params),
                                   isl_dim_set, static_cast<unsigned>(original), extra));
    result.reset(isl_set_move_dims(result.release(), isl_dim_set, 0, isl_dim_param,
                                   static_cast<unsigned>(params), extra));
    return result;
}

std::optional<ClosedForm> derive_closed_form(isl::Context& ctx, isl_set* set, int param_count) {
    if (auto form = derive_direct(ctx, set, param_count))
        return form;
    isl::Set set_with_divs(isl_set_coalesce(isl_set_copy(set)));
    if (!set_with_divs || isl_set_n_basic_set(set_with_divs.get()) != 1)
        return std::nullopt;
    isl::Set lift = lifted(set_with_divs.get());
    if (!lift)
        return std::nullopt;
    return derive_direct(ctx, lift.get(), param_count);
}

static std::optional<ClosedForm> derive_direct(isl::Context& ctx, isl_set* set, int param_count) {
    isl::Set disjoint(isl_set_make_disjoint(isl_set_coalesce(isl_set_copy(set))));
    if (!disjoint)
        return std::nullopt;
    if (isl_set_dim(disjoint.get(), isl_dim_param) != param_count)
        return std::nullopt;
    Deriver deriver(ctx, param_count);
    struct Data {
        Deriver* deriver;
        bool ok;
    } data{&deriver, true};
    isl_set_foreach_basic_set(
        disjoint.get(),
        [](isl_basic_set* bset, void* user) -> isl_stat {
            auto* d = static_cast<Data*>(user);
            if (d->ok && !d->deriver->run(bset))
                d->ok = false;
            isl_basic_set_free(bset);
            return isl_stat_ok;
        },
        &data);
    if (!data.ok)
        return std::nullopt;
    return deriver.take();
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
            floor_div(evaluate_affine(atoms_[a].coefficients, atoms_[a].constant, value),
                      atoms_[a].denominator);
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
