// The golden counting cases of ../shared/reference/counting-cases.md, exactly.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <random>

using namespace kerncast;
using namespace kerncast::analysis;
using kernel::DataType;

namespace {

std::int64_t operation(const KernelAnalysis& a, DataType dtype, const std::string& op,
                       const std::vector<std::int64_t>& params) {
    std::int64_t total = 0;
    for (const auto& o : a.operations)
        if (o.dtype == dtype && o.operation == op)
            total += o.count.evaluate(params);
    return total;
}

const AccessInfo& find_access(const KernelAnalysis& a, const std::string& array,
                              Direction direction) {
    for (const auto& access : a.accesses)
        if (access.array == array && access.direction == direction)
            return access;
    throw std::runtime_error("no access " + array);
}

const char* case1 = R"yaml(
name: case1
params: {n: 512, m: 256, l: 128}
arrays:
  a: {dtype: f32, shape: [n, l, m]}
  b: {dtype: f32, shape: [n, l, m]}
  c: {dtype: f32, shape: [n, l, m]}
  e: {dtype: f64, shape: [n, m + 1]}
  g: {dtype: f64, shape: [n, m]}
  h: {dtype: f64, shape: [n, m + 1]}
domain: "[n, m, l] -> { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j < l }"
statements:
  - "c[i, j, k] = a[i, j, k]*b[i, j, k]/3.0 + a[i, j, k]"
  - "e[i, k + 1] = -g[i, k]*h[i, k + 1]"
)yaml";

} // namespace

TEST(CountingCases, BasicArithmetic) {
    const auto spec = kernel::parse_kernel_text(case1, "case1.yaml");
    const std::vector<std::int64_t> p = {512, 256, 128};
    const KernelAnalysis a = analyze(spec);
    EXPECT_EQ(operation(a, DataType::f32, "add", p), 16777216);
    EXPECT_EQ(operation(a, DataType::f32, "mul", p), 16777216);
    EXPECT_EQ(operation(a, DataType::f32, "div", p), 16777216);
    EXPECT_EQ(operation(a, DataType::f64, "mul", p), 131072);
    EXPECT_EQ(operation(a, DataType::i32, "add", p), 0);
    CountOptions with_index;
    with_index.count_index_arithmetic = true;
    const KernelAnalysis b = analyze(spec, with_index);
    EXPECT_EQ(operation(b, DataType::i32, "add", p), 262144);
}

TEST(CountingCases, Reduction) {
    const auto spec = kernel::parse_kernel_text(R"yaml(
name: case2
params: {n: 512, m: 256, l: 128}
arrays:
  a: {dtype: f32, shape: [n, m]}
  b: {dtype: f32, shape: [m, l]}
  c: {dtype: f32, shape: [n, l]}
domain: "[n, m, l] -> { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j < l }"
statements:
  - "c[i, j] = sum(k, a[i, k]*b[k, j])"
)yaml",
                                                "case2.yaml");
    const KernelAnalysis a = analyze(spec);
    const std::vector<std::int64_t> p = {512, 256, 128};
    EXPECT_EQ(operation(a, DataType::f32, "add", p), 16777216);
    EXPECT_EQ(operation(a, DataType::f32, "mul", p), 16777216);
    EXPECT_EQ(operation(a, DataType::f32, "madd", p), 16777216);
}

TEST(CountingCases, TiledMatmulWithPrefetch) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/matmul_tiled16.yaml");
    const KernelAnalysis a = analyze(spec);
    const std::vector<std::int64_t> p =
        kerncast::analysis::bind(a, {{"n", 512}, {"m", 256}, {"l", 128}}).values();
    EXPECT_EQ(a.thread_blocks.evaluate(p), 256);
    EXPECT_EQ(a.subgroups_per_block, 8);
    ASSERT_EQ(a.barriers.size(), 2u);
    EXPECT_EQ(a.barriers[0].per_work_item.evaluate(p) + a.barriers[1].per_work_item.evaluate(p),
              32);
    EXPECT_EQ(operation(a, DataType::f32, "mul", p) + operation(a, DataType::f32, "add", p),
              1048576);
    EXPECT_EQ(operation(a, DataType::f32, "mul", p), 524288);

    const AccessInfo& load_a = find_access(a, "a", Direction::load);
    const AccessStrides sa = access_strides(a, load_a, p);
    EXPECT_EQ(load_a.granularity, Granularity::work_item);
    EXPECT_EQ(load_a.count.evaluate(p), 1048576);
    EXPECT_EQ(sa.thread[0], 1);
    EXPECT_EQ(sa.thread[1], 256);     // m
    EXPECT_EQ(sa.block[1], 16 * 256); // i's block axis: 16*m

    const AccessInfo& load_b = find_access(a, "b", Direction::load);
    const AccessStrides sb = access_strides(a, load_b, p);
    EXPECT_EQ(load_b.count.evaluate(p), 1048576);
    EXPECT_EQ(sb.thread[0], 1);
    EXPECT_EQ(sb.thread[1], 128); // l
    EXPECT_EQ(sb.block[0], 16);   // j's block axis

    const AccessInfo& store_c = find_access(a, "c", Direction::store);
    const AccessStrides sc = access_strides(a, store_c, p);
    EXPECT_EQ(store_c.count.evaluate(p), 65536);
    EXPECT_EQ(sc.thread[0], 1);
    EXPECT_EQ(sc.thread[1], 128);

    std::int64_t shared_loads = 0, shared_stores = 0;
    for (const auto& access : a.accesses) {
        if (access.space != kernel::MemorySpace::shared)
            continue;
        EXPECT_EQ(access.granularity, Granularity::subgroup);
        const AccessStrides s = access_strides(a, access, p);
        if (access.direction == Direction::load) {
            shared_loads += access.count.evaluate(p);
            EXPECT_EQ(access.count.evaluate(p), 524288);
            if (access.array == "a_tile")
                EXPECT_EQ(s.thread[1], 16);
            else
                EXPECT_EQ(s.thread[0], 1);
        } else {
            shared_stores += access.count.evaluate(p);
        }
    }
    EXPECT_EQ(shared_loads, 1048576);
    EXPECT_EQ(shared_stores, 65536);
    // PERFLEX Table 1: access-to-footprint ratio of the global loads is l/16 here (n/16 for
    // square matrices).
    EXPECT_EQ(load_a.count_per_work_item.evaluate(p) / load_a.footprint_elements.evaluate(p),
              128 / 16);
}

TEST(CountingCases, BarriersMultiplyEnclosingLoops) {
    const auto spec = kernel::parse_kernel_text(R"yaml(
name: barriers
params: {n: 64, t: 5, u: 3}
arrays:
  s: {dtype: f32, shape: [32], space: shared}
domain: "[n, t, u] -> { [i, p, q] : 0 <= i < n and 0 <= p < t and 0 <= q < u }"
threads: {x: i}
launch: {block: [32]}
statements:
  - {barrier: local}
  - {barrier: local, within: [p]}
  - {barrier: local, within: [p, q]}
  - "s[tx] = 1.0"
)yaml",
                                                "barriers.yaml");
    const KernelAnalysis a = analyze(spec);
    const std::vector<std::int64_t> p = {64, 5, 3};
    ASSERT_EQ(a.barriers.size(), 3u);
    EXPECT_EQ(a.barriers[0].per_work_item.evaluate(p), 1);
    EXPECT_EQ(a.barriers[1].per_work_item.evaluate(p), 5);
    EXPECT_EQ(a.barriers[2].per_work_item.evaluate(p), 15);
}

// Every count of every example: the closed form equals isl's point count at random parameter
// values (those that satisfy the kernel's assumptions).
TEST(ExampleCounts, ClosedFormsMatchIslCounting) {
    std::mt19937 rng(99);
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels")) {
        if (entry.path().extension() != ".yaml")
            continue;
        SCOPED_TRACE(entry.path().filename().string());
        const auto spec = kernel::load_kernel_file(entry.path().string());
        const KernelAnalysis a = analyze(spec);
        std::vector<const SymbolicCount*> counts = {&a.thread_blocks};
        for (const auto& op : a.operations)
            counts.push_back(&op.count);
        for (const auto& access : a.accesses) {
            counts.push_back(&access.count);
            counts.push_back(&access.count_per_work_item);
            counts.push_back(&access.footprint_elements);
        }
        for (const auto& barrier : a.barriers)
            counts.push_back(&barrier.per_work_item);
        int samples = 0;
        for (int attempt = 0; attempt < 20000 && samples < 4; ++attempt) {
            std::vector<std::pair<std::string, std::int64_t>> values;
            for (const auto& param : spec.params)
                values.emplace_back(param.name, std::uniform_int_distribution<int>(1, 48)(rng));
            std::vector<std::int64_t> p;
            try {
                p = kerncast::analysis::bind(a, values).values();
            } catch (const Error&) {
                continue; // violates an assumption
            }
            ++samples;
            for (const SymbolicCount* count : counts) {
                EXPECT_TRUE(count->closed_form()) << count->formula();
                ASSERT_EQ(count->evaluate(p), count->evaluate_with_isl(p))
                    << count->formula() << " at " << ::testing::PrintToString(p);
            }
        }
        EXPECT_EQ(samples, 4);
    }
}

TEST(CountingCases, CompareAndSwapCountsItsCompareOperandLikeItsValue) {
    // atomic_cas(target, compare, value): the compare operand's reads and operations count once
    // per point of the statement's domain, like the value's; the atomic itself once per
    // work-item.
    const char* text = R"yaml(
name: cas
params: {n: 1000}
arrays:
  flag: {dtype: i32, shape: [n]}
  a: {dtype: i32, shape: [n]}
  b: {dtype: i32, shape: [n]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [128]}
statements: ["atomic_cas(flag[i], a[i] + 2*b[i], b[i] - 1)"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "cas.yaml");
    const KernelAnalysis a = analyze(spec);
    const std::vector<std::int64_t> p = {1000};
    // Arithmetic per sub-group: 8 blocks x 4 warps. compare: 1 add, 1 mul; value: 1 add.
    EXPECT_EQ(operation(a, DataType::i32, "add", p), 2 * 32);
    EXPECT_EQ(operation(a, DataType::i32, "mul", p), 32);
    EXPECT_EQ(operation(a, DataType::i32, "madd", p), 32);
    EXPECT_EQ(operation(a, DataType::i32, "atomic:cas", p), 1000);
    EXPECT_EQ(find_access(a, "a", Direction::load).count.evaluate(p), 1000);
    int b_loads = 0;
    for (const auto& access : a.accesses)
        b_loads += access.array == "b" && access.direction == Direction::load;
    EXPECT_EQ(b_loads, 2); // b[i] in the compare and in the value
    EXPECT_EQ(find_access(a, "flag", Direction::atomic).count.evaluate(p), 1000);
}

// Operations per work-item beside the sub-group count: the useful work. The 49-point box of
// range 3 does 48 adds and 1 mul per interior point (14994^2 of them); with 1024-wide blocks the
// sub-group count also covers the idle lanes of partly filled warps and blocks.
TEST(KernelAnalysis, OperationsPerWorkItemAreTheUsefulWork) {
    const auto spec = kerncast::kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/kernels/box2d_r3.yaml");
    kerncast::kernel::LaunchConfig launch;
    launch.block = {1024, 1, 1};
    launch.fold = {1, 1, 1};
    const auto analysis = kerncast::analysis::analyze(spec, launch);
    const auto params = kerncast::analysis::bind(analysis).values();
    const std::int64_t points = 14994LL * 14994LL;
    int found = 0;
    for (const auto& op : analysis.operations) {
        if (op.operation == "add") {
            EXPECT_EQ(op.work_items.evaluate(params), 48 * points);
            EXPECT_GT(op.count.evaluate(params) * 32, 48 * points);
            ++found;
        } else if (op.operation == "mul") {
            EXPECT_EQ(op.work_items.evaluate(params), points);
            ++found;
        }
    }
    EXPECT_EQ(found, 2);
}

// A strided fold places a thread's points a block apart (index = lower + bx*B*F + fx*B + tx);
// a consecutive one next to each other (lower + bx*B*F + tx*F + fx). Either covers the domain
// once: the stores count its points, with a ragged last block along x (nx - 2 = 998 points,
// 32 * 4 = 128 a block).
TEST(KernelAnalysis, FoldPlacementsMapIndicesAndCoverTheDomainOnce) {
    const auto spec = kerncast::kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                         "/examples/kernels/star2d_r1.yaml");
    for (const auto placement :
         {kernel::FoldPlacement::consecutive, kernel::FoldPlacement::strided}) {
        SCOPED_TRACE(kernel::fold_placement_name(placement));
        const kernel::LaunchConfig launch{{32, 2, 1}, {4, 3, 1}, placement};
        const KernelAnalysis a = analyze(spec, launch);
        const bool strided = placement == kernel::FoldPlacement::strided;
        const kernel::AffineForm& x = a.index_forms.at("x");
        EXPECT_EQ(x.coefficient("bx"), 128);
        EXPECT_EQ(x.coefficient("tx"), strided ? 1 : 4);
        EXPECT_EQ(x.coefficient("fx"), strided ? 32 : 1);
        EXPECT_EQ(x.constant, 1);
        const kernel::AffineForm& y = a.index_forms.at("y");
        EXPECT_EQ(y.coefficient("by"), 6);
        EXPECT_EQ(y.coefficient("ty"), strided ? 1 : 3);
        EXPECT_EQ(y.coefficient("fy"), strided ? 2 : 1);
        const auto params = bind(a, {{"nx", 1000}, {"ny", 50}}).values();
        const AccessInfo& store = find_access(a, "dst", Direction::store);
        EXPECT_EQ(store.footprint_elements.evaluate(params), 998 * 48);
        ASSERT_EQ(store.granularity, Granularity::work_item);
        EXPECT_EQ(store.count.evaluate(params), 998 * 48);
        EXPECT_EQ(a.thread_blocks.evaluate(params), 8 * 8); // ceil(998/128) x ceil(48/6)
    }
}

// A floating-point operation whose operands do not depend on a folded axis's fold index is
// done once for that axis's instances (the code generator's fold fast path computes it once:
// codegen.md, Folding). Block 32x4, fold 2x2 strided over 64 x 64 points: 1024 threads, 32
// warps; a[y] * a[y] and its quotient depend on y only (one per thread and y instance),
// b[0] + 1.5 and b[0] * b[1] on neither (one per thread), a[x] + b[0] * b[1] on x only, the
// quotient's sum with a[x] and the update of c on both (one per point).
TEST(KernelAnalysis, FoldInstancesShareTheOperationsWhoseOperandsTheyShare) {
    const auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                               "/tests/user_kernels/fold_shared_operations.yaml");
    const std::vector<std::int64_t> p = {64};
    const auto work_items = [&](const KernelAnalysis& a, const std::string& op) {
        std::int64_t total = 0;
        for (const auto& o : a.operations)
            if (o.dtype == DataType::f32 && o.operation == op)
                total += o.work_items.evaluate(p);
        return total;
    };
    const KernelAnalysis unfolded = analyze(spec, {{32, 4, 1}, {1, 1, 1}});
    EXPECT_EQ(work_items(unfolded, "mul"), 2 * 4096);
    EXPECT_EQ(work_items(unfolded, "div"), 4096);
    EXPECT_EQ(work_items(unfolded, "add"), 4 * 4096); // + 1.5, + a[x], + a[x] + ..., +=
    EXPECT_EQ(work_items(unfolded, "madd"), 4096);    // a[x] + b[0] * b[1]

    const KernelAnalysis folded =
        analyze(spec, {{32, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided});
    // a[y] * a[y] per thread and fy; b[0] * b[1] once a thread.
    EXPECT_EQ(work_items(folded, "mul"), 2048 + 1024);
    EXPECT_EQ(work_items(folded, "div"), 2048);
    EXPECT_EQ(work_items(folded, "add"), 1024 + 2048 + 2 * 4096);
    // The product the instances share is computed apart from the sum: no fused multiply-add.
    EXPECT_EQ(work_items(folded, "madd"), 0);
    // Sub-group units: 32 warps, each doing a shared operation once per instance it keeps.
    EXPECT_EQ(operation(folded, DataType::f32, "mul", p), 32 * 2 + 32);
    EXPECT_EQ(operation(folded, DataType::f32, "div", p), 32 * 2);
    EXPECT_EQ(operation(folded, DataType::f32, "add", p), 32 + 32 * 2 + 2 * 32 * 4);

    // A private's value is one copy an instance, an array the kernel writes may change between
    // them: 64 points, 32 threads of 2 instances; a[0] * 2.0 and a[1] * 3.0 once a thread,
    // t * t and d[0] * d[0] once a point (as the fast path computes them: FoldLoadReuse.
    // ValuesTheInstancesShareAreComputedOnce).
    const auto running = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/tests/user_kernels/fold_private_and_written.yaml");
    const KernelAnalysis kept =
        analyze(running, {{32, 1, 1}, {2, 1, 1}, kernel::FoldPlacement::strided});
    EXPECT_EQ(work_items(kept, "mul"), 32 + 32 + 64 + 64);
}

// Kernel Tuner's pnpoly at tile 4 (the strided fold): each edge's slope, a division and two
// subtractions of vertex coordinates, once per thread for its four points, as pnpoly.cu
// computes it; the comparisons and the rest per point. 2*10^7 points, block 256: 19532 blocks
// of 8 warps, the last block's points all in instance 0; 600 edges.
TEST(KernelAnalysis, PnpolySlopesAreComputedOncePerThreadForItsTile) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/kt_pnpoly.yaml");
    const std::vector<std::int64_t> p = {20000000, 600};
    const KernelAnalysis one = analyze(spec, {{256, 1, 1}, {1, 1, 1}});
    const std::int64_t warp_instances = 20000000 / 32;
    EXPECT_EQ(operation(one, DataType::f32, "div", p), warp_instances * 600);
    EXPECT_EQ(operation(one, DataType::f32, "add", p), warp_instances * 600 * 4);
    const KernelAnalysis tiled =
        analyze(spec, {{256, 1, 1}, {4, 1, 1}, kernel::FoldPlacement::strided});
    const std::int64_t warps = 19532 * 8;
    EXPECT_EQ(operation(tiled, DataType::f32, "div", p), warps * 600);
    EXPECT_EQ(operation(tiled, DataType::f32, "add", p),
              warps * 600 * 2 + warp_instances * 600 * 2);
    EXPECT_EQ(operation(tiled, DataType::f32, "madd", p), warp_instances * 600);
    EXPECT_EQ(operation(tiled, DataType::f32, "cmp", p), operation(one, DataType::f32, "cmp", p));
}

// What the operations would count if every instance did its own: the unfolded counts (the
// Coulomb sum along z: each atom's dx^2 + dy^2 shared by a thread's 4 planes).
TEST(KernelAnalysis, InstanceCountsAreTheCountsWithoutSharing) {
    const auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                               "/examples/autotuning/ktt_coulomb_sum_soa.yaml");
    const std::vector<std::int64_t> p = {64, 16};
    const KernelAnalysis one = analyze(spec, {{16, 4, 1}, {1, 1, 1}});
    const KernelAnalysis four = analyze(spec, {{16, 4, 1}, {1, 1, 4}});
    for (const std::string op : {"add", "mul", "madd", "func:rsqrt"}) {
        SCOPED_TRACE(op);
        std::int64_t unfolded = 0, shared = 0, each = 0;
        for (const auto& o : one.operations)
            if (o.dtype == DataType::f32 && o.operation == op) {
                unfolded += o.count.evaluate(p);
                EXPECT_EQ(o.instance_count.evaluate(p), o.count.evaluate(p));
                EXPECT_FALSE(o.shared_by_fold_instances);
            }
        for (const auto& o : four.operations)
            if (o.dtype == DataType::f32 && o.operation == op) {
                shared += o.count.evaluate(p);
                each += o.instance_count.evaluate(p);
                EXPECT_EQ(o.shared_by_fold_instances, op != "func:rsqrt");
            }
        // 16x4 blocks of 2 warps: as many warp-points folded as unfolded.
        EXPECT_EQ(each, unfolded);
        if (op == "func:rsqrt")
            EXPECT_EQ(shared, unfolded); // of dz too
        else
            EXPECT_LT(shared, unfolded);
    }
}

// The operations FoldLoadReuse.NoSharedValueHoldsAnIntegerDivision shares: a[1] / 3.0 once a
// thread and j, a[0] / (8 / j) per instance (64 points, 32 threads, 4 values of j).
TEST(KernelAnalysis, OperationsHoldingAnIntegerDivisionAreNotShared) {
    const auto guarded = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/tests/user_kernels/fold_guarded_integer_division.yaml");
    const KernelAnalysis a =
        analyze(guarded, {{32, 1, 1}, {2, 1, 1}, kernel::FoldPlacement::strided});
    std::int64_t divisions = 0;
    for (const auto& o : a.operations)
        if (o.dtype == DataType::f32 && o.operation == "div")
            divisions += o.work_items.evaluate({64, 4});
    EXPECT_EQ(divisions, 64 * 4 + 32 * 4);
}
