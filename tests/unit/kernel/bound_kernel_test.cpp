// BoundKernel: parameter values with -D overrides, checked once; array extents and the grid
// against hand-counted values of small kernels.
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

namespace {

// A 3-D stencil with a halo of 1 and an offset array: x = [1, nx-1), y = [1, ny-1), z = [0, nz).
const std::string stencil = R"yaml(name: halo
params: {nx: 66, ny: 34, nz: 8}
assume: ["nx % 2 == 0"]
arrays:
  src: {dtype: f64, shape: [nz, ny, nx], offset: 3}
  dst: {dtype: f32, shape: [nz, ny, nx]}
  w: {dtype: f32, shape: []}
domain: "[nx, ny, nz] -> { [z, y, x] : 1 <= x < nx - 1 and 1 <= y < ny - 1 and 0 <= z < nz }"
threads: {x: x, y: y, z: z}
launch: {block: [32, 4, 2], fold: [1, 2, 1]}
statements:
  - "dst[z, y, x] = w * src[z, y, x - 1]"
)yaml";

BoundKernel bound(const ParameterOverrides& overrides = {}) {
    const KernelSpec spec = parse_kernel_text(stencil, "halo.yaml");
    return BoundKernel::bind(spec, spec.launch, overrides);
}

Error error_of(const ParameterOverrides& overrides) {
    try {
        (void)bound(overrides);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error(ErrorKind::internal, "none");
}

} // namespace

TEST(BoundKernel, DefaultsWithOverridesInSpecOrder) {
    const BoundKernel k = bound({{"nz", 5}, {"nx", 130}});
    EXPECT_EQ(k.values(), (std::vector<std::int64_t>{130, 34, 5}));
    EXPECT_EQ(k.named_values(), (ParameterOverrides{{"nx", 130}, {"ny", 34}, {"nz", 5}}));
    EXPECT_EQ(k.value("ny"), 34);
    EXPECT_EQ(k.find_value("nz"), 5);
    EXPECT_EQ(k.find_value("x"), std::nullopt);
    EXPECT_EQ(k.lookup()("nx"), 130);
    EXPECT_EQ(k.spec().name, "halo");
    EXPECT_EQ(k.launch().block, (Dim3{32, 4, 2}));
}

TEST(BoundKernel, ArrayExtentsOffsetsAndElements) {
    const BoundKernel k = bound({{"ny", 10}});
    EXPECT_EQ(k.extents("src"), (std::vector<std::int64_t>{8, 10, 66}));
    EXPECT_EQ(k.offset("src"), 3);
    EXPECT_EQ(k.elements("src"), 8 * 10 * 66);
    EXPECT_EQ(k.offset("dst"), 0);
    EXPECT_TRUE(k.extents("w").empty());
    EXPECT_EQ(k.elements("w"), 1);
}

// 3e6^3 elements exceed 64 bits: binding still succeeds (counts need no element count, and
// report their own overflow), asking for the element count is an input error, never a wrap.
TEST(BoundKernel, AnElementCountBeyond64BitsIsAnErrorWhenAsked) {
    const BoundKernel k = bound({{"nx", 3000000}, {"ny", 3000000}, {"nz", 3000000}});
    EXPECT_EQ(k.extents("src"), (std::vector<std::int64_t>{3000000, 3000000, 3000000}));
    try {
        (void)k.elements("src");
        FAIL() << "expected an overflow";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("the element count of array 'src' exceeds the 64-bit"),
                  std::string::npos)
            << e.message();
        // The values the user gave, never an overflowed number (issue 47).
        ASSERT_EQ(e.notes().size(), 1u);
        EXPECT_NE(e.notes()[0].find("nx = 3000000"), std::string::npos) << e.notes()[0];
    }
    EXPECT_EQ(k.elements("w"), 1);
}

TEST(BoundKernel, GridCoversTheDomain) {
    // x: 64 points in blocks of 32 -> 2; y: 32 points, 4 threads x fold 2 = 8 per block -> 4;
    // z: 8 points in blocks of 2 -> 4.
    EXPECT_EQ(bound().grid(), (Dim3{2, 4, 4}));
    // x: 128 points -> 4; y: 33 points -> ceil(33 / 8) = 5; z: 3 points -> 2 (one partial).
    EXPECT_EQ(bound({{"nx", 130}, {"ny", 35}, {"nz", 3}}).grid(), (Dim3{4, 5, 2}));
}

TEST(BoundKernel, GridsOverCudasLimitsAreRefused) {
    // y: 131070 points, 8 per block -> 16384 blocks: fits. z: 65536 points in blocks of 2 ->
    // 32768: fits; 131072 points -> 65536 blocks, one over CUDA's 65535.
    EXPECT_NO_THROW(check_grid_limits(bound({{"ny", 131072}})));
    EXPECT_NO_THROW(check_grid_limits(bound({{"nz", 131070}})));
    try {
        check_grid_limits(bound({{"nz", 131072}}));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.where().file, "halo.yaml");
        EXPECT_NE(e.message().find("with a 2x4x65536 grid; grid z 65536 exceeds CUDA's limit of "
                                   "65535"),
                  std::string::npos)
            << e.message();
    }
    EXPECT_EQ(grid_limit_violation({2147483647, 65535, 65535}), "");
    EXPECT_EQ(grid_limit_violation({2147483648, 1, 1}),
              "grid x 2147483648 exceeds CUDA's limit of 2147483647");
}

TEST(BoundKernel, BadValuesAreInputErrorsWithTheirOldTexts) {
    const Error unknown = error_of({{"nw", 3}});
    EXPECT_EQ(unknown.kind(), ErrorKind::input);
    EXPECT_EQ(unknown.message(), "kernel 'halo' has no parameter 'nw'");
    const Error assumption = error_of({{"nx", 65}});
    EXPECT_EQ(assumption.message(),
              "kernel 'halo' assumes nx % 2 == 0, which does not hold for nx=65, ny=34, nz=8");
    EXPECT_EQ(assumption.where().file, "halo.yaml");
    const Error negative = error_of({{"nz", -1}});
    EXPECT_NE(negative.message().find("negative extent -1 in dimension 1"), std::string::npos)
        << negative.message();
}

TEST(BoundKernel, ExplicitBlockIndexGivesItsRange) {
    const std::string tiled = R"yaml(name: tiled
params: {n: 10}
arrays:
  a: {dtype: f32, shape: [n, 16]}
domain: "[n] -> { [b, t] : 0 <= b < n and 0 <= t < 16 }"
blocks: {x: b}
locals: {x: t}
launch: {block: [16]}
statements:
  - "a[b, t] = 1"
)yaml";
    const KernelSpec spec = parse_kernel_text(tiled, "tiled.yaml");
    EXPECT_EQ(BoundKernel::bind(spec, spec.launch, {{"n", 7}}).grid(), (Dim3{7, 1, 1}));
}

// Oracle: the code generator's lowering computes the grid its CUDA launch uses from the
// domain's bounding box (codegen/schedule.cpp); every example kernel it lowers must agree.
TEST(BoundKernel, GridMatchesTheGeneratedLaunchOfEveryExample) {
    int compared = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels")) {
        if (entry.path().extension() != ".yaml")
            continue;
        const KernelSpec spec = load_kernel_file(entry.path().string());
        codegen::Schedule schedule;
        try {
            schedule = codegen::lower_kernel(spec, spec.launch);
        } catch (const Error&) {
            continue; // a kernel the generator does not support
        }
        const BoundKernel bound = BoundKernel::bind(spec, schedule.launch);
        EXPECT_EQ(bound.grid(), schedule.grid) << entry.path();
        for (const auto& layout : schedule.arrays)
            if (spec.find_array(layout.decl.name)) // lowering adds arrays of its own
                EXPECT_EQ(bound.extents(layout.decl.name), layout.extents) << entry.path();
        ++compared;
    }
    EXPECT_GE(compared, 20);
}
