// Validators for whole-number options whose message names the value the user gave and the
// bound, not CLI11's range up to the largest double ("--top: Value -1 not in range 0.000000 to
// 17976931348623157...").
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace kerncast::cli {

// "must be a whole number of at least 1, got '-3'" (an empty string when the text passes).
inline CLI::Validator whole_number_at_least(std::int64_t minimum) {
    return CLI::Validator(
        [minimum](std::string& text) -> std::string {
            std::size_t used = 0;
            long long value = 0;
            try {
                value = std::stoll(text, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != text.size() || value < minimum)
                return "must be a whole number of at least " + std::to_string(minimum) + ", got '" +
                       text + "'";
            return {};
        },
        "INT>=" + std::to_string(minimum));
}

} // namespace kerncast::cli
