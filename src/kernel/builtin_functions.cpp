#include "kerncast/kernel/builtin_functions.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kerncast::kernel {

namespace {

template <double (*F)(double)> double unary(std::span<const double> args) {
    return F(args[0]);
}

double rsqrt(double x) {
    return 1.0 / std::sqrt(x);
}

double minimum(std::span<const double> args) {
    return *std::min_element(args.begin(), args.end());
}

double maximum(std::span<const double> args) {
    return *std::max_element(args.begin(), args.end());
}

double power(std::span<const double> args) {
    return std::pow(args[0], args[1]);
}

double select(std::span<const double> args) {
    return args[0] != 0.0 ? args[1] : args[2];
}

// Plain wrappers: taking the address of a <cmath> function is unspecified.
double sqrt_(double x) {
    return std::sqrt(x);
}
double cbrt_(double x) {
    return std::cbrt(x);
}
double exp_(double x) {
    return std::exp(x);
}
double exp2_(double x) {
    return std::exp2(x);
}
double log_(double x) {
    return std::log(x);
}
double log2_(double x) {
    return std::log2(x);
}
double log10_(double x) {
    return std::log10(x);
}
double sin_(double x) {
    return std::sin(x);
}
double cos_(double x) {
    return std::cos(x);
}
double tan_(double x) {
    return std::tan(x);
}
double tanh_(double x) {
    return std::tanh(x);
}
double erf_(double x) {
    return std::erf(x);
}
double fabs_(double x) {
    return std::fabs(x);
}
double floor_(double x) {
    return std::floor(x);
}
double ceil_(double x) {
    return std::ceil(x);
}

constexpr BuiltinFunction math(std::string_view name, double (*host)(std::span<const double>)) {
    return BuiltinFunction{name, 1, 1, false, false, name, name, name, host};
}

const std::array<BuiltinFunction, 23> table = {{
    math("sqrt", unary<sqrt_>),
    math("rsqrt", unary<rsqrt>),
    math("cbrt", unary<cbrt_>),
    math("exp", unary<exp_>),
    math("exp2", unary<exp2_>),
    math("log", unary<log_>),
    math("log2", unary<log2_>),
    math("log10", unary<log10_>),
    math("sin", unary<sin_>),
    math("cos", unary<cos_>),
    math("tan", unary<tan_>),
    math("tanh", unary<tanh_>),
    math("erf", unary<erf_>),
    {"pow", 2, 2, false, false, "pow", "pow", "pow", power},
    {"abs", 1, 1, false, true, "fabs", "abs", "abs", unary<fabs_>},
    {"fabs", 1, 1, false, false, "fabs", "abs", "abs", unary<fabs_>},
    math("floor", unary<floor_>),
    math("ceil", unary<ceil_>),
    {"min", 1, -1, true, true, "min", "min", "min", minimum},
    {"max", 1, -1, true, true, "max", "max", "max", maximum},
    {"fmin", 1, -1, false, false, "fmin", "fmin", "min", minimum},
    {"fmax", 1, -1, false, false, "fmax", "fmax", "max", maximum},
    {"select", 3, 3, false, false, "", "", "", select},
}};

} // namespace

bool BuiltinFunction::accepts(size_t arguments) const {
    return arguments >= static_cast<size_t>(min_arguments) &&
           (max_arguments < 0 || arguments <= static_cast<size_t>(max_arguments));
}

std::span<const BuiltinFunction> builtin_functions() {
    return table;
}

const BuiltinFunction* find_builtin_function(std::string_view name) {
    for (const auto& function : table)
        if (function.name == name)
            return &function;
    return nullptr;
}

} // namespace kerncast::kernel
