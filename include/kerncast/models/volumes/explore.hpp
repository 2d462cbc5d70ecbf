// Launch-configuration ranking (Ernst et al. 2023, sec. 5.1, 5.8): predict every block size
// and folding of a sweep and sort by predicted throughput.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models {

// The sweep of sec. 5.1: X, Y powers of two up to 1024, Z up to 64, X*Y*Z = threads.
std::vector<kernel::Dim3> default_block_sizes(std::int64_t threads_per_block);
// Threads per block the default sweep takes when none are asked for: 1024 (the paper's sweep,
// sec. 5.1) for kernels that map an index to z, else 64, 128, 256, 512 and 1024: a 1D kernel's
// only shape at 1024 threads is 1024x1x1, and smaller blocks decide occupancy and tails.
std::vector<std::int64_t> default_thread_counts(const kernel::KernelSpec& spec);
// No folding, 2x in y, 2x in z (sec. 5.2).
std::vector<kernel::Dim3> default_folds();

struct ExploreOptions {
    std::vector<kernel::Dim3> blocks; // empty: default_block_sizes(threads_per_block)
    // empty: default_folds(); a fold without a placement takes the kernel file's
    std::vector<kernel::FoldChoice> folds;
    std::int64_t threads_per_block = 0; // 0: each of default_thread_counts(spec)
    VolumeOptions volume;
    // When set, the registers of each launch (e.g. ptxas compiling the generated code,
    // codegen/register_usage.hpp) instead of volume.registers. Called from several worker
    // threads at once; an input Error skips the launch with its message.
    std::function<RegisterCount(const kernel::LaunchConfig&)> registers_for_launch;
    unsigned jobs = 0; // worker threads; 0: all hardware threads
    // Called after each configuration (predicted or skipped) with the number finished and the
    // total; from several worker threads at once (e.g. a report::ProgressBar).
    std::function<void(std::size_t done, std::size_t total)> progress;
};

struct ExploreRow {
    kernel::LaunchConfig launch;
    std::optional<VolumePrediction> prediction; // absent when skipped
    std::string skipped;                        // why (the input Error's message)
    // Competition rank of a predicted row: 1 + the number of rows predicted faster, so rows
    // the model predicts at the same throughput (exactly) share a rank; 0 when skipped.
    std::size_t rank = 0;
    std::size_t tied = 0; // predicted rows at this throughput, this one included (0: skipped)
};

struct ExploreResult {
    std::string kernel;
    std::string machine;
    std::vector<ExploreRow> rows; // predicted rows by descending throughput, then skipped ones
};

ExploreResult explore(const kernel::KernelSpec& spec,
                      const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                      const MachineModel& machine, const ExploreOptions& options);

} // namespace kerncast::models
