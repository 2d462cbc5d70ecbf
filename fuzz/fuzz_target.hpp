// Shared by the libFuzzer targets (docs/build.md, "Fuzzing"): one input is one file's text.
// An input or usage error is the right answer to bad input; an internal error or any other
// exception is a defect, so the target aborts and libFuzzer keeps the input.
#pragma once

#include "kerncast/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace kerncast::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

template <class Parse> int run_one(Parse&& parse) {
    try {
        parse();
    } catch (const Error& e) {
        const std::string message = e.describe(); // describing must not fail either
        if (e.kind() == ErrorKind::internal) {
            std::fprintf(stderr, "fuzz: internal error on bad input:\n%s", message.c_str());
            std::abort();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: exception that is not a kerncast error: %s\n", e.what());
        std::abort();
    }
    return 0;
}

} // namespace kerncast::fuzz
