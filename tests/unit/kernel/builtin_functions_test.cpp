// The built-in function table: every function the kernel files accept, with its arity, CUDA
// spelling, count class and host value checked against <cmath>.
#include "kerncast/kernel/builtin_functions.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace kerncast::kernel;

TEST(BuiltinFunctions, TheLanguagesTwentyThreeFunctionsOnceEach) {
    std::set<std::string> names;
    for (const auto& function : builtin_functions())
        names.insert(std::string(function.name));
    EXPECT_EQ(names, (std::set<std::string>{"sqrt", "rsqrt", "cbrt", "exp",  "exp2",  "log",
                                            "log2", "log10", "sin",  "cos",  "tan",   "tanh",
                                            "erf",  "pow",   "abs",  "fabs", "floor", "ceil",
                                            "min",  "max",   "fmin", "fmax", "select"}));
    EXPECT_EQ(builtin_functions().size(), names.size());
    EXPECT_EQ(find_builtin_function("sum"), nullptr); // a reduction, not a function
    EXPECT_EQ(find_builtin_function("kc_wide"), nullptr);
}

TEST(BuiltinFunctions, Arity) {
    EXPECT_TRUE(find_builtin_function("sqrt")->accepts(1));
    EXPECT_FALSE(find_builtin_function("sqrt")->accepts(2));
    EXPECT_TRUE(find_builtin_function("pow")->accepts(2));
    EXPECT_FALSE(find_builtin_function("select")->accepts(2));
    EXPECT_FALSE(find_builtin_function("min")->accepts(0));
    EXPECT_TRUE(find_builtin_function("max")->accepts(5));
}

TEST(BuiltinFunctions, IntegerBehaviourAndCudaSpelling) {
    const BuiltinFunction& abs = *find_builtin_function("abs");
    const BuiltinFunction& fabs = *find_builtin_function("fabs");
    EXPECT_EQ(abs.cuda_floating, "fabs");
    EXPECT_EQ(abs.cuda_integer, "abs");
    EXPECT_EQ(fabs.cuda_integer, "abs");
    EXPECT_TRUE(abs.integer_result);
    EXPECT_FALSE(fabs.integer_result);
    EXPECT_FALSE(abs.integer_evaluation);
    EXPECT_TRUE(find_builtin_function("min")->integer_evaluation);
    EXPECT_FALSE(find_builtin_function("fmin")->integer_evaluation);
    EXPECT_EQ(find_builtin_function("rsqrt")->cuda_floating, "rsqrt");
}

TEST(BuiltinFunctions, CountClasses) {
    EXPECT_EQ(find_builtin_function("fmin")->counted_as, "min");
    EXPECT_EQ(find_builtin_function("fmax")->counted_as, "max");
    EXPECT_EQ(find_builtin_function("fabs")->counted_as, "abs");
    EXPECT_EQ(find_builtin_function("select")->counted_as, "");
    EXPECT_TRUE(find_builtin_function("max")->counts_per_extra_argument());
    EXPECT_FALSE(find_builtin_function("exp")->counts_per_extra_argument());
}

TEST(BuiltinFunctions, HostValues) {
    auto host = [](const char* name, std::vector<double> args) {
        return find_builtin_function(name)->host(args);
    };
    EXPECT_DOUBLE_EQ(host("sqrt", {2.0}), std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(host("rsqrt", {4.0}), 0.5);
    EXPECT_DOUBLE_EQ(host("cbrt", {27.0}), 3.0);
    EXPECT_DOUBLE_EQ(host("exp2", {10.0}), 1024.0);
    EXPECT_DOUBLE_EQ(host("log10", {1000.0}), 3.0);
    EXPECT_DOUBLE_EQ(host("erf", {0.5}), std::erf(0.5));
    EXPECT_DOUBLE_EQ(host("pow", {2.0, 0.5}), std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(host("abs", {-3.5}), 3.5);
    EXPECT_DOUBLE_EQ(host("floor", {-1.5}), -2.0);
    EXPECT_DOUBLE_EQ(host("ceil", {-1.5}), -1.0);
    EXPECT_DOUBLE_EQ(host("min", {3.0, -1.0, 2.0}), -1.0);
    EXPECT_DOUBLE_EQ(host("fmax", {3.0, -1.0, 7.0}), 7.0);
    EXPECT_DOUBLE_EQ(host("select", {0.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(host("select", {-1.0, 1.0, 2.0}), 1.0);
}
