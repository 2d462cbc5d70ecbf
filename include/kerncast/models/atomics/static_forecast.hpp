// Static forecast of the shared-memory atomic unit's load (Dong & Pai sec. 3.3 without a run):
// the exact atomic warp-instruction counts of a kernel file at a launch, the resident warps of
// the occupancy calculation as n^, and the contention e of an assumed input distribution.
// Pure; docs/atomics.md, "Static forecast".
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/atomics/utilization.hpp"
#include "kerncast/models/occupancy/occupancy.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

// The data that data-dependent atomic addresses read (Dong & Pai sec. 4.1's two images).
enum class InputDistribution {
    // Every pixel the same colour: a data value depends only on the innermost subscript of the
    // array it is read from (its channel k), value = k, so channels fall in distinct banks.
    solid,
    // Every data value independent and uniform in 0..255 (an 8-bit channel).
    uniform,
};
const char* distribution_name(InputDistribution distribution); // "solid", "uniform"
std::optional<InputDistribution> parse_distribution(const std::string& name);

struct ForecastOptions {
    InputDistribution distribution = InputDistribution::solid;
    std::string operation;               // "" = popc_inc for integer +1 on CC >= 8.0, else add
    std::optional<double> kernel_cycles; // T per SM, when known: gives U
    int registers_per_thread = 0;        // 0: the kernel file's, else registers do not limit
    int uniform_warps = 4096;            // sampled warps per sequential iteration (uniform)
    std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
};

// One shared-memory atomic of the kernel.
struct AtomicAccessForecast {
    int statement = 0;
    std::string text;      // the reference as written
    std::string operation; // "atomic:add", ...
    std::string dtype;
    bool compare_and_swap = false;      // emitted as a CAS loop (docs/codegen.md, "Atomics")
    bool data_dependent = false;        // its address reads data
    std::int64_t warp_instructions = 0; // over the launch (one per warp execution)
    double active_threads = 0;          // e: mean largest number of a warp's threads on one bank
};

struct AtomicForecast {
    std::string kernel;
    std::string distribution;
    std::string operation; // the fetch-and-op grid the table is read with
    std::string operation_reason;
    std::int64_t threads_per_block = 0;
    std::int64_t thread_blocks = 0;
    std::int64_t shared_memory_per_block_bytes = 0;
    OccupancyResult occupancy;
    int sm_count = 0;
    int sms_used = 0;          // min(SMs, blocks)
    double resident_warps = 0; // n^: warps per SM of the occupancy calculation and the grid
    std::vector<AtomicAccessForecast> accesses;
    double jobs = 0;              // N over the launch
    double cas_jobs = 0;          // N_c over the launch
    AtomicUtilizationInput input; // one average SM (active cycles = kernel_cycles or 0)
    std::vector<std::string> notes;
};

// Throws input Errors for kernels without shared-memory atomics, addresses it cannot evaluate,
// and machines without what occupancy and banks need.
// `bound` is `analysis` bound to its parameter values (analysis::bind).
AtomicForecast forecast_atomics(const analysis::KernelAnalysis& analysis,
                                const kernel::BoundKernel& bound, const MachineModel& machine,
                                const ForecastOptions& options);

} // namespace kerncast::models::atomics
