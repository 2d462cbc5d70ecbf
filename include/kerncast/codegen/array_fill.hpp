// Array fills of a kernel-file run (`kerncast run KERNEL --fill NAME=V1,V2,...`,
// docs/gpu-runtime.md, "Inputs"): a global or constant array whose elements, row-major from
// its first, repeat the given values instead of the deterministic hash. The atomics case study
// fills its solid image this way (image[p, c] = c, docs/atomics.md).
#pragma once

#include "kerncast/codegen/schedule.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kerncast::codegen {

struct ArrayFill {
    std::string array;
    std::vector<std::string> values; // as typed; read in the array's element type
    bool operator==(const ArrayFill&) const = default;
};

// "NAME=V1,V2,..." (at least one value). Usage error otherwise.
ArrayFill parse_array_fill(std::string_view text);
std::string to_string(const ArrayFill& fill); // the same form

// The buffer pattern of the fill: each value in the array's element type (integers range-
// checked, f16 rounded to binary16), little-endian, rotated so that the array's first element
// (after its alignment offset) starts the period. Input errors name the array: not a global or
// constant array of the kernel, a value its type cannot hold, a period over
// runtime::max_pattern_bytes.
std::vector<std::uint8_t> fill_pattern(const Schedule& schedule, const ArrayFill& fill);

// Sets the buffer or __constant__ symbol behind fill.array in `request` to the fill's pattern.
void apply_array_fill(const Schedule& schedule, const ArrayFill& fill,
                      runtime::TimingRequest& request);

// The solid input of an atomics case study (Dong & Pai sec. 4; docs/atomics.md): every global
// array of integers the kernel only reads holds its innermost subscript, element [..., k] = k
// (histogram's image[p, c] = c), the value the static forecast's solid input gives an array
// read into an atomic's address. Arrays whose innermost extent the type cannot count are
// refused.
std::vector<ArrayFill> solid_input_fills(const Schedule& schedule);

} // namespace kerncast::codegen
