// Data volumes of a kernel launch through the memory hierarchy and the throughput they allow:
// the Warpspeed estimator of Ernst et al. 2023 (sec. 2-4). Pure function of (analysed kernel,
// parameter values, machine model); everything per array and per level.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/occupancy/occupancy.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/volumes/capacity_terms.hpp"
#include "kerncast/models/volumes/l1_wavefronts.hpp"
#include "kerncast/models/volumes/limiter.hpp"
#include "kerncast/models/volumes/volume_assumptions.hpp"
#include "kerncast/models/volumes/wave_footprint.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

struct VolumeOptions {
    RegisterCount registers;       // per_thread 0: registers do not limit occupancy
    bool linear_addresses = false; // count every array in linear byte addresses
    // Waves the DRAM volumes average over (sec. 4.4): evenly spaced over the launch, every
    // wave when the launch has no more. 1 = the paper's single wave in the middle.
    int sampled_waves = 16;
};

// Bytes per point of one array at each level.
struct ArrayVolumes {
    std::string array;
    double l1_load_request_bytes = 0;     // sectors the warps request from L1 (V_up of L1)
    double l1_load_warp_unique_bytes = 0; // the same, each warp's repeats counted once
    double l2_load_compulsory_bytes = 0;  // unique sectors of one block (sec. 4.3)
    double l2_load_capacity_bytes = 0;    // capacity misses of the L1 (eq. 5)
    double l2_load_bytes = 0;             // L2 -> L1
    double l2_store_bytes = 0;            // L1 -> L2, write-through: every store
    double dram_load_wave_bytes = 0;      // unique sectors of the wave (sec. 4.4)
    std::array<double, 3> dram_layer_hit_bytes{0, 0, 0}; // reuse from the x/y/z layer sets
    double dram_l2_capacity_bytes = 0;   // redundant L2 loads of the wave that miss L2
    double dram_partial_store_bytes = 0; // reads that complete partly written sectors
    double dram_load_bytes = 0;          // DRAM -> L2
    double dram_store_bytes = 0;         // L2 -> DRAM (write-back of the wave's sectors)
};

// The blocks one reuse distance back along an axis (sec. 4.4.1, fig. 10): everything that
// ran since the wave's neighbour along that axis; its data has to stay in L2 for the reuse.
// In a prediction: averages over the sampled waves (hit_rate = hits / overlap).
struct LayerSet {
    std::int64_t first_block = 0; // linear block id; the set is [first_block, wave start)
    std::int64_t blocks = 0;
    double overlap_bytes_per_point = 0; // wave sectors first touched by this layer set
    double allocated_bytes = 0;         // 128 B lines of the layer set
    double oversubscription = 0;        // allocated / effective L2 (eq. 4)
    double hit_rate = 0;                // capacity fit at that oversubscription
};

// A global access the volume model does not model (or models only in part), named so that a
// forecast never drops work silently (docs/volume-model.md, "What the model leaves out").
struct UnmodelledAccess {
    std::string access;              // "hist[b]", as written
    std::string kind;                // "global atomic", "data-dependent address"
    double executions_per_point = 0; // executions by all threads over the points
    double updates_per_address = 0;  // global atomics: executions / distinct addresses
    std::string left_out;            // what the volumes and limiters leave out
};

// A forecast whose unmodelled accesses make at least this share of the kernel's global access
// executions says so in its first note: most of its memory traffic is then outside the model.
inline constexpr double large_unmodelled_share = 0.25;

// The volume model is a pipeline of stages (docs/volume-model.md; volume_stages.hpp says which
// run on a machine). Each stage's typed result below; VolumePrediction holds them in the order
// predict_volumes computes them.

// Stage "waves", placement (sec. 4.4): the occupancy places blocks on the SMs. Blocks the
// busiest SM holds at once, and the SMs' share of the work (blocks over that): the occupancy's
// blocks per SM on every SM, unless the grid has fewer blocks than one full wave, when the
// block scheduler spreads them over the SMs (under_filled): ceil(blocks / SMs) per SM, and the
// L1, FP and in-flight limiters count only blocks / that many SMs.
struct WavePlacement {
    RegisterCount registers; // what the occupancy calculation used (VolumeOptions::registers)
    OccupancyResult occupancy;
    std::int64_t wave_blocks = 0; // resident at once: blocks per SM x SMs
    std::int64_t resident_blocks_per_sm = 0;
    double busy_sms = 0;
    bool under_filled = false;
    std::int64_t waves = 0;
};

// Stage "representative block" (sec. 4.3): the block in the middle of the grid that the L1
// stages and the L2 -> L1 volumes look at.
struct RepresentativeBlock {
    kernel::Dim3 origin{0, 0, 0}; // block index
    std::int64_t points = 0;
};

// Stages "l1_capacity_fit" / "l1_simulation" (sec. 4.3, eq. 4 for L1): the resident blocks'
// lines against the L1 that shared memory leaves.
struct L1Capacity {
    double capacity_bytes = 0;  // L1 size minus the shared memory of resident blocks
    double allocated_bytes = 0; // 128 B lines of the resident blocks
    double oversubscription = 0;
    double hit_rate = 0; // the fit's at oversubscription, or the simulated L1's
    // True when L1 misses come from the simulated L1 (l1_simulation.hpp) rather than the
    // l1_redundant_loads fit.
    bool simulated = false;
};

// Stages "waves" and "layer_sets" (sec. 4.4, 4.4.1): the sampled waves against the L2,
// averaged weighted by their points.
struct WaveAverages {
    double l2_capacity_bytes = 0;   // effective L2 (near partition on A100/H100, sec. 3)
    std::int64_t sampled_waves = 0; // waves the DRAM volumes average over
    std::int64_t first_block = 0;   // of the middle one of the sampled waves
    std::int64_t points = 0;        // of that wave
    double allocated_bytes = 0;     // 128 B lines of a wave, all arrays
    double oversubscription = 0;    // allocated over the L2 capacity (eq. 4)
    double store_hit_rate = 0;
    std::array<LayerSet, 3> layers; // x, y, z
};

// Stage "flops_limit"'s input (sec. 4.1): useful flops and issue cycles a point.
struct FloatingPointWork {
    double flops_per_point = 0;
    double cycles_per_point = 0;
    // The issue cycles if every fold instance did its own operations (OperationCount::
    // instance_count): above cycles_per_point where the instances share some.
    double instance_cycles_per_point = 0;
};

// The per-array volumes stage (sec. 4.3-4.5): bytes per point at each level.
struct MemoryVolumes {
    std::vector<ArrayVolumes> arrays;
    // Totals over arrays, bytes per point.
    double l2_load_bytes = 0;
    double l2_store_bytes = 0;
    double dram_load_bytes = 0;
    double dram_store_bytes = 0;
    // The four totals as capacity-independent parts plus capacity-miss terms (sec. 4.5):
    // evaluate_decomposition(x, machine.capacity_fits) reproduces the total above.
    struct Decompositions {
        VolumeDecomposition l2_load, l2_store, dram_load, dram_store;
    } decompositions;
};

// A forecast: the memory volumes (its base) and the results of the stages that led to them.
struct VolumePrediction : MemoryVolumes {
    kernel::LaunchConfig launch;
    kernel::Dim3 grid{1, 1, 1};
    std::int64_t blocks = 0;
    std::int64_t points = 0;

    L1Estimate l1;
    WavePlacement placement;
    RepresentativeBlock representative;
    L1Capacity l1_capacity;
    WaveAverages wave;
    FloatingPointWork fp;
    std::vector<UnmodelledAccess> unmodelled;
    // The unmodelled accesses' share of the kernel's global access executions (0..1).
    double unmodelled_share = 0;
    LimiterResult limiter;
    // What the forecast assumed where the machine or the kernel left a choice; the view says
    // it in words (volume_notes).
    VolumeAssumptions assumptions;
};

// Checks, without a kernel, that `machine` has every value the volume and limiter models need:
// L1 and L2 cache levels with sizes, the L1 bank layout, the SM count, the four capacity fits
// and the DRAM and L2 bandwidths. Throws an input Error naming the first missing value (a
// machine without caches, such as compute capability 1.x, is told to use the MWP-CWP model).
// predict_volumes runs it first; explore runs it once before its sweep.
void check_volume_machine(const MachineModel& machine);

// `analysis` fixes the launch (block, fold); `bound` is that analysis bound to its parameter
// values (analysis::bind). Input Errors name what the machine lacks (banks, capacity fits,
// bandwidths) or why the launch cannot run.
VolumePrediction predict_volumes(const analysis::KernelAnalysis& analysis,
                                 const kernel::BoundKernel& bound, const MachineModel& machine,
                                 const VolumeOptions& options = {});

} // namespace kerncast::models
