#include "kerncast/kernel/launch_text.hpp"

#include "kerncast/error.hpp"

#include <cctype>

namespace kerncast::kernel {
namespace {

std::int64_t parse_positive(const std::string& text, const std::string& option,
                            const std::string& whole) {
    try {
        size_t used = 0;
        const long long value = std::stoll(text, &used);
        if (used == text.size() && value >= 1)
            return value;
    } catch (const std::exception&) {
    }
    throw_usage_error(option + ": '" + whole +
                      "' is not a launch triple (write 32x4x4, 32,4,4, z=2 or 2z)");
}

// Each comma-separated item of `text` through `parse`.
template <class Parse> auto parse_list(const std::string& text, Parse parse) {
    std::vector<decltype(parse(text))> values;
    size_t start = 0;
    while (true) {
        const size_t end = text.find(',', start);
        values.push_back(
            parse(text.substr(start, end == std::string::npos ? std::string::npos : end - start)));
        if (end == std::string::npos)
            return values;
        start = end + 1;
    }
}

} // namespace

Dim3 parse_launch_triple(const std::string& text, const std::string& option) {
    Dim3 values{1, 1, 1};
    if (text == "none")
        return values;
    // Axis forms: "z=2", "2z".
    for (int axis = 0; axis < axis_count; ++axis) {
        const char name = "xyz"[axis];
        if (text.size() >= 3 && text[0] == name && text[1] == '=') {
            values[static_cast<size_t>(axis)] = parse_positive(text.substr(2), option, text);
            return values;
        }
        if (text.size() >= 2 && text.back() == name &&
            std::isdigit(static_cast<unsigned char>(text[0]))) {
            values[static_cast<size_t>(axis)] =
                parse_positive(text.substr(0, text.size() - 1), option, text);
            return values;
        }
    }
    const char separator = text.find('x') != std::string::npos ? 'x' : ',';
    size_t start = 0;
    for (size_t k = 0; k < values.size(); ++k) {
        const size_t end = text.find(separator, start);
        values[k] = parse_positive(
            text.substr(start, end == std::string::npos ? std::string::npos : end - start), option,
            text);
        if (end == std::string::npos)
            return values;
        start = end + 1;
    }
    throw_usage_error(option + ": '" + text + "' has more than three values");
}

std::vector<Dim3> parse_launch_triple_list(const std::string& text, const std::string& option) {
    return parse_list(text,
                      [&](const std::string& item) { return parse_launch_triple(item, option); });
}

FoldChoice parse_fold_text(const std::string& text, const std::string& option) {
    FoldChoice choice;
    const size_t colon = text.find(':');
    choice.fold = parse_launch_triple(text.substr(0, colon), option);
    if (colon == std::string::npos)
        return choice;
    const std::string word = text.substr(colon + 1);
    if (word == "strided")
        choice.placement = FoldPlacement::strided;
    else if (word == "consecutive")
        choice.placement = FoldPlacement::consecutive;
    else
        throw_usage_error(option + ": '" + text + "': the placement after ':' is 'strided' or " +
                          "'consecutive', not '" + word + "'");
    return choice;
}

std::vector<FoldChoice> parse_fold_list(const std::string& text, const std::string& option) {
    return parse_list(text, [&](const std::string& item) { return parse_fold_text(item, option); });
}

LaunchConfig with_fold(LaunchConfig launch, const FoldChoice& choice) {
    launch.fold = choice.fold;
    if (choice.placement)
        launch.fold_placement = *choice.placement;
    if (volume(launch.fold) == 1)
        launch.fold_placement = FoldPlacement::consecutive;
    return launch;
}

std::vector<std::pair<std::string, std::int64_t>>
parse_parameter_defines(const std::vector<std::string>& defines) {
    std::vector<std::pair<std::string, std::int64_t>> values;
    for (const auto& define : defines) {
        const auto equals = define.find('=');
        if (equals == std::string::npos || equals == 0)
            throw_usage_error("-D expects name=value, got '" + define + "'");
        const std::string name = define.substr(0, equals);
        const std::string text = define.substr(equals + 1);
        try {
            size_t used = 0;
            const long long value = std::stoll(text, &used);
            if (used != text.size())
                throw std::invalid_argument(text);
            values.emplace_back(name, value);
        } catch (const std::exception&) {
            throw_usage_error("-D " + name + ": '" + text + "' is not an integer");
        }
    }
    return values;
}

// "block z 128 exceeds CUDA's limit of 64" for the first axis of `sizes` over its limit, else "".
static std::string axis_limit_violation(const char* what, const Dim3& sizes, const Dim3& limits) {
    for (int a = 0; a < axis_count; ++a)
        if (sizes[static_cast<size_t>(a)] > limits[static_cast<size_t>(a)])
            return std::string(what) + " " + axis_name(a) + " " +
                   std::to_string(sizes[static_cast<size_t>(a)]) + " exceeds CUDA's limit of " +
                   std::to_string(limits[static_cast<size_t>(a)]);
    return {};
}

std::string block_limit_violation(const Dim3& block) {
    if (std::string axis =
            axis_limit_violation("block", block, {max_block_x, max_block_y, max_block_z});
        !axis.empty())
        return axis;
    const std::int64_t threads = block[0] * block[1] * block[2]; // each <= 1024: no overflow
    if (threads > max_threads_per_block)
        return std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" +
               std::to_string(block[2]) + " is " + std::to_string(threads) +
               " threads per block, over CUDA's limit of " + std::to_string(max_threads_per_block);
    return {};
}

std::string grid_limit_violation(const Dim3& grid) {
    return axis_limit_violation("grid", grid, {max_grid_x, max_grid_y, max_grid_z});
}

void check_launch_limits(const LaunchConfig& launch, const std::string& option) {
    const std::string violation = block_limit_violation(launch.block);
    if (!violation.empty())
        throw_usage_error(option + ": " + violation);
    std::int64_t points = 1;
    for (int a = 0; a < axis_count; ++a)
        if (__builtin_mul_overflow(points, launch.block[static_cast<size_t>(a)], &points) ||
            __builtin_mul_overflow(points, launch.fold[static_cast<size_t>(a)], &points))
            throw_usage_error(option + ": the block x fold product overflows 64 bits");
}

LaunchConfig override_launch(const LaunchConfig& base, const std::string& block_text,
                             const std::string& fold_text) {
    LaunchConfig launch = base;
    if (!block_text.empty())
        launch.block = parse_launch_triple(block_text, "--block");
    if (!fold_text.empty())
        launch = with_fold(launch, parse_fold_text(fold_text, "--fold"));
    check_launch_limits(launch, !block_text.empty()  ? "--block"
                                : !fold_text.empty() ? "--fold"
                                                     : "the kernel file's launch");
    return launch;
}

} // namespace kerncast::kernel
