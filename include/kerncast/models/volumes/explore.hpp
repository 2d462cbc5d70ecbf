// Launch-configuration ranking (Ernst et al. 2023, sec. 5.1, 5.8): predict every block size
// and folding of a sweep and sort by predicted throughput.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/kernel/search_space.hpp"
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
    // When set, called once with every launch of the sweep and `jobs` before any prediction:
    // counts their registers ahead, in batches (codegen::RegisterCounter::prepare).
    std::function<void(const std::vector<kernel::LaunchConfig>&, unsigned jobs)> prepare_registers;
    // explore_space: the registers of a combination (kernel index, its parameter values, launch);
    // when set, instead of registers_for_launch. Called from several worker threads at once.
    std::function<RegisterCount(std::size_t kernel,
                                const std::vector<std::pair<std::string, std::int64_t>>& values,
                                const kernel::LaunchConfig& launch)>
        registers_for_case;
    // explore_space: when set, called before any prediction once for each kernel index and
    // parameter values with every launch of theirs and `jobs` (ptxas counts them in batches).
    std::function<void(std::size_t kernel,
                       const std::vector<std::pair<std::string, std::int64_t>>& values,
                       const std::vector<kernel::LaunchConfig>& launches, unsigned jobs)>
        prepare_registers_for_case;
    unsigned jobs = 0; // worker threads; 0: all hardware threads
    // Called after each configuration (predicted or skipped) with the number finished and the
    // total; from several worker threads at once (e.g. a report::ProgressBar).
    std::function<void(std::size_t done, std::size_t total)> progress;
};

struct ExploreRow {
    std::size_t kernel = 0; // explore_space: index into ExploreResult::kernels
    kernel::LaunchConfig launch;
    std::vector<std::pair<std::string, std::int64_t>> parameters; // a space's swept values
    std::optional<VolumePrediction> prediction;                   // absent when skipped
    std::string skipped;                                          // why (the input Error's message)
    // Competition rank of a predicted row: 1 + the number of rows predicted faster, so rows
    // the model predicts at the same time (exactly) share a rank; 0 when skipped.
    std::size_t rank = 0;
    std::size_t tied = 0; // predicted rows at this throughput, this one included (0: skipped)
};

struct ExploreResult {
    std::string kernel; // the kernel's name; a space's kernels joined by ", "
    std::string machine;
    std::vector<ExploreRow> rows; // predicted rows by ascending time, then skipped ones
    // explore_space only: the kernels (variants) by index, the swept parameters' names, and
    // the combinations the space's restrictions excluded.
    std::vector<std::string> kernels;
    std::vector<std::string> swept_parameters;
    std::int64_t restricted = 0;
};

ExploreResult explore(const kernel::KernelSpec& spec,
                      const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                      const MachineModel& machine, const ExploreOptions& options);

// Every combination of a search space (kernel/search_space.hpp): `kernels[k]` is the space's
// kernel file k, loaded; `overrides` (-D) apply under the swept parameters. Rows are ranked by
// predicted time per launch.
ExploreResult explore_space(const std::vector<kernel::KernelSpec>& kernels,
                            const kernel::SpaceEnumeration& space,
                            const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                            const MachineModel& machine, const ExploreOptions& options);

} // namespace kerncast::models
