// A measurement campaign is many independent kernel runs: `kerncast run DIR --shard I/N`
// runs shard I of N of the kernel files in DIR, so a Slurm job array (one task per shard)
// spreads a campaign over GPU nodes; docs/uipick.md, "Measurement campaigns".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::uipick {

struct Shard {
    std::int64_t index = 0; // 0 <= index < count
    std::int64_t count = 1;
};

// "I/N" with integers 0 <= I < N (Slurm's SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT when
// the array is 0-based). Usage Error naming the problem otherwise.
Shard parse_shard(const std::string& text);

// Shard `shard` of `files`: the files at positions index, index + count, index + 2*count, ...
// of the sorted list (round-robin, so that neighbouring variants, often of similar cost,
// spread over the shards). The shards of one N partition the files: every file is in
// exactly one.
std::vector<std::string> shard_files(std::vector<std::string> files, const Shard& shard);

// The kernel files (*.yaml, *.yml) directly in `directory`, sorted; input Error when it is not
// a readable directory.
std::vector<std::string> kernel_files_in(const std::string& directory);

} // namespace kerncast::uipick
