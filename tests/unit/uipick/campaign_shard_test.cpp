// Campaign shards: --shard I/N parsing and the partition of a directory's kernel files.
#include "kerncast/error.hpp"
#include "kerncast/uipick/campaign_shard.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

ErrorKind shard_error(const std::string& text) {
    try {
        (void)parse_shard(text);
    } catch (const Error& e) {
        return e.kind();
    }
    return ErrorKind::internal;
}

} // namespace

TEST(CampaignShard, ParsesValidShards) {
    EXPECT_EQ(parse_shard("0/1").index, 0);
    EXPECT_EQ(parse_shard("0/1").count, 1);
    EXPECT_EQ(parse_shard("3/8").index, 3);
    EXPECT_EQ(parse_shard("3/8").count, 8);
    EXPECT_EQ(parse_shard("99/100").index, 99);
}

TEST(CampaignShard, RejectsBadShardsAsUsageErrors) {
    for (const char* bad : {"", "3", "/4", "1/", "4/4", "5/4", "0/0", "-1/4", "1/-4", "a/4",
                            "1/4/5", "1.0/4", " 1/4", "1/4 "})
        EXPECT_EQ(shard_error(bad), ErrorKind::usage) << bad;
}

// Every file is in exactly one shard, for every shard count, whatever order the files come
// in; shards are round-robin over the sorted list and differ in size by at most one.
TEST(CampaignShard, ShardsPartitionTheFiles) {
    std::vector<std::string> files;
    for (int k = 0; k < 23; ++k)
        files.push_back("kernels/k" + std::to_string(100 + k) + ".yaml");
    std::vector<std::string> shuffled = files;
    std::mt19937 random(7);
    std::shuffle(shuffled.begin(), shuffled.end(), random);
    for (std::int64_t count = 1; count <= 30; ++count) {
        std::map<std::string, int> seen;
        size_t smallest = files.size(), largest = 0;
        for (std::int64_t index = 0; index < count; ++index) {
            const auto shard = shard_files(shuffled, {index, count});
            EXPECT_EQ(shard, shard_files(files, {index, count})) << "order-independent";
            EXPECT_TRUE(std::is_sorted(shard.begin(), shard.end()));
            smallest = std::min(smallest, shard.size());
            largest = std::max(largest, shard.size());
            for (const auto& file : shard)
                ++seen[file];
        }
        ASSERT_EQ(seen.size(), files.size()) << count;
        for (const auto& [file, times] : seen)
            EXPECT_EQ(times, 1) << file << " in " << count << " shards";
        EXPECT_LE(largest - smallest, 1u);
    }
    EXPECT_EQ(
        shard_files(files, {1, 4}),
        (std::vector<std::string>{"kernels/k101.yaml", "kernels/k105.yaml", "kernels/k109.yaml",
                                  "kernels/k113.yaml", "kernels/k117.yaml", "kernels/k121.yaml"}));
}

TEST(CampaignShard, KernelFilesOfADirectory) {
    const auto dir = std::filesystem::temp_directory_path() / "kerncast_shard_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "sub.yaml");
    for (const char* name : {"b.yaml", "a.yml", "c.json", "notes.txt"})
        std::ofstream(dir / name) << "x";
    const auto files = kernel_files_in(dir.string());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(std::filesystem::path(files[0]).filename(), "a.yml");
    EXPECT_EQ(std::filesystem::path(files[1]).filename(), "b.yaml");
    EXPECT_THROW((void)kernel_files_in((dir / "missing").string()), Error);
    std::filesystem::remove_all(dir);
}
