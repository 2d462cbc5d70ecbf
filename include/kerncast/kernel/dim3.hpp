// Dim3: the one launch triple of kerncast — a CUDA dim3 in 64 bits. Element 0 is x (the
// fastest-varying axis: threadIdx.x, blockIdx.x), 1 is y, 2 is z, as in the kernel file's
// `launch: {block: [x, y, z]}` and on the command line ("32x4x4"). It holds block sizes,
// folds (points per thread), grid sizes (blocks) and block indices alike.
#pragma once

#include <array>
#include <cstdint>

namespace kerncast::kernel {

// Thread axes: 0 = x, 1 = y, 2 = z.
constexpr int axis_count = 3;

using Dim3 = std::array<std::int64_t, axis_count>;

// x * y * z: threads per block, blocks per grid, points per block x fold.
constexpr std::int64_t volume(const Dim3& d) {
    return d[0] * d[1] * d[2];
}

} // namespace kerncast::kernel
