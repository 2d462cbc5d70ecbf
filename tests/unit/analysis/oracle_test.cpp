// Brute-force oracle: enumerate every domain point of small instances, map it to the launch
// by explicit integer arithmetic (not isl), and check the analysis' counts, byte addresses,
// whole-launch footprints and warp/block footprints. Runs on every example kernel and on
// randomly generated small kernels.
#include "../../../src/support/isl_support.hpp"
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/support/integer.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace kerncast;
using namespace kerncast::analysis;

namespace {

using Point = std::map<std::string, std::int64_t>; // user indices, params and builtins

// All domain points at fixed parameters, by isl enumeration of the user's domain.
std::vector<std::vector<std::int64_t>> enumerate(const kernel::KernelSpec& spec,
                                                 const std::vector<std::int64_t>& params) {
    kerncast::isl::Context ctx;
    ::isl::set set = kerncast::isl::parse_set(ctx, spec.domain);
    const auto names = kerncast::isl::dim_names(set, isl_dim_param);
    for (size_t k = 0; k < names.size(); ++k)
        for (size_t p = 0; p < spec.params.size(); ++p)
            if (spec.params[p].name == names[k])
                set = kerncast::isl::fix_param(set, static_cast<int>(k), params[p]);
    std::vector<std::vector<std::int64_t>> points;
    const int dims = kerncast::isl::dim_count(set, isl_dim_set);
    set.foreach_point([&](const ::isl::point& point) {
        std::vector<std::int64_t> coordinates;
        for (int k = 0; k < dims; ++k)
            coordinates.push_back(kerncast::isl::coordinate(point, k).get_num_si());
        points.push_back(coordinates);
    });
    return points;
}

struct Oracle {
    const KernelAnalysis& analysis;
    std::vector<std::int64_t> params;
    std::vector<Point> points; // every domain point with its launch coordinates

    Oracle(const KernelAnalysis& a, std::vector<std::int64_t> p)
        : analysis(a), params(std::move(p)) {
        const auto& spec = analysis.spec;
        const auto raw = enumerate(spec, params);
        // Lower bound of each globally mapped index: the minimum over the points.
        std::map<std::string, std::int64_t> lower;
        for (const auto& point : raw)
            for (size_t k = 0; k < spec.indices.size(); ++k) {
                auto it = lower.find(spec.indices[k]);
                if (it == lower.end() || point[k] < it->second)
                    lower[spec.indices[k]] = point[k];
            }
        for (const auto& coordinates : raw) {
            Point point;
            for (size_t k = 0; k < spec.params.size(); ++k)
                point[spec.params[k].name] = params[k];
            for (const char* b : {"tx", "ty", "tz", "bx", "by", "bz", "fx", "fy", "fz"})
                point[b] = 0;
            for (size_t k = 0; k < spec.indices.size(); ++k)
                point[spec.indices[k]] = coordinates[k];
            for (int axis = 0; axis < kernel::axis_count; ++axis) {
                const size_t ax = static_cast<size_t>(axis);
                const std::string axis_suffix = kernel::axis_name(axis);
                const auto& t = spec.threads;
                if (!t.global[ax].empty()) {
                    const std::int64_t offset = point[t.global[ax]] - lower[t.global[ax]];
                    const std::int64_t fold = analysis.launch.fold[ax],
                                       block = analysis.launch.block[ax];
                    point["f" + axis_suffix] = offset % fold;
                    point["t" + axis_suffix] = (offset / fold) % block;
                    point["b" + axis_suffix] = (offset / fold) / block;
                }
                if (!t.local[ax].empty())
                    point["t" + axis_suffix] = point[t.local[ax]];
                if (!t.block[ax].empty())
                    point["b" + axis_suffix] = point[t.block[ax]];
            }
            points.push_back(point);
        }
    }

    std::int64_t value(const Point& point, const kernel::Expr& e) const {
        return kernel::evaluate_integer(
            e, [&](const std::string& name) -> std::optional<std::int64_t> {
                auto it = point.find(name);
                if (it == point.end())
                    return std::nullopt;
                return it->second;
            });
    }

    bool in_statement(const Point& point, int statement) const {
        const auto& s = analysis.spec.statements[static_cast<size_t>(statement)];
        return !s.condition || value(point, *s.condition) != 0;
    }

    std::vector<std::int64_t> key(const Point& point, const std::vector<std::string>& variables,
                                  bool with_threads) const {
        std::vector<std::int64_t> k;
        for (const auto& v : variables) {
            if (!with_threads && (v == "tx" || v == "ty" || v == "tz"))
                continue;
            k.push_back(point.at(v));
        }
        return k;
    }

    void check_access(const AccessInfo& access) const {
        SCOPED_TRACE(access.text + " (statement " + std::to_string(access.statement) + ")");
        std::set<std::vector<std::int64_t>> per_item, per_group;
        std::set<std::vector<std::int64_t>> elements;
        const kernel::ExprPtr ref = kernel::parse_expression(access.text);
        const kernel::ArrayDecl* array = analysis.spec.find_array(access.array);
        const std::int64_t bytes = kernel::data_type_bytes(array->dtype);
        ByteAddress affine;
        if (!access.indirect)
            affine = byte_address(analysis, access, params);
        auto lookup = [&](const std::string& name) -> std::optional<std::int64_t> {
            for (size_t k = 0; k < analysis.parameters.size(); ++k)
                if (analysis.parameters[k] == name)
                    return params[k];
            return std::nullopt;
        };
        std::vector<std::int64_t> extents;
        for (const auto& extent : array->shape)
            extents.push_back(kernel::evaluate_integer(*extent, lookup));
        const std::int64_t offset =
            array->offset ? kernel::evaluate_integer(*array->offset, lookup) : 0;
        // Warp 0 (first iteration) and block 0 groups.
        std::optional<ThreadGroup> warp;
        if (!access.indirect)
            warp = first_iteration_warp(analysis, access, params, 32);
        std::set<std::int64_t> warp_addresses, block_addresses;
        std::set<std::vector<std::int64_t>> warp_executions, block_executions;
        for (const auto& point : points) {
            if (!in_statement(point, access.statement))
                continue;
            per_item.insert(key(point, access.domain_variables, true));
            per_group.insert(key(point, access.domain_variables, false));
            if (access.indirect)
                continue;
            std::vector<std::int64_t> subscript;
            std::int64_t flat = 0;
            for (size_t k = 0; k < ref->operands.size(); ++k) {
                const std::int64_t s = value(point, *ref->operands[k]);
                subscript.push_back(s);
                flat = flat * extents[k] + s;
            }
            elements.insert(subscript);
            const std::int64_t address = (offset + flat) * bytes;
            std::int64_t predicted = affine.constant;
            for (const auto& [name, c] : affine.coefficients)
                predicted += c * point.at(name);
            ASSERT_EQ(predicted, address);
            // group membership
            const auto& block = analysis.launch.block;
            const std::int64_t linear =
                point.at("tx") + block[0] * (point.at("ty") + block[1] * point.at("tz"));
            const bool block0 = point.at("bx") == 0 && point.at("by") == 0 && point.at("bz") == 0;
            if (block0) {
                block_executions.insert(key(point, access.domain_variables, true));
                block_addresses.insert(address);
                bool first = linear >= warp->first_thread && linear < warp->end_thread;
                for (const auto& [name, v] : warp->fixed_indices)
                    first = first && point.at(name) == v;
                if (first) {
                    warp_executions.insert(key(point, access.domain_variables, true));
                    warp_addresses.insert(address);
                }
            }
        }
        const std::int64_t item_count = static_cast<std::int64_t>(per_item.size());
        const std::int64_t group_count =
            static_cast<std::int64_t>(per_group.size()) * analysis.subgroups_per_block;
        EXPECT_EQ(access.count_per_work_item.evaluate(params), item_count);
        EXPECT_EQ(access.count.evaluate(params),
                  access.granularity == Granularity::subgroup ? group_count : item_count);
        if (access.indirect)
            return;
        // A shared array is each block's own: no launch-wide footprint is counted for it.
        EXPECT_EQ(access.footprint_elements.evaluate(params),
                  access.space == kernel::MemorySpace::shared
                      ? 0
                      : static_cast<std::int64_t>(elements.size()));
        auto granules = [](const std::set<std::int64_t>& addresses, std::int64_t size) {
            std::set<std::int64_t> g;
            for (auto a : addresses)
                g.insert(support::floor_div(a, size));
            return static_cast<std::int64_t>(g.size());
        };
        const Footprint w = footprint(analysis, access, params, *warp, {32, 128});
        EXPECT_EQ(w.accesses, static_cast<std::int64_t>(warp_executions.size()));
        EXPECT_EQ(w.elements, static_cast<std::int64_t>(warp_addresses.size()));
        EXPECT_EQ(w.granules[0].count, granules(warp_addresses, 32));
        EXPECT_EQ(w.granules[1].count, granules(warp_addresses, 128));
        const Footprint b = footprint(analysis, access, params, whole_block(analysis), {32, 128});
        EXPECT_EQ(b.accesses, static_cast<std::int64_t>(block_executions.size()));
        EXPECT_EQ(b.elements, static_cast<std::int64_t>(block_addresses.size()));
        EXPECT_EQ(b.granules[0].count, granules(block_addresses, 32));
        EXPECT_EQ(b.granules[1].count, granules(block_addresses, 128));
    }

    void check_all() const {
        std::set<std::vector<std::int64_t>> blocks;
        for (const auto& point : points)
            blocks.insert({point.at("bx"), point.at("by"), point.at("bz")});
        EXPECT_EQ(analysis.thread_blocks.evaluate(params),
                  static_cast<std::int64_t>(blocks.size()));
        for (const auto& access : analysis.accesses)
            check_access(access);
    }
};

struct ExampleCase {
    const char* file;
    std::vector<std::pair<std::string, std::int64_t>> small;
};

} // namespace

TEST(Oracle, EveryExampleKernel) {
    const std::vector<ExampleCase> cases = {
        {"star3d_r4", {{"nx", 45}, {"ny", 15}, {"nz", 13}}},
        {"star2d_r1", {{"nx", 70}, {"ny", 9}}},
        {"box2d_r1", {{"nx", 133}, {"ny", 7}}},
        {"box2d_r2", {{"nx", 140}, {"ny", 8}}},
        {"box2d_r3", {{"nx", 150}, {"ny", 9}}},
        {"lbm_d3q15_pull", {{"nx", 70}, {"ny", 7}, {"nz", 5}}},
        {"matmul_naive", {{"n", 32}}},
        {"matmul_tiled16", {{"n", 32}, {"m", 48}, {"l", 32}}},
        {"dg_diff_1", {{"nelements", 32}, {"nmatrices", 2}, {"nunit_nodes", 16}}},
        {"dg_diff_2", {{"nelements", 32}, {"nmatrices", 2}, {"nunit_nodes", 32}}},
        {"dg_diff_3", {{"nelements", 32}, {"nmatrices", 2}, {"nunit_nodes", 32}}},
        {"dg_diff_4", {{"nelements", 32}, {"nmatrices", 2}, {"nunit_nodes", 32}}},
        {"fd5pt_16", {{"n", 30}}},
        {"fd5pt_18", {{"n", 37}}},
        {"hk_matmul", {{"hM", 32}, {"wM", 48}, {"wN", 32}}},
        {"histogram", {{"n", 600}}},
        {"histogram_reordered", {{"n", 600}}},
        {"absmax_f32", {{"n", 600}}},
        {"colnorm_matvec", {{"n", 20}}},
        {"hk_matmul_table2", {{"hM", 16}, {"wM", 32}, {"wN", 32}}},
        {"hk_mat_tiled", {{"hM", 32}, {"wM", 48}, {"wN", 32}}},
        {"hk_mat_naive", {{"n", 20}}},
        {"hk_sepia", {{"w", 20}, {"h", 5}}},
        {"hk_linear", {{"w", 20}, {"h", 6}}},
        {"hk_blackscholes", {{"n", 300}}},
        {"hk_micro_mb1", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb2_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb2_uc", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb3_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb3_uc", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb4_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb4_uc", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb5_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb5_uc", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb6_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb6_uc", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb7_c", {{"n", 40}, {"iters", 3}}},
        {"hk_micro_mb7_uc", {{"n", 40}, {"iters", 3}}},
    };
    size_t files = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels"))
        files += entry.path().extension() == ".yaml";
    EXPECT_EQ(files, cases.size()) << "every example kernel needs an oracle case";
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        const auto spec = kernel::load_kernel_file(
            std::string(KERNCAST_SOURCE_DIR "/examples/kernels/") + c.file + ".yaml");
        const KernelAnalysis analysis = analyze(spec);
        Oracle oracle(analysis, kerncast::analysis::bind(analysis, c.small).values());
        oracle.check_all();
    }
}

TEST(Oracle, ExampleLaunchOverrides) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
    for (const auto& [block, fold] :
         std::vector<std::pair<kernel::LaunchConfig, int>>{{{{8, 2, 2}, {1, 2, 1}}, 0},
                                                           {{{4, 4, 1}, {3, 1, 2}}, 0},
                                                           {{{16, 1, 2}, {1, 1, 1}}, 0}}) {
        (void)fold;
        const KernelAnalysis analysis = analyze(spec, block);
        Oracle oracle(
            analysis,
            kerncast::analysis::bind(analysis, {{"nx", 19}, {"ny", 14}, {"nz", 13}}).values());
        oracle.check_all();
    }
}

// Random small kernels: random box/triangular domains, random mapping, block, fold and affine
// subscripts with offsets; each checked by the oracle.
TEST(Oracle, RandomSmallKernels) {
    std::mt19937 rng(2024);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int trial = 0; trial < 25; ++trial) {
        SCOPED_TRACE("trial " + std::to_string(trial));
        const int lo_x = pick(0, 3), lo_y = pick(0, 2);
        const bool triangular = pick(0, 3) == 0;
        const std::string domain = "[n, m, t] -> { [k, y, x] : " + std::to_string(lo_x) +
                                   " <= x < n and " + std::to_string(lo_y) +
                                   " <= y < m and 0 <= k < t" + (triangular ? " and k <= y" : "") +
                                   " }";
        const int bx = std::vector<int>{1, 2, 4, 8, 32}[static_cast<size_t>(pick(0, 4))];
        const int by = std::vector<int>{1, 2, 3}[static_cast<size_t>(pick(0, 2))];
        const int fx = pick(1, 3), fy = pick(1, 2);
        const int ox = pick(-1, 2), oy = pick(-1, 1), sx = pick(1, 2);
        const std::string read = "a[y + " + std::to_string(oy + 1) + ", " + std::to_string(sx) +
                                 "*x + " + std::to_string(ox + 1) + "]";
        const std::string uniform = "w[k]";
        const std::string text = "name: random\n"
                                 "params: {n: 10, m: 5, t: 3}\n"
                                 "arrays:\n"
                                 "  a: {dtype: f32, shape: [m + 3, 2*n + 4], offset: " +
                                 std::to_string(pick(0, 5)) +
                                 "}\n"
                                 "  w: {dtype: f64, shape: [t]}\n"
                                 "  b: {dtype: f32, shape: [t, m, n]}\n"
                                 "  s: {dtype: f32, shape: [128], space: shared}\n"
                                 "domain: \"" +
                                 domain +
                                 "\"\n"
                                 "threads: {x: x, y: y}\n"
                                 "launch: {block: [" +
                                 std::to_string(bx) + ", " + std::to_string(by) + "], fold: [" +
                                 std::to_string(fx) + ", " + std::to_string(fy) +
                                 "]}\n"
                                 "statements:\n"
                                 "  - \"b[k, y, x] = " +
                                 read + "*" + uniform +
                                 "\"\n"
                                 "  - \"s[tx + 32*ty] = a[y, x]\"\n"; // a slot a thread
        SCOPED_TRACE(text);
        const auto spec = kernel::parse_kernel_text(text, "random.yaml");
        const KernelAnalysis analysis = analyze(spec);
        Oracle oracle(analysis, kerncast::analysis::bind(analysis, {{"n", pick(lo_x + 1, 40)},
                                                                    {"m", pick(lo_y + 1, 9)},
                                                                    {"t", pick(1, 4)}})
                                    .values());
        oracle.check_all();
        if (::testing::Test::HasFailure())
            break;
    }
}
