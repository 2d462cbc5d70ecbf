// Registers per thread measured by the compiler: kerncast's generated CUDA for one launch
// (lower_kernel + generate_cuda, which specialise on block and fold) compiled by NVRTC for
// the machine's SM with ptxas verbose output (--ptxas-options=-v), whose "Used N registers"
// line gives the count, with the stack frame and spill bytes beside it. Needs the CUDA
// toolkit's NVRTC, no GPU. docs/volume-model.md, "Registers per thread".
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/occupancy/register_count.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kerncast::codegen {

// What ptxas -v reports for one entry function.
struct PtxasUsage {
    std::string function;
    std::string target; // "sm_80"
    int registers = 0;
    std::int64_t stack_frame_bytes = 0;
    std::int64_t spill_store_bytes = 0;
    std::int64_t spill_load_bytes = 0;
};

// Reads ptxas's verbose report (e.g. NVRTC's log) for `entry_function`: the section from
// "Compiling entry function '<name>' for '<sm>'" to the next entry. nullopt when the log has
// no such entry or the entry has no "Used N registers" line.
std::optional<PtxasUsage> parse_ptxas_usage(const std::string& log,
                                            const std::string& entry_function);

// The SM version ptxas compiles for to count the registers of `machine`: its compute
// capability (8.0 -> 80), which this NVRTC must generate machine code for exactly. An
// unavailable Error otherwise, naming the machine and the oldest compute capability this
// NVRTC supports (CUDA 13: 7.5), or saying that kerncast was built without CUDA.
int register_count_sm(const MachineModel& machine);

// Where ptxas's counts are kept between runs: $KERNCAST_CACHE_DIR/ptxas when that is set (set
// and empty: no cache), else $XDG_CACHE_HOME/kerncast/ptxas, else ~/.cache/kerncast/ptxas;
// nullopt when none applies. One small file per generated source, SM and NVRTC version
// (docs/volume-model.md, "Registers per thread").
std::optional<std::string> default_register_cache_directory();

// Counts the registers of a kernel's generated code, one compilation per distinct generated
// source and SM (cached by SHA-256 of the source: repeated launches cost nothing). With a
// cache directory, counts also persist there, keyed by the source's SHA-256, the SM and the
// NVRTC version, so a later run compiles nothing it compiled before; a directory that cannot be
// written, or a file that cannot be read back, only costs the compilation. Safe to call from
// several threads at once (kerncast explore's workers) and several processes.
class RegisterCounter {
public:
    // Checks up front that the machine's SM can be compiled for (register_count_sm).
    RegisterCounter(kernel::KernelSpec spec,
                    std::vector<std::pair<std::string, std::int64_t>> overrides,
                    const MachineModel& machine,
                    std::optional<std::string> cache_directory = std::nullopt);

    // Source ptxas, target "sm_<sm>". Input Errors: a launch the generator cannot express, a
    // compile error (with NVRTC's log).
    models::RegisterCount count(const kernel::LaunchConfig& launch);

    // Counts the launches not counted yet (neither in memory nor in the cache directory) ahead
    // of count(): their distinct sources in programs of up to `batch_kernels` kernels each,
    // `jobs` programs at a time (0: every hardware thread). NVRTC's fixed cost of a program is
    // then paid once a batch. Each kernel keeps its own entry name in the program and ptxas
    // allocates its registers alone, so the counts are count()'s. A launch the generator
    // refuses, or a batch that does not compile, is left to count(), which reports it.
    void prepare(const std::vector<kernel::LaunchConfig>& launches, unsigned jobs,
                 std::size_t batch_kernels = 8);

    int sm() const { return sm_; }
    std::size_t compilations() const; // NVRTC runs so far (a batch is one)
    std::size_t cache_hits() const;   // counts served from the cache (memory or directory)
    std::size_t disk_hits() const;    // of them, read from the cache directory

private:
    std::optional<std::string> cache_file(const std::string& sha) const;
    void keep(const std::string& key, const std::optional<std::string>& file,
              const models::RegisterCount& count);

    kernel::KernelSpec spec_;
    std::vector<std::pair<std::string, std::int64_t>> overrides_;
    int sm_ = 0;
    mutable std::mutex mutex_;
    std::map<std::string, models::RegisterCount> cache_; // sha256(source) + "/sm_<sm>"
    // The cache key of each launch prepare() generated (count() then generates nothing).
    using LaunchKey = std::tuple<kernel::Dim3, kernel::Dim3, kernel::FoldPlacement>;
    static LaunchKey launch_key(const kernel::LaunchConfig& launch) {
        return {launch.block, launch.fold, launch.fold_placement};
    }
    std::map<LaunchKey, std::string> launch_keys_;
    std::size_t compilations_ = 0;
    std::size_t cache_hits_ = 0;
    std::size_t disk_hits_ = 0;
    std::optional<std::string> cache_directory_;
    std::string nvrtc_version_;
};

} // namespace kerncast::codegen
