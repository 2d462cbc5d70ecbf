// Brute-force oracle for the isl footprints of block sets (Ernst et al. 2023, sec. 4.4.1):
// random small stencil-like kernels, block sizes, foldings, alignments and block ranges; every
// thread of the set is enumerated explicitly and its accesses' sectors/lines counted.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/volumes/wave_footprint.hpp"

#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

using namespace kerncast;
using namespace kerncast::models;

namespace {

TEST(BlockBoxes, CoverExactlyTheRangeInLaunchOrder) {
    std::mt19937 random(3);
    for (int trial = 0; trial < 300; ++trial) {
        const kernel::Dim3 grid{std::uniform_int_distribution<std::int64_t>(1, 7)(random),
                                std::uniform_int_distribution<std::int64_t>(1, 6)(random),
                                std::uniform_int_distribution<std::int64_t>(1, 5)(random)};
        const std::int64_t total = grid[0] * grid[1] * grid[2];
        std::int64_t first = std::uniform_int_distribution<std::int64_t>(0, total)(random);
        std::int64_t end = std::uniform_int_distribution<std::int64_t>(0, total)(random);
        if (first > end)
            std::swap(first, end);
        const auto boxes = block_boxes(first, end, grid);
        EXPECT_LE(boxes.size(), 5u);
        std::multiset<std::int64_t> ids;
        for (const auto& box : boxes)
            for (std::int64_t z = box.first[2]; z < box.end[2]; ++z)
                for (std::int64_t y = box.first[1]; y < box.end[1]; ++y)
                    for (std::int64_t x = box.first[0]; x < box.end[0]; ++x)
                        ids.insert(x + grid[0] * (y + grid[1] * z));
        std::multiset<std::int64_t> expected;
        for (std::int64_t id = first; id < end; ++id)
            expected.insert(id);
        EXPECT_EQ(ids, expected) << "grid " << grid[0] << "x" << grid[1] << "x" << grid[2] << " ["
                                 << first << ", " << end << ")";
    }
}

struct Access {
    int array = 0;                     // 0: a (f64), 1: b (f32), 2: out (f64, stored)
    std::array<int, 3> shift{0, 0, 0}; // z, y, x
};

struct RandomKernel {
    std::int64_t nx = 0, ny = 0, nz = 0, halo = 3; // x keeps 8 at the top: rows never wrap
    std::array<std::int64_t, 3> offset{0, 0, 0};   // per array, elements
    std::vector<Access> accesses;
    kernel::LaunchConfig launch;
    std::string yaml;
};

RandomKernel make_kernel(std::mt19937& random) {
    RandomKernel k;
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(random);
    };
    k.nx = 32 * pick(1, 2);
    k.ny = pick(8, 20);
    k.nz = pick(8, 14);
    for (auto& o : k.offset)
        o = pick(0, 5);
    const int loads = static_cast<int>(pick(1, 6));
    for (int n = 0; n < loads; ++n)
        k.accesses.push_back({static_cast<int>(pick(0, 1)),
                              {static_cast<int>(pick(-3, 3)), static_cast<int>(pick(-3, 3)),
                               static_cast<int>(pick(-3, 3))}});
    const std::array<std::int64_t, 3> choices{1, 2, 4};
    std::int64_t threads = 1;
    for (size_t a = 0; a < 3; ++a) {
        k.launch.block[a] = std::int64_t{1} << pick(0, a == 0 ? 5 : 3);
        threads *= k.launch.block[a];
        k.launch.fold[a] = choices[static_cast<size_t>(pick(0, 2))];
    }
    if (threads > 256)
        k.launch.block[0] = 1;
    if (pick(0, 1) == 1)
        k.launch.fold_placement = kernel::FoldPlacement::strided;
    std::string rhs;
    const char* names[] = {"a", "b"};
    for (const auto& access : k.accesses)
        rhs += fmt::format("{}{}[z + {}, y + {}, x + {}]", rhs.empty() ? "" : " + ",
                           names[access.array], access.shift[0], access.shift[1], access.shift[2]);
    const std::array<int, 3> store_shift{0, static_cast<int>(pick(0, 1)),
                                         static_cast<int>(pick(-1, 1))};
    k.accesses.push_back({2, store_shift});
    k.yaml = fmt::format(R"(name: random
params: {{nx: {}, ny: {}, nz: {}}}
arrays:
  a: {{dtype: f64, shape: [nz, ny, nx], offset: {}}}
  b: {{dtype: f32, shape: [nz, ny, nx], offset: {}}}
  out: {{dtype: f64, shape: [nz, ny, nx], offset: {}}}
domain: "[nx, ny, nz] -> {{ [z, y, x] : 3 <= x < nx - 8 and 3 <= y < ny - 3 and 3 <= z < nz - 3 }}"
threads: {{x: x, y: y, z: z}}
statements:
  - "out[z + {}, y + {}, x + {}] = {}"
)",
                         k.nx, k.ny, k.nz, k.offset[0], k.offset[1], k.offset[2], store_shift[0],
                         store_shift[1], store_shift[2], rhs);
    return k;
}

// Granules of every array touched by the blocks [first, end), by explicit enumeration of
// every thread and fold instance; index 3 holds partly written granules of `out`.
struct Oracle {
    std::array<std::set<std::int64_t>, 3> loads, stores;
    std::set<std::int64_t> written_elements;
    std::int64_t points = 0;
};

Oracle brute_force(const RandomKernel& k, const kernel::Dim3& grid, std::int64_t first,
                   std::int64_t end, std::int64_t granule) {
    Oracle o;
    const std::array<int, 3> bytes{8, 4, 8};
    const std::array<std::int64_t, 3> n{k.nx, k.ny, k.nz}; // x, y, z
    const auto& B = k.launch.block;
    const auto& F = k.launch.fold;
    for (std::int64_t id = first; id < end; ++id) {
        const kernel::Dim3 b{id % grid[0], (id / grid[0]) % grid[1], id / (grid[0] * grid[1])};
        for (std::int64_t tz = 0; tz < B[2]; ++tz)
            for (std::int64_t ty = 0; ty < B[1]; ++ty)
                for (std::int64_t tx = 0; tx < B[0]; ++tx)
                    for (std::int64_t fz = 0; fz < F[2]; ++fz)
                        for (std::int64_t fy = 0; fy < F[1]; ++fy)
                            for (std::int64_t fx = 0; fx < F[0]; ++fx) {
                                const std::array<std::int64_t, 3> t{tx, ty, tz}, f{fx, fy, fz};
                                std::array<std::int64_t, 3> index{};
                                bool inside = true;
                                for (size_t a = 0; a < 3; ++a) {
                                    index[a] =
                                        k.halo + b[a] * B[a] * F[a] +
                                        (k.launch.fold_placement == kernel::FoldPlacement::strided
                                             ? f[a] * B[a] + t[a]
                                             : t[a] * F[a] + f[a]);
                                    inside = inside && index[a] < n[a] - (a == 0 ? 8 : k.halo);
                                }
                                if (!inside)
                                    continue;
                                ++o.points;
                                for (const auto& access : k.accesses) {
                                    const std::int64_t element =
                                        ((index[2] + access.shift[0]) * k.ny + index[1] +
                                         access.shift[1]) *
                                            k.nx +
                                        index[0] + access.shift[2] +
                                        k.offset[static_cast<size_t>(access.array)];
                                    const std::int64_t g =
                                        element * bytes[static_cast<size_t>(access.array)] /
                                        granule;
                                    if (access.array == 2) {
                                        o.stores[2].insert(g);
                                        o.written_elements.insert(element);
                                    } else {
                                        o.loads[static_cast<size_t>(access.array)].insert(g);
                                    }
                                }
                            }
    }
    return o;
}

std::int64_t partial_granules(const Oracle& o, std::int64_t granule) {
    std::int64_t partial = 0;
    for (const std::int64_t g : o.stores[2]) {
        bool full = true;
        for (std::int64_t e = g * granule / 8; e < (g + 1) * granule / 8; ++e)
            full = full && o.written_elements.count(e) > 0;
        partial += full ? 0 : 1;
    }
    return partial;
}

class WaveFootprintOracle : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(WaveFootprintOracle, RandomKernelsAgreeExactlyWithEnumeration) {
    const auto [linear, isl_only] = GetParam();
    std::mt19937 random(linear ? 11 : 29);
    for (int trial = 0; trial < 40; ++trial) {
        const RandomKernel k = make_kernel(random);
        const auto spec = kernel::parse_kernel_text(k.yaml, "random.yaml");
        const auto analysis = analysis::analyze(spec, k.launch);
        const auto params = analysis::bind(analysis).values();
        const WaveFootprints footprints(analysis, params, 128, linear, isl_only);
        for (size_t array = 0; array < footprints.arrays().size(); ++array)
            ASSERT_EQ(footprints.counts_boxes(array), !isl_only) << k.yaml;
        const kernel::Dim3 grid = footprints.grid();
        for (size_t a = 0; a < 3; ++a)
            ASSERT_EQ(grid[a], (std::array{k.nx, k.ny, k.nz}[a] - k.halo - (a == 0 ? 8 : k.halo) +
                                k.launch.block[a] * k.launch.fold[a] - 1) /
                                   (k.launch.block[a] * k.launch.fold[a]));
        const std::int64_t total = grid[0] * grid[1] * grid[2];
        std::int64_t first = std::uniform_int_distribution<std::int64_t>(0, total - 1)(random);
        std::int64_t end = std::uniform_int_distribution<std::int64_t>(first + 1, total)(random);
        const auto boxes = block_boxes(first, end, grid);
        // A second, earlier range for the shared (layer-overlap) count.
        const std::int64_t earlier = std::uniform_int_distribution<std::int64_t>(0, first)(random);
        const auto earlier_boxes = block_boxes(earlier, first, grid);
        const std::string what = fmt::format(
            "trial {} block {}x{}x{} fold {} blocks [{}, {})\n{}", trial, k.launch.block[0],
            k.launch.block[1], k.launch.block[2], kernel::fold_text(k.launch), first, end, k.yaml);
        for (const std::int64_t granule : {32, 128}) {
            const Oracle o = brute_force(k, grid, first, end, granule);
            const Oracle before = brute_force(k, grid, earlier, first, granule);
            EXPECT_EQ(footprints.points(boxes), o.points) << what;
            for (size_t array = 0; array < footprints.arrays().size(); ++array) {
                const std::string& name = footprints.arrays()[array].name;
                const size_t slot = name == "a" ? 0 : name == "b" ? 1 : 2;
                const auto& expected = slot == 2 ? o.stores[2] : o.loads[slot];
                const AccessFilter filter = slot == 2 ? AccessFilter::stores : AccessFilter::loads;
                EXPECT_EQ(footprints.count(array, boxes, granule, filter),
                          static_cast<std::int64_t>(expected.size()))
                    << name << " granule " << granule << " " << what;
                EXPECT_EQ(footprints.count(array, boxes, granule, AccessFilter::all),
                          static_cast<std::int64_t>(expected.size()))
                    << what;
                const auto& previous = slot == 2 ? before.stores[2] : before.loads[slot];
                std::int64_t shared = 0;
                for (const auto g : expected)
                    shared += previous.count(g) ? 1 : 0;
                EXPECT_EQ(footprints.count_shared(array, boxes, earlier_boxes, granule, filter),
                          shared)
                    << name << " shared, granule " << granule << " " << what;
                if (slot == 2) {
                    EXPECT_EQ(footprints.partial_store_granules(array, boxes, granule),
                              partial_granules(o, granule))
                        << "partial, granule " << granule << " " << what;
                }
            }
        }
    }
}

// A wave of the published star (13 loads, 40 blocks of 32x4x2: 4,160 row intervals of linear
// addresses) is large enough for the interval sort's radix path; isl counts the same
// footprints without boxes.
TEST(WaveFootprints, LargeWavesCountTheSameWithBoxesAndWithIsl) {
    std::ifstream file(std::string(KERNCAST_SOURCE_DIR) +
                       "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    std::stringstream text;
    text << file.rdbuf();
    const auto spec = kernel::parse_kernel_text(text.str(), "star3d_r2.yaml");
    const auto analysis = analysis::analyze(spec, {{32, 4, 2}, {1, 1, 1}});
    const auto params = analysis::bind(analysis).values();
    for (const bool linear : {true, false}) {
        const WaveFootprints boxes(analysis, params, 128, linear, false);
        const WaveFootprints isl(analysis, params, 128, linear, true);
        ASSERT_TRUE(boxes.counts_boxes(0) && !isl.counts_boxes(0));
        const auto wave = block_boxes(1000, 1040, boxes.grid());
        const auto earlier = block_boxes(980, 1020, boxes.grid());
        for (size_t array = 0; array < boxes.arrays().size(); ++array)
            for (const std::int64_t granule : {32, 128}) {
                const std::string what = fmt::format("{} granule {}{}", boxes.arrays()[array].name,
                                                     granule, linear ? " linear" : " rows");
                const std::int64_t count = boxes.count(array, wave, granule, AccessFilter::all);
                EXPECT_EQ(count, isl.count(array, wave, granule, AccessFilter::all)) << what;
                EXPECT_GT(count, 500) << what;
                EXPECT_EQ(boxes.count_shared(array, wave, earlier, granule, AccessFilter::all),
                          isl.count_shared(array, wave, earlier, granule, AccessFilter::all))
                    << what;
                EXPECT_EQ(boxes.partial_store_granules(array, wave, granule),
                          isl.partial_store_granules(array, wave, granule))
                    << what;
            }
    }
}

// Accesses are merged into fewer boxes before their rows are enumerated (shifted copies of one
// box: the 25 loads of a range-2 box stencil become one); isl counts every access on its own.
// Waves of one block, inside a row of blocks, of whole rows, and up to the grid's edge.
void expect_boxes_count_what_isl_counts(const std::string& yaml,
                                        const std::vector<kernel::LaunchConfig>& launches,
                                        std::int64_t nx = 1000, std::int64_t ny = 200) {
    const auto spec = kernel::parse_kernel_text(yaml, "kernel.yaml");
    for (const kernel::LaunchConfig& launch : launches) {
        const auto analysis = analysis::analyze(spec, launch);
        // A small domain: isl stays quick.
        const auto params = analysis::bind(analysis, {{"nx", nx}, {"ny", ny}}).values();
        for (const bool linear : {true, false}) {
            const WaveFootprints boxes(analysis, params, 128, linear, false);
            const WaveFootprints isl(analysis, params, 128, linear, true);
            ASSERT_TRUE(boxes.counts_boxes(0) && !isl.counts_boxes(0));
            const kernel::Dim3 grid = boxes.grid();
            const std::int64_t total = grid[0] * grid[1] * grid[2];
            for (const auto& [first, end] : {std::pair<std::int64_t, std::int64_t>{5, 6},
                                             {3, 40},
                                             {grid[0] / 2, grid[0] * 3 + 5},

                                             {total - grid[0] - 7, total}}) {
                const auto wave = block_boxes(first, end, grid);
                const auto earlier =
                    block_boxes(std::max<std::int64_t>(0, first - 30), first, grid);
                for (size_t array = 0; array < boxes.arrays().size(); ++array)
                    for (const std::int64_t granule : {32, 128}) {
                        const std::string what =
                            fmt::format("{} block {}x{} fold y={} {} granule {} blocks [{}, {}){}",
                                        spec.name, launch.block[0], launch.block[1], launch.fold[1],
                                        boxes.arrays()[array].name, granule, first, end,
                                        linear ? " linear" : " rows");
                        EXPECT_EQ(boxes.count(array, wave, granule, AccessFilter::all),
                                  isl.count(array, wave, granule, AccessFilter::all))
                            << what;
                        EXPECT_EQ(
                            boxes.count_shared(array, wave, earlier, granule, AccessFilter::all),
                            isl.count_shared(array, wave, earlier, granule, AccessFilter::all))
                            << what;
                    }
            }
        }
    }
}

TEST(WaveFootprints, MergedStencilAccessesCountWhatIslCounts) {
    std::ifstream file(std::string(KERNCAST_SOURCE_DIR) +
                       "/data/published/v100-warpspeed/kernels/box2d_r2.yaml");
    std::stringstream text;
    text << file.rdbuf();
    expect_boxes_count_what_isl_counts(
        text.str(), {{{32, 8, 1}, {1, 1, 1}}, {{4, 16, 1}, {1, 2, 1}}, {{1, 64, 1}, {1, 1, 1}}});
}

// A convolution's loads add the filter's row and column to the pixel (src[y - i + 4, x + j]):
// each block's box widens by the filter's extent, and a global filter w[i, j] is one box of
// its own. Under consecutive and strided (block-cyclic) folds.
TEST(WaveFootprints, FilterLoopsWidenTheBoxesToWhatIslCounts) {
    const char* yaml = R"yaml(name: conv
params: {nx: 1000, ny: 200, fw: 5, fh: 3}
arrays:
  src: {dtype: f32, shape: [ny + 4, nx + fw]}
  w: {dtype: f32, shape: [fh, fw]}
  dst: {dtype: f32, shape: [ny, nx]}
domain: "[nx, ny, fw, fh] -> { [y, x, i, j] : 0 <= y < ny and 0 <= x < nx and 0 <= i < fh and 0 <= j < fw }"
threads: {x: x, y: y}
statements:
  - "dst[y, x] = sum(i, sum(j, src[y - i + 4, x + j] * w[i, j]))"
)yaml";
    expect_boxes_count_what_isl_counts(yaml,
                                       {{{32, 8, 1}, {1, 1, 1}},
                                        {{16, 4, 1}, {2, 2, 1}},
                                        {{16, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided},
                                        {{64, 1, 1}, {4, 1, 1}, kernel::FoldPlacement::strided}});
    // Every array is on the box path (the loads add the filter's range, `w` is the range alone).
    const auto spec = kernel::parse_kernel_text(yaml, "conv.yaml");
    const auto analysis = analysis::analyze(spec, {{32, 8, 1}, {1, 1, 1}});
    const WaveFootprints boxes(analysis, analysis::bind(analysis).values(), 128, false, false);
    ASSERT_EQ(boxes.arrays().size(), 3u);
    for (size_t array = 0; array < boxes.arrays().size(); ++array)
        EXPECT_TRUE(boxes.counts_boxes(array)) << boxes.arrays()[array].name;
}

// A staged array's load (`stage: shared`) reads each block's tile: a box of blocks holds the
// union of its blocks' tiles, and where blocks do not tile the domain and are staged whole,
// the last block's tile is clipped to the array while the kernel file's statement, guarded by
// its domain's bound, keeps to the domain's box. Blocks that tile the domain, blocks staged
// whole along x, along y and both, consecutive and strided folds.
TEST(WaveFootprints, StagedTilesCountWhatIslCounts) {
    const char* yaml = R"yaml(name: staged
params: {nx: 1000, ny: 200}
arrays:
  src: {dtype: f32, shape: [ny + 2, nx + 2], stage: shared}
  dst: {dtype: f32, shape: [ny, nx]}
domain: "[nx, ny] -> { [y, x] : 0 <= y < ny and 0 <= x < nx }"
threads: {x: x, y: y}
statements:
  - "dst[y, x] = src[y, x + 1] + src[y + 2, x + 1] + src[y + 1, x] + src[y + 1, x + 2]"
)yaml";
    const std::vector<kernel::LaunchConfig> launches{
        {{40, 4, 1}, {1, 1, 1}},
        {{32, 8, 1}, {1, 1, 1}},
        {{40, 6, 1}, {1, 1, 1}},
        {{48, 2, 1}, {2, 3, 1}, kernel::FoldPlacement::strided},
        {{16, 4, 1}, {2, 2, 1}}};
    expect_boxes_count_what_isl_counts(yaml, launches);
    // A domain inside its array's halo: block 0's tile starts at the domain's first point less
    // the halo, and the last blocks' tiles, staged whole, are clipped at the array's end.
    expect_boxes_count_what_isl_counts(R"yaml(name: staged_halo
params: {nx: 1000, ny: 200}
arrays:
  src: {dtype: f32, shape: [ny, nx], stage: shared}
  dst: {dtype: f32, shape: [ny, nx]}
domain: "[nx, ny] -> { [y, x] : 1 <= y < ny - 1 and 1 <= x < nx - 1 }"
threads: {x: x, y: y}
statements:
  - "dst[y, x] = src[y - 1, x] + src[y + 1, x] + src[y, x - 1] + src[y, x + 1]"
)yaml",
                                       launches);
    const auto spec = kernel::parse_kernel_text(yaml, "staged.yaml");
    for (const kernel::LaunchConfig& launch : launches) {
        const auto analysis = analysis::analyze(spec, launch);
        const WaveFootprints boxes(analysis, analysis::bind(analysis).values(), 128, false, false);
        ASSERT_EQ(boxes.arrays().size(), 2u);
        for (size_t array = 0; array < boxes.arrays().size(); ++array)
            EXPECT_TRUE(boxes.counts_boxes(array)) << boxes.arrays()[array].name << " at block "
                                                   << launch.block[0] << "x" << launch.block[1];
    }
}

// Random staged stencils: reads within a halo of 2, domains that leave a random border, blocks
// and folds (either placement) that tile the domain or not. The boxes of every array (the
// staging load's tiles, the guarded store) count what isl counts, for random block ranges and
// the ranges before them.
TEST(WaveFootprints, RandomStagedKernelsCountWithBoxesWhatIslCounts) {
    std::mt19937 random(7);
    const auto pick = [&](std::int64_t low, std::int64_t high) {
        return std::uniform_int_distribution<std::int64_t>(low, high)(random);
    };
    int checked = 0;
    for (int trial = 0; trial < 30; ++trial) {
        const std::int64_t nx = pick(40, 130), ny = pick(10, 40);
        const std::int64_t x0 = pick(2, 4), y0 = pick(2, 4);
        std::string reads;
        for (int r = 0, n = static_cast<int>(pick(1, 4)); r < n; ++r)
            reads += fmt::format("{}src[y + {}, x + {}]", r ? " + " : "", pick(-2, 2), pick(-2, 2));
        const std::string yaml = fmt::format(
            "name: staged\nparams: {{nx: {0}, ny: {1}}}\narrays:\n"
            "  src: {{dtype: f32, shape: [ny, nx], stage: shared}}\n"
            "  dst: {{dtype: f32, shape: [ny, nx]}}\n"
            "domain: \"[nx, ny] -> {{ [y, x] : {2} <= y < ny - 2 and {3} <= x < nx - 2 }}\"\n"
            "threads: {{x: x, y: y}}\nstatements:\n  - \"dst[y, x] = {4}\"\n",
            nx, ny, y0, x0, reads);
        const kernel::LaunchConfig launch{
            {std::array<std::int64_t, 7>{1, 2, 4, 8, 16, 32, 48}[static_cast<size_t>(pick(0, 6))],
             pick(1, 4), 1},
            {pick(1, 3), pick(1, 2), 1},
            pick(0, 1) ? kernel::FoldPlacement::strided : kernel::FoldPlacement::consecutive};
        const auto spec = kernel::parse_kernel_text(yaml, "staged.yaml");
        std::optional<analysis::KernelAnalysis> analysis;
        try {
            analysis.emplace(analysis::analyze(spec, launch));
        } catch (const Error&) {
            continue; // a fold larger than the domain
        }
        const auto params = analysis::bind(*analysis).values();
        const WaveFootprints boxes(*analysis, params, 128, false, false);
        const WaveFootprints isl(*analysis, params, 128, false, true);
        const kernel::Dim3 grid = boxes.grid();
        const std::int64_t total = grid[0] * grid[1] * grid[2];
        const std::int64_t first = pick(0, total - 1), end = pick(first + 1, total);
        const auto wave = block_boxes(first, end, grid);
        const auto earlier = block_boxes(pick(0, first), first, grid);
        const std::string what =
            fmt::format("block {}x{} fold {} blocks [{}, {})\n{}", launch.block[0], launch.block[1],
                        kernel::fold_text(launch), first, end, yaml);
        for (size_t array = 0; array < boxes.arrays().size(); ++array) {
            EXPECT_TRUE(boxes.counts_boxes(array)) << boxes.arrays()[array].name << " " << what;
            for (const std::int64_t granule : {32, 128}) {
                EXPECT_EQ(boxes.count(array, wave, granule, AccessFilter::all),
                          isl.count(array, wave, granule, AccessFilter::all))
                    << boxes.arrays()[array].name << " granule " << granule << " " << what;
                EXPECT_EQ(boxes.count_shared(array, wave, earlier, granule, AccessFilter::all),
                          isl.count_shared(array, wave, earlier, granule, AccessFilter::all))
                    << boxes.arrays()[array].name << " shared, granule " << granule << " " << what;
            }
        }
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

// An RGB image stored pixel by pixel ([ny, nx, 3], hk_sepia's layout): a box that spans all
// three channels is one interval per row of pixels, and one per block of whole rows where it
// spans every pixel of them (a layer of a full row of tall blocks made millions of intervals,
// one per pixel, and took 17 s); one that reads two channels keeps one per pixel. Exact either
// way.
TEST(WaveFootprints, WholeInnerDimensionsCountAsOneRunWhatIslCounts) {
    for (const char* reads :
         {"img[y, x, 0] + img[y, x, 1] + img[y, x, 2]", "img[y, x, 0] + img[y, x, 2]"})
        expect_boxes_count_what_isl_counts(
            fmt::format(R"(name: rgb
params: {{nx: 1000, ny: 200}}
arrays:
  img: {{dtype: f32, shape: [ny, nx, 3]}}
  out: {{dtype: f32, shape: [ny, nx, 3]}}
domain: "[nx, ny] -> {{ [y, x] : 0 <= x < nx and 0 <= y < ny }}"
threads: {{x: x, y: y}}
launch: {{block: [2, 64]}}
statements:
  - "out[y, x, 1] = {}"
)",
                        reads),
            {{{2, 64, 1}, {1, 1, 1}}, {{1, 128, 1}, {1, 1, 1}}, {{1000, 1, 1}, {1, 1, 1}}});
}

// Two of three channels of an f32 image (a 4-byte gap a pixel, less than a sector) are one run
// of sectors a row of pixels; two of eight f64 channels (a 48-byte gap) one run of 128 B lines
// but one run of sectors a pixel (a sector can fall in the gap). Tall narrow blocks made one
// interval a pixel at every granule: 3.7 s and 300 MB for one prediction of a 1x1024 block of
// hk_sepia with its third channel left out. Exact: the same counts as isl.
TEST(WaveFootprints, ChannelsWithGapsShorterThanAGranuleAreOneRunWhatIslCounts) {
    for (const char* layout : {"f32, shape: [ny, nx, 3]", "f64, shape: [ny, nx, 8]"})
        expect_boxes_count_what_isl_counts(
            fmt::format(R"(name: channels
params: {{nx: 1000, ny: 200}}
arrays:
  img: {{dtype: {}}}
  out: {{dtype: {}}}
domain: "[nx, ny] -> {{ [y, x] : 0 <= x < nx and 0 <= y < ny }}"
threads: {{x: x, y: y}}
launch: {{block: [1, 128]}}
statements:
  - "out[y, x, 0] = img[y, x, 0] + img[y, x, 1]"
  - "out[y, x, 1] = img[y, x, 1]"
)",
                        layout, layout),
            {{{1, 128, 1}, {1, 1, 1}}, {{2, 64, 1}, {1, 1, 1}}, {{32, 4, 1}, {1, 1, 1}}});
}

// A 5-point stencil on each channel of an RGB image (hk_linear has the 3x3 one): its boxes
// merge channel by channel and then across channels (a greedy merge of hk_linear's 27 loads at
// once left 18 pieces, one interval per pixel: 43 s and 1.5 GB for one prediction of a 2x512
// block). Exact.
TEST(WaveFootprints, ChannelsOfAStencilMergeIntoOneBoxWhatIslCounts) {
    std::string statements;
    for (int c = 0; c < 3; ++c) {
        std::string sum;
        for (const auto& [dy, dx] : {std::pair{0, -1}, {0, 0}, {0, 1}, {-1, 0}, {1, 0}})
            sum += fmt::format("{}img[y + {}, x + {}, {}]", sum.empty() ? "" : " + ", dy, dx, c);
        statements += fmt::format("  - \"out[y, x, {}] = {}\"\n", c, sum);
    }
    expect_boxes_count_what_isl_counts(fmt::format(R"(name: rgb_mean
params: {{nx: 1000, ny: 200}}
arrays:
  img: {{dtype: f32, shape: [ny, nx, 3]}}
  out: {{dtype: f32, shape: [ny, nx, 3]}}
domain: "[nx, ny] -> {{ [y, x] : 1 <= x < nx - 1 and 1 <= y < ny - 1 }}"
threads: {{x: x, y: y}}
launch: {{block: [2, 64]}}
statements:
{})",
                                                   statements),
                                       {{{2, 64, 1}, {1, 1, 1}}}, 400, 150);
}

// Boxes a row or 9 elements apart do not merge: the gap between them is not touched.
TEST(WaveFootprints, AccessesWithAGapBetweenThemStayApart) {
    expect_boxes_count_what_isl_counts(R"(name: gaps
params: {nx: 1000, ny: 200}
arrays:
  src: {dtype: f64, shape: [ny, nx]}
  dst: {dtype: f64, shape: [ny, nx]}
domain: "[nx, ny] -> { [y, x] : 0 <= x < nx - 20 and 0 <= y < ny - 3 }"
threads: {x: x, y: y}
launch: {block: [8, 1]}
statements:
  - "dst[y, x] = src[y, x] + src[y + 2, x] + src[y, x + 17]"
)",
                                       {{{8, 1, 1}, {1, 1, 1}}, {{8, 2, 1}, {1, 1, 1}}});
}

// 25 loads 40 rows apart stay 25 boxes (the wave spans 26 rows), 650 row intervals in all, the
// size at which the interval sort stops calling std::sort. In ascending order the three block
// ranges' rows are 3 runs, which it merges run by run; in descending order 75, more than it
// merges (it sorts them by radix).
TEST(WaveFootprints, ScatteredAccessesCountWhatIslCounts) {
    for (const bool descending : {false, true}) {
        std::string loads;
        for (int k = 0; k < 25; ++k)
            loads += fmt::format("{}src[y + {}, x]", loads.empty() ? "" : " + ",
                                 40 * (descending ? 24 - k : k));
        const auto spec = kernel::parse_kernel_text(fmt::format(R"(name: scattered
params: {{nx: 1000, ny: 1200}}
arrays:
  src: {{dtype: f64, shape: [ny, nx]}}
  dst: {{dtype: f64, shape: [ny, nx]}}
domain: "[nx, ny] -> {{ [y, x] : 0 <= x < nx and 0 <= y < ny - 960 }}"
threads: {{x: x, y: y}}
launch: {{block: [8, 2]}}
statements:
  - "dst[y, x] = {}"
)",
                                                                loads),
                                                    "scattered.yaml");
        const auto analysis = analysis::analyze(spec, {{8, 2, 1}, {1, 1, 1}});
        const auto params = analysis::bind(analysis).values();
        const WaveFootprints boxes(analysis, params, 128, true, false);
        const WaveFootprints isl(analysis, params, 128, true, true);
        const auto wave = block_boxes(5, boxes.grid()[0] * 12 + 7, boxes.grid());
        ASSERT_EQ(wave.size(), 3u);
        const auto earlier = block_boxes(0, 5, boxes.grid());
        const std::int64_t count = boxes.count(0, wave, 32, AccessFilter::loads);
        EXPECT_EQ(count, isl.count(0, wave, 32, AccessFilter::loads)) << descending;
        EXPECT_EQ(boxes.count_shared(0, wave, earlier, 32, AccessFilter::loads),
                  isl.count_shared(0, wave, earlier, 32, AccessFilter::loads))
            << descending;
        EXPECT_GT(count, 1000);
    }
}

INSTANTIATE_TEST_SUITE_P(Paths, WaveFootprintOracle,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const auto& test) {
                             return std::string(std::get<0>(test.param) ? "linear" : "rows") +
                                    (std::get<1>(test.param) ? "_isl" : "_boxes");
                         });

} // namespace
