// Private: the generators kerncast provides, by family, and helpers to declare arguments.
#pragma once

#include "kerncast/uipick/generator.hpp"

#include <string>
#include <vector>

namespace kerncast::uipick {

// Microbenchmarks of sec. 7.1.2: global access patterns with AFR 1, arithmetic throughput
// per dtype and operation, shared-memory moves, barriers, empty kernels.
std::vector<Generator> measurement_generators();

// The application kernels of sec. 8 (matmul, DG differentiation, finite differences) and
// their work-removed global-access kernels (sec. 7.1.1).
std::vector<Generator> application_generators();

// An argument whose user values may be any positive integer.
VariantArgument integer_argument(const std::string& name, std::vector<std::string> defaults,
                                 const std::string& description);
// An argument whose user values must be among `allowed` (defaults: a subset of them).
VariantArgument choice_argument(const std::string& name, std::vector<std::string> defaults,
                                std::vector<std::string> allowed, const std::string& description);
// dtype: float32/float64 by default, float16 on request.
VariantArgument dtype_argument(std::vector<std::string> defaults);

std::int64_t integer_value(const VariantValues& values, const std::string& argument);

} // namespace kerncast::uipick
