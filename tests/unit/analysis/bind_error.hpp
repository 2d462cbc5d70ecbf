// The analysis tests' look at analysis::bind's refusals: the input Error it raises for a kernel
// at a launch, checked to be an input error naming the kernel file.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"

#include <gtest/gtest.h>
#include <optional>
#include <string>

namespace kerncast::analysis::testing {

// The Error bind raises; nullopt when the launch binds.
inline std::optional<Error> bind_failure(const kernel::KernelSpec& spec,
                                         const kernel::LaunchConfig& launch,
                                         const kernel::ParameterOverrides& overrides = {}) {
    try {
        (void)analysis::bind(analyze(spec, launch), overrides);
        return std::nullopt;
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.where().file, spec.file);
        return error;
    }
}

// Its message, "" when the launch binds.
inline std::string bind_error(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                              const kernel::ParameterOverrides& overrides = {}) {
    const auto failure = bind_failure(spec, launch, overrides);
    return failure ? failure->message() : std::string();
}

} // namespace kerncast::analysis::testing
