// Research tools only, not part of kerncast's model: the published V100 stencil kernels
// (data/published/v100-warpspeed) written out by hand, independently of kerncast's kernel files
// and analysis, so that the simulations in l1_lru_sim.cpp and l2_lru_sim.cpp check the model
// rather than repeat it:
//   star: range-2 3D 13-point star, 600 x 600 x 512 doubles (or another size: `size`) with 2
//         ghost layers, array offset 14 elements, one thread per interior point (596 x 596 x
//         508), fold f consecutive z
//         points per thread; the loads of a fold instance in statement order, z-column values
//         already loaded by an earlier fold instance of the thread taken from registers (as
//         kerncast assumes, fig. 12);
//   box:  (2r+1)^2 box, 15000^2 doubles, offset -r mod 16 elements, loads row by row.
// Each fold instance ends with its store of dst. Threads outside the interior do nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace research {

using i64 = std::int64_t;

constexpr i64 line_bytes = 128;
constexpr i64 sector_bytes = 32;
constexpr i64 sectors_per_line = line_bytes / sector_bytes;

struct Kernel {
    bool star = true;
    int range = 2;
    std::array<i64, 3> block{1, 1, 1};
    i64 fold_z = 1;
    // Array elements per axis, ghost layers included (x fastest); 0: the published size
    // (600 x 600 x 512 for the star, 15000 x 15000 for the box).
    std::array<i64, 3> size{0, 0, 0};

    std::array<i64, 3> array_size() const {
        const std::array<i64, 3> published =
            star ? std::array<i64, 3>{600, 600, 512} : std::array<i64, 3>{15000, 15000, 1};
        return {size[0] > 0 ? size[0] : published[0], size[1] > 0 ? size[1] : published[1],
                size[2] > 0 ? size[2] : published[2]};
    }
    i64 ghost() const { return star ? 2 : range; }
    // Interior points per axis (z: 1 for the box).
    std::array<i64, 3> interior() const {
        const auto n = array_size();
        return {n[0] - 2 * ghost(), n[1] - 2 * ghost(), star ? n[2] - 2 * ghost() : 1};
    }
    i64 threads() const { return block[0] * block[1] * block[2]; }
};

// The kernel the two simulations' first command-line arguments name: star|box RANGE BX BY BZ
// FOLD_Z (argv[1..6]); false for a kernel name other than star or box. The caller checks the
// numbers.
inline bool kernel_from_arguments(char** argv, Kernel& k) {
    k.star = std::strcmp(argv[1], "star") == 0;
    if (!k.star && std::strcmp(argv[1], "box") != 0)
        return false;
    k.range = std::atoi(argv[2]);
    k.block = {std::atoll(argv[3]), std::atoll(argv[4]), std::atoll(argv[5])};
    k.fold_z = std::atoll(argv[6]);
    return true;
}

struct Instruction {
    std::vector<i64> sectors; // distinct 32 B sectors of the warp's lanes
    bool store = false;
};

using WarpProgram = std::vector<Instruction>;

// A cache line's hash for random set placement (both simulations place lines so: NVIDIA does
// not document the set mapping, and a modulo would tie the result to one grid's row pitch);
// splitmix64's finaliser.
inline std::uint64_t set_hash(i64 line) {
    auto z = static_cast<std::uint64_t>(line) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline i64 floor_div(i64 a, i64 b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The instructions of every warp of the block at grid position `origin` (in blocks); `points`
// receives the interior points the block computes.
inline std::vector<WarpProgram> block_programs(const Kernel& k, std::array<i64, 3> origin,
                                               i64* points = nullptr) {
    const i64 nx = k.array_size()[0], ny = k.array_size()[1];
    const i64 ghost = k.ghost();
    const auto interior = k.interior();
    const i64 offset = k.star ? 14 : (16 - k.range % 16) % 16;
    std::vector<std::array<int, 3>> loads; // (dx, dy, dz) in statement order
    if (k.star) {
        loads = {{0, 0, 0},  {-1, 0, 0}, {1, 0, 0},  {0, -1, 0}, {0, 1, 0},  {0, 0, -1}, {0, 0, 1},
                 {-2, 0, 0}, {2, 0, 0},  {0, -2, 0}, {0, 2, 0},  {0, 0, -2}, {0, 0, 2}};
    } else {
        for (int dy = -k.range; dy <= k.range; ++dy)
            for (int dx = -k.range; dx <= k.range; ++dx)
                loads.push_back({dx, dy, 0});
    }
    const i64 threads = k.threads();
    const i64 warps = (threads + 31) / 32;
    std::vector<WarpProgram> programs(static_cast<size_t>(warps));
    auto sector_of = [&](int array, i64 x, i64 y, i64 z) {
        const i64 element = (z * ny + y) * nx + x + offset;
        return (i64{array} << 40) + floor_div(element * 8, sector_bytes);
    };
    i64 computed = 0;
    auto emit = [&](int array, std::array<int, 3> d, i64 f, bool store) {
        for (i64 w = 0; w < warps; ++w) {
            Instruction instruction;
            instruction.store = store;
            for (i64 t = w * 32; t < std::min(threads, w * 32 + 32); ++t) {
                const i64 tx = t % k.block[0], ty = (t / k.block[0]) % k.block[1],
                          tz = t / (k.block[0] * k.block[1]);
                const i64 ix = origin[0] * k.block[0] + tx, iy = origin[1] * k.block[1] + ty;
                const i64 iz = k.star ? (origin[2] * k.block[2] + tz) * k.fold_z + f : 0;
                if (ix >= interior[0] || iy >= interior[1] || iz >= interior[2])
                    continue;
                if (store)
                    ++computed;
                instruction.sectors.push_back(sector_of(array, ix + ghost + d[0], iy + ghost + d[1],
                                                        k.star ? iz + ghost + d[2] : 0));
            }
            auto& s = instruction.sectors;
            std::sort(s.begin(), s.end());
            s.erase(std::unique(s.begin(), s.end()), s.end());
            programs[static_cast<size_t>(w)].push_back(std::move(instruction));
        }
    };
    std::set<i64> z_column_in_registers; // dz + f of the z-column loads done so far
    for (i64 f = 0; f < k.fold_z; ++f) {
        for (const auto& d : loads) {
            if (k.star && d[0] == 0 && d[1] == 0 && !z_column_in_registers.insert(d[2] + f).second)
                continue;
            emit(0, d, f, false);
        }
        emit(1, {0, 0, 0}, f, true);
    }
    if (points)
        *points = computed;
    return programs;
}

} // namespace research
