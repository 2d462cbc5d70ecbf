// The kernel language's built-in functions, in one table: the kernel-file checks, the formula
// evaluator, the reference interpreter, the operation counts and the CUDA generator all read
// it (docs/kernel-format.md, "Expressions").
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace kerncast::kernel {

struct BuiltinFunction {
    std::string_view name;
    // Arguments accepted: min_arguments..max_arguments; max_arguments < 0 means any number
    // from min_arguments on (min, max).
    int min_arguments = 1;
    int max_arguments = 1;
    // Evaluated exactly on integers by evaluate_integer (min, max); every other function is
    // an error there.
    bool integer_evaluation = false;
    // Integer arguments give an integer result in generated code and the reference
    // interpreter (min, max, abs); the others compute in double.
    bool integer_result = false;
    // CUDA spelling for floating-point and for integer arguments ("abs" of a double is
    // "fabs", "fabs" of an int is "abs"); select has none (it prints as ?:).
    std::string_view cuda_floating;
    std::string_view cuda_integer;
    // Operation class in the counts (kernel_analysis): "min"/"max" count one operation per
    // extra argument, "" is not an operation (select), anything else counts as
    // "func:<counted_as>" once per call (fabs and abs are both "func:abs").
    std::string_view counted_as;
    // Host value in double precision (formula evaluation, the reference interpreter); `args`
    // holds an accepted number of arguments.
    double (*host)(std::span<const double> args) = nullptr;

    bool accepts(size_t arguments) const;
    bool counts_per_extra_argument() const { return counted_as == "min" || counted_as == "max"; }
};

// Every built-in function, in the order docs/kernel-format.md lists them.
std::span<const BuiltinFunction> builtin_functions();

// The entry named `name`; nullptr when there is none.
const BuiltinFunction* find_builtin_function(std::string_view name);

} // namespace kerncast::kernel
