// Search-space files: parsing, errors at their line, and the enumeration against loops over
// every combination.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/search_space.hpp"

#include <fstream>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

namespace {

const std::string space_text = R"yaml(# a space
source: "a test"
kernels: [a.yaml, sub/b.yaml]
block_x: [16, 32, 64]
block_y: [1, 2, 4]
fold_x: [1, 2]
fold_y: 4
fold_placement: [consecutive, strided]
params: {radius: [1, 3]}
restrictions: ["threads <= 64", "radius * fold_x < 6", "strided == 0 || block_x >= 32"]
)yaml";

Error error_of(const std::string& text) {
    try {
        parse_search_space(text, "dir/s.yaml");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for\n" << text;
    return Error(ErrorKind::internal, "none");
}

// "key: [1, 2, ..., 100]"
std::string hundred(const std::string& key) {
    std::string text = key + ": [1";
    for (int v = 2; v <= 100; ++v)
        text += ", " + std::to_string(v);
    return text + "]";
}

} // namespace

TEST(SearchSpace, ParsesEveryKey) {
    const SearchSpace space = parse_search_space(space_text, "dir/s.yaml");
    EXPECT_EQ(space.source, "a test");
    EXPECT_EQ(space.kernel_files, (std::vector<std::string>{"dir/a.yaml", "dir/sub/b.yaml"}));
    EXPECT_EQ(space.block[0], (std::vector<std::int64_t>{16, 32, 64}));
    EXPECT_EQ(space.block[2], (std::vector<std::int64_t>{1}));
    EXPECT_EQ(space.fold[1], (std::vector<std::int64_t>{4}));
    EXPECT_EQ(space.fold_placements,
              (std::vector<FoldPlacement>{FoldPlacement::consecutive, FoldPlacement::strided}));
    ASSERT_EQ(space.params.size(), 1u);
    EXPECT_EQ(space.params[0].second, (std::vector<std::int64_t>{1, 3}));
    ASSERT_EQ(space.restrictions.size(), 3u);
    EXPECT_EQ(space.restrictions[1].line, 10);
}

// Against nested loops over every kernel, parameter, placement, fold and block.
TEST(SearchSpace, EnumeratesWhatTheRestrictionsAllowOnce) {
    const SearchSpace space = parse_search_space(space_text, "dir/s.yaml");
    const SpaceEnumeration e =
        enumerate_space(space, {FoldPlacement::consecutive, FoldPlacement::consecutive});
    std::int64_t expected = 0, combinations = 0;
    for (int k = 0; k < 2; ++k)
        for (const std::int64_t radius : {1, 3})
            for (const bool strided : {false, true})
                for (const std::int64_t fx : {1, 2})
                    for (const std::int64_t bx : {16, 32, 64})
                        for (const std::int64_t by : {1, 2, 4}) {
                            ++combinations; // fold_y is 4: never one point a thread
                            if (bx * by <= 64 && radius * fx < 6 && (!strided || bx >= 32))
                                ++expected;
                        }
    EXPECT_EQ(e.combinations, combinations);
    EXPECT_EQ(static_cast<std::int64_t>(e.points.size()), expected);
    EXPECT_EQ(e.restricted, combinations - expected);
    for (const SpacePoint& point : e.points) {
        EXPECT_LE(volume(point.launch.block), 64);
        ASSERT_EQ(point.parameters.size(), 1u);
        EXPECT_LT(point.parameters[0].second * point.launch.fold[0], 6);
        EXPECT_EQ(point.launch.fold[1], 4);
    }
}

TEST(SearchSpace, OnePointAThreadHasOnePlacementAndFilesKeepTheirOwn) {
    const SearchSpace space = parse_search_space(
        "kernels: [a.yaml, b.yaml]\nblock_x: [32, 64]\nfold_x: [1, 2]\n", "s.yaml");
    const SpaceEnumeration e =
        enumerate_space(space, {FoldPlacement::consecutive, FoldPlacement::strided});
    ASSERT_EQ(e.points.size(), 8u);
    for (const SpacePoint& point : e.points)
        EXPECT_EQ(point.launch.fold_placement, point.kernel == 1 && point.launch.fold[0] == 2
                                                   ? FoldPlacement::strided
                                                   : FoldPlacement::consecutive);
    const SearchSpace both = parse_search_space(
        "kernels: a.yaml\nblock_x: 32\nfold_x: [1, 2]\nfold_placement: [consecutive, strided]\n",
        "s.yaml");
    EXPECT_EQ(enumerate_space(both, {FoldPlacement::consecutive}).points.size(), 3u);
}

TEST(SearchSpace, ErrorsNameTheLine) {
    struct Case {
        std::string from, to, message;
        int line;
    };
    const Case cases[] = {
        {"block_x: [16, 32, 64]", "block_x: [16, 0]", "block_x: '0' is not a positive integer", 4},
        {"block_x: [16, 32, 64]", "block_x: []", "block_x lists no value", 4},
        {"block_x: [16, 32, 64]", "blocks: [16]", "unknown key 'blocks'", 4},
        {"fold_placement: [consecutive, strided]", "fold_placement: cyclic",
         "fold_placement must be 'consecutive' or 'strided', not 'cyclic'", 8},
        {"params: {radius: [1, 3]}", "params: {radius: [1, x]}",
         "params.radius: 'x' is not an integer", 9},
        {"params: {radius: [1, 3]}", "params: {threads: [1]}",
         "'threads' is a launch name of the space", 9},
        {"\"threads <= 64\"", "\"thread <= 64\"",
         "restriction 'thread <= 64' names 'thread', which the space does not define", 10},
        {"\"threads <= 64\"", "\"threads <=\"", "restriction 'threads <=':", 10},
        {"kernels: [a.yaml, sub/b.yaml]\n", "", "a search space names its kernel files", 2},
        {"block_x: [16, 32, 64]",
         hundred("block_x") + "\n" + hundred("block_z") + "\n" + hundred("fold_z"),
         "more than 10000000 combinations", 2},
    };
    for (const Case& c : cases) {
        std::string text = space_text;
        const auto at = text.find(c.from);
        ASSERT_NE(at, std::string::npos) << c.from;
        text.replace(at, c.from.size(), c.to);
        const Error e = error_of(text);
        EXPECT_EQ(e.kind(), ErrorKind::input) << c.message;
        EXPECT_NE(e.message().find(c.message), std::string::npos) << e.describe();
        EXPECT_EQ(e.where().file, "dir/s.yaml");
        EXPECT_EQ(e.where().line, c.line) << e.describe();
    }
    // A restriction that cannot be evaluated is an error at its line when enumerating.
    const SearchSpace divides =
        parse_search_space("kernels: a.yaml\nblock_x: 32\nrestrictions: [\"32 / (block_x - 32) > "
                           "1\"]\n",
                           "s.yaml");
    try {
        enumerate_space(divides, {FoldPlacement::consecutive});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("cannot be evaluated: division by zero"), std::string::npos)
            << e.message();
        EXPECT_EQ(e.where().line, 3);
    }
}

// The example spaces (examples/autotuning/spaces) name kernel files that load, and have the
// sizes their sources give: Kernel Tuner's tune_params products, less the restrictions.
TEST(SearchSpace, ExampleSpacesLoadWithTheirSourcesSizes) {
    const std::string dir = KERNCAST_SOURCE_DIR "/examples/autotuning/spaces/";
    const std::vector<std::tuple<std::string, std::int64_t, std::int64_t>> expected{
        {"kt_convolution", 8 * 6 * 3 * 3, 8 * 6 * 3 * 3 - 342},
        {"kt_matmul", 3 * 6 * 4 * 4, 3 * 6 * 4 * 4 - 44},
        {"kt_pnpoly", 31 * 11, 0},
        {"kt_stencil", 8 * 6, 0},
        {"kt_transpose", 5 * 6, 6},
        {"kt_vector_add", 15, 0},
        {"ktt_bicg_q", 6, 0},
        {"ktt_bicg_s", 6, 0},
        {"ktt_coulomb_sum", 2 * 2 * 4 * 6, 36},
        {"kt_convolution_staged", 2, 0},
        {"kt_convolution_shared", 8 * 6 * 3 * 3, 109},
        {"bat_hotspot", 37 * 6 * 10 * 10, 37 * 6 * 10 * 10 - 2838},
        {"bat_hotspot_shared", 37 * 6 * 10 * 10, 37 * 6 * 10 * 10 - 2838}};
    for (const auto& [name, combinations, restricted] : expected) {
        SCOPED_TRACE(name);
        const LoadedSearchSpace loaded = load_search_space_with_kernels(dir + name + ".yaml");
        EXPECT_FALSE(loaded.space.source.empty());
        ASSERT_EQ(loaded.kernels.size(), loaded.space.kernel_files.size());
        const SpaceEnumeration& e = loaded.combinations;
        EXPECT_EQ(e.combinations, combinations);
        EXPECT_EQ(e.restricted, restricted);
    }
}

// Restrictions that exclude every combination: an error naming the file, not an empty table.
TEST(SearchSpace, ASpaceItsRestrictionsEmptyIsAnError) {
    const std::string path = ::testing::TempDir() + "/empty_space.yaml";
    std::ofstream(path) << "kernels: [" KERNCAST_SOURCE_DIR
                           "/examples/autotuning/kt_vector_add.yaml]\nblock_x: [32, 64]\n"
                           "restrictions: [\"threads > 1024\"]\n";
    try {
        load_search_space_with_kernels(path);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("exclude all 2 combinations"), std::string::npos) << e.message();
        EXPECT_EQ(e.where().file, path);
    }
}
