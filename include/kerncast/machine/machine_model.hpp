// MachineModel: what a GPU is. Every value carries its provenance; unknown values are
// absent (std::nullopt), never zero. Loaded from JSON machine files
// ("schema": "kerncast.machine/1", docs/machine-format.md) or the built-in catalogue.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast {

// Where a value came from. Sources are declared once per machine (MachineModel::sources)
// and referenced by key from every value.
enum class SourceKind {
    datasheet, // vendor datasheet, whitepaper, CUDA Programming Guide
    paper,     // a published paper (citation says which table/section)
    measured,  // measured by a kerncast run (run says which)
    derived,   // computed from other values of this machine (citation says how)
    benchmark, // a published result file of a public benchmark suite, not run by kerncast
               // (citation: suite, repository@commit, file and line, device, caveats)
};

// "datasheet", "paper", "measured", "derived", "benchmark": the spelling of machine files and
// reports.
const char* source_kind_name(SourceKind kind);

// How repeatable a measured value is: the spread of the repetitions relative to the value, a
// verdict, and how many repetitions there were (written by the topology probe).
struct Uncertainty {
    double relative_spread = 0; // spread / value (kerncast probe: MAD / median); >= 0
    std::string confidence;     // "high", "medium" or "low"
    int repetitions = 0;        // >= 1
    bool operator==(const Uncertainty&) const = default;
};

// What a fit of model coefficients to measurements rests on and how well it matches them
// (written by `kerncast fit-volumes`; the dataset is the source's `run`).
struct FitProvenance {
    std::string records_sha256; // SHA-256 over the records' file names and contents
    int records = 0;            // measurement records the samples came from; >= 1
    int samples = 0;            // measured volumes the fit used; >= 1
    // |(predicted - measured) / measured| over the samples under the fitted coefficients.
    double median_abs_relative_error = 0;
    double p90_abs_relative_error = 0;
    // The same over the two-fold cross-validation's held-out halves; absent when the samples
    // could not be split (fewer than two groups).
    std::optional<double> held_out_median_abs_relative_error{};
    std::optional<double> held_out_p90_abs_relative_error{};
    std::string date;                // ISO 8601 UTC, "2026-11-24T21:00:00Z"
    std::string kerncast_version;    // of the kerncast that fitted
    std::vector<std::string> fits{}; // the fits determined, e.g. "z_layer_overlap"
    // Per fit of `fits`, the smallest and largest oversubscription O of its samples' terms:
    // where measurements place the curve (predictions beyond the largest are extrapolated).
    // Optional when read (fits written before 2026-11-26 lack it).
    std::map<std::string, std::array<double, 2>> oversubscription_ranges{};
    bool operator==(const FitProvenance&) const = default;
};

// What a calibration of a cost model's parameters rests on and how well the model matches the
// measurements (written by `kerncast calibrate`, Stevens & Klöckner sec. 7.2; the records'
// directory is the source's `run`; docs/model-format.md).
struct CalibrationProvenance {
    std::string model;                   // the model's name: its parameters are "<model>.<p_name>"
    std::string model_sha256;            // SHA-256 of the model file's bytes
    std::vector<std::string> parameters; // the parameters calibrated, e.g. "p_edge"
    std::string records_sha256;          // SHA-256 over the records' file names and contents
    int records = 0;                     // measurements the fit used; >= 1
    bool relative_error = true;          // residuals scaled by the measured value (sec. 7.2)
    bool non_negative = false;           // parameters kept >= 0
    double residual_norm = 0;            // ||r||_2 at the solution (relative when relative_error)
    // |(predicted - measured) / measured| over the records: geometric mean and maximum.
    double geometric_mean_abs_relative_error = 0;
    double max_abs_relative_error = 0;
    std::string date; // ISO 8601 UTC
    std::string kerncast_version;
    bool operator==(const CalibrationProvenance&) const = default;
};

struct Provenance {
    SourceKind kind = SourceKind::datasheet;
    std::string citation; // e.g. "NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 3"
    std::string run;      // for measured values: the run that measured it (record path / id)
    std::optional<Uncertainty> uncertainty{}; // for measured values, when the run reports it
    std::optional<FitProvenance> fit{};       // for fitted values: the fit's dataset and error
    // For calibrated cost-model parameters: the model, the dataset and the residuals.
    std::optional<CalibrationProvenance> calibration{};
    bool operator==(const Provenance&) const = default;
};

// One known value and the key of its source in MachineModel::sources.
template <class T> struct Sourced {
    T value{};
    std::string source;
    bool operator==(const Sourced&) const = default;
};

// A value that may be unknown.
template <class T> using Known = std::optional<Sourced<T>>;

struct MachineIdentity {
    std::string id;           // catalogue id, e.g. "a100-sxm4-40gb"
    std::string name;         // marketing name, e.g. "NVIDIA A100-SXM4-40GB"
    std::string vendor;       // "NVIDIA" (or "hypothetical" for paper machines)
    std::string architecture; // "Volta", "Ampere", "Hopper", "Tesla" (G80/GT200) ...
    int cc_major = 0;         // compute capability
    int cc_minor = 0;
    bool incomplete = false; // true when the file knowingly lacks values some models need
    std::string notes;
    // The names the CUDA runtime gives this GPU (cudaDeviceProp::name, "NVIDIA H100 80GB
    // HBM3"): how `kerncast probe -o` finds the built-in its measurements extend.
    std::vector<std::string> device_names;
    bool operator==(const MachineIdentity&) const = default;
};

// Issue rate of one instruction class and data type, e.g. class "fma", dtype "f64":
// results per cycle per SM (a warp instruction of 32 lanes at rate 64 issues in 0.5 cycles).
struct IssueRate {
    std::string op;    // "add", "mul", "fma", "div", "special", "compare", "int", "ldst" ...
    std::string dtype; // "f16", "f32", "f64", "i32", ...
    Sourced<double> per_cycle_per_sm;
    bool operator==(const IssueRate&) const = default;
};

struct ComputeUnits {
    Known<int> sm_count;
    Known<double> base_clock_mhz;        // SM base clock
    Known<double> boost_clock_mhz;       // SM boost clock (the clock models use when present)
    Known<double> measured_sm_clock_mhz; // the SM clock measured while probing (not a spec)
    Known<int> warp_size;
    Known<int> max_threads_per_block;
    Known<int> max_threads_per_sm;
    Known<int> max_warps_per_sm;
    Known<int> max_blocks_per_sm;
    // Thread blocks the GPU's block scheduler starts per SM clock cycle, device-wide (a rate
    // limit for launches of many small blocks; the volume model's block-launch limiter).
    Known<double> block_launches_per_cycle;
    // Standard deviation over mean of the durations of one block's warps under load (measured:
    // a block's warps do not end together, and its slots free when the last ends; the volume
    // model's in-flight limit, models/volumes/block_retirement.hpp).
    Known<double> warp_duration_cv;
    // Registers a thread of the compiled code keeps for addresses, indices and sums, not for
    // loaded values (read off the SASS: the volume model's load window,
    // models/volumes/load_window.hpp).
    Known<int> load_window_reserved_registers;
    Known<int> registers_per_sm; // 32-bit registers
    Known<int> max_registers_per_thread;
    Known<int> max_registers_per_block;
    Known<int> register_allocation_unit; // registers are allocated in multiples of this
    Known<std::string> register_allocation_granularity; // "warp" (CC >= 2.0) or "block" (CC 1.x)
    Known<int>
        warp_allocation_granularity; // warps of a block are allocated in multiples (CC 1.x: 2)
    Known<int> shared_memory_per_sm_bytes;          // maximum carve-out for shared memory
    Known<int> shared_memory_per_block_bytes;       // default static limit (48 KiB)
    Known<int> shared_memory_per_block_optin_bytes; // opt-in maximum
    Known<int> shared_memory_allocation_unit_bytes;
    Known<int> reserved_shared_memory_per_block_bytes; // system use (1 KiB since CC 8.0)
    // Selectable shared-memory carve-outs in KiB (per SM), e.g. 0,8,16,...,228 on Hopper.
    std::optional<Sourced<std::vector<int>>> shared_memory_carveouts_kib;
    std::vector<IssueRate> issue_rates;
    bool operator==(const ComputeUnits&) const = default;
};

// Effective size of a cache level when a given shared-memory carve-out is selected (the
// unified L1/shared array of Volta and later: the more shared memory, the smaller the L1).
struct CarveoutSize {
    int shared_kib = 0;                    // the carve-out, KiB of shared memory per SM
    std::int64_t effective_size_bytes = 0; // the level's capacity measured with it
    bool operator==(const CarveoutSize&) const = default;
};

// A memory level's bandwidth when loads and stores share it in a given mix (DRAM: the bus turns
// between reads and writes, so a mix moves fewer bytes a second than loads or stores alone).
struct MixedBandwidth {
    double store_fraction = 0; // stored bytes over all bytes moved, 0 (loads) .. 1 (stores)
    double bandwidth_gbs = 0;  // loads + stores, 1e9 bytes/s, whole device
    bool operator==(const MixedBandwidth&) const = default;
};

// One point of the latency under load: a dependent load's latency while the rest of the GPU
// streams a mix at bandwidth_gbs (the probe's loaded_latency benchmark, docs/probe.md).
struct LoadedLatency {
    double store_fraction = 0;        // of the streams' bytes, 0 (loads) .. 1 (stores)
    double bandwidth_gbs = 0;         // the streams' loads + stores, 1e9 bytes/s, whole device
    double latency_cycles = 0;        // load-to-use latency of the chase at that load, SM cycles
    double latency_stddev_cycles = 0; // its standard deviation, hop by hop; 0: not measured
    bool operator==(const LoadedLatency&) const = default;
};

// The DRAM bandwidth a mix reaches while each SM keeps a given number of load bytes in flight
// (the probe's mix streams at each launch shape; by Little's law the loads' latency under that
// load is loads_in_flight_bytes_per_sm x SMs over the load bandwidth).
struct InFlightBandwidth {
    double store_fraction = 0;               // of the mix's bytes, 0 (loads) .. below 1
    double loads_in_flight_bytes_per_sm = 0; // load bytes an SM's threads had requested
    double bandwidth_gbs = 0;                // loads + stores reached, 1e9 bytes/s, whole device
    bool operator==(const InFlightBandwidth&) const = default;
};

// One level of the memory hierarchy: "l1", "l2", "dram", or a special memory below.
struct MemoryLevel {
    std::string name;      // unique within the machine
    std::string shared_by; // "sm" (one per SM), "gpu" (one for the device), "tpc", "gpc", ...
    Known<std::int64_t> size_bytes;           // capacity (for L1: the unified L1/shared array)
    Known<std::int64_t> effective_size_bytes; // what one SM effectively sees (partitioned L2)
    Known<int> line_bytes;
    Known<int> sector_bytes;
    Known<int> ways; // lines per set (associativity); the L1's makes the volume model simulate it
    Known<double> latency_cycles;          // load-to-use latency on a hit, SM cycles
    Known<double> peak_bandwidth_gbs;      // 1e9 bytes/s, whole device
    Known<double> sustained_bandwidth_gbs; // measured or paper-reported achievable (loads)
    Known<double> store_bandwidth_gbs;     // sustained store bandwidth, 1e9 bytes/s, whole device
    Known<double> latency_near_cycles;     // partitioned L2: hit latency, near partition, cycles
    Known<double> latency_far_cycles;      // partitioned L2: hit latency, far partition, cycles
    Known<int> partitions;                 // L2 partitions / DRAM channels
    Known<int> count_per_sm;               // instances per SM (e.g. texture caches per SM)
    // The name of another level or special memory that is physically the same cache (e.g. the
    // texture cache is the L1 since Volta: "l1").
    Known<std::string> same_cache_as;
    // Capacity by shared-memory carve-out, sorted by shared_kib (measured by the probe).
    std::optional<Sourced<std::vector<CarveoutSize>>> effective_size_by_carveout;
    // Bandwidth by load/store mix, sorted by store fraction (dram only; the limiter model
    // interpolates it for a kernel's mix, else divides by sustained_bandwidth_gbs).
    std::optional<Sourced<std::vector<MixedBandwidth>>> mixed_bandwidth_by_store_fraction;
    // The latency of a dependent load against the bandwidth other warps stream at, sorted by
    // store fraction and then bandwidth (dram only; measured by the probe, read by no model
    // yet: lab/notes/accuracy, 2026-11-27d).
    std::optional<Sourced<std::vector<LoadedLatency>>> latency_under_load;
    // The bandwidth by load bytes in flight an SM, sorted by store fraction and then bytes in
    // flight (dram only; the limiter model's DRAM in-flight limit: docs/volume-model.md).
    std::optional<Sourced<std::vector<InFlightBandwidth>>> bandwidth_by_loads_in_flight;
    bool operator==(const MemoryLevel&) const = default;
};

// One level of address translation: "l1_tlb", "l2_tlb", ...
struct TlbLevel {
    std::string name;                  // unique within the machine
    std::string shared_by;             // "sm", "tpc", "gpc", "gpu"
    Known<std::int64_t> reach_bytes;   // address range the TLB covers (entries x page size)
    Known<std::int64_t> page_bytes;    // page size it translates (a power of two)
    Known<double> miss_latency_cycles; // extra SM cycles of a miss in this level
    bool operator==(const TlbLevel&) const = default;
};

struct SharedMemoryBanks {
    Known<int> banks;
    Known<int> bank_width_bytes;
    // Two bank-conflict-free addresses farther apart than this are not served in the same L1
    // wavefront (Ernst et al. 2023, sec. 4.2: "close" addresses pair, "far" ones do not).
    Known<int> wavefront_window_bytes;
    // How a global load whose lines partly miss L1 is served: "none" (or absent), in the
    // wavefronts of the bank rule alone (Ernst et al. 2023, sec. 4.2); "after_hits", the lanes
    // of lines that miss or are still being filled in a pass of their own after those of lines
    // in L1 (measured on Hopper, docs/volume-model.md). Needs the simulated L1 (l1 `ways`).
    Known<std::string> miss_pass;
    bool operator==(const SharedMemoryBanks&) const = default;
};

// Hong & Kim 2009, Table 1 / Table 6 machine parameters.
struct MwpCwpParameters {
    Known<double> mem_ld_cycles;               // Mem_LD
    Known<double> departure_del_uncoal_cycles; // Departure_del_uncoal
    Known<double> departure_del_coal_cycles;   // Departure_del_coal
    Known<double> issue_cycles;                // Issue_cycles
    bool operator==(const MwpCwpParameters&) const = default;
};

// Ernst et al. 2023, sec. 4.5, eq. (1)-(5): hit rate = a * exp(-b * exp(-c * O)).
struct CapacityFit {
    Sourced<double> a;
    Sourced<double> b;
    Sourced<double> c;
    bool operator==(const CapacityFit&) const = default;
};

struct CapacityFits {
    std::optional<CapacityFit> l1_redundant_loads;
    std::optional<CapacityFit> y_layer_overlap;
    std::optional<CapacityFit> z_layer_overlap;
    std::optional<CapacityFit> l2_redundant_stores;
    // kerncast's extension: eq. (5) for the L2 with one wave as the group (volumes.hpp).
    std::optional<CapacityFit> l2_redundant_loads;
    bool operator==(const CapacityFits&) const = default;
};

// Dong & Pai 2025, sec. 3.2: the shared-memory atomic unit's total time T(n, e, c), cycles,
// of n warp-instructions issued at once on one SM (c of them compare-and-swap, the rest the
// grid's fetch-and-op), each with e active threads on one address. S = T / n (eq. 3).
// One grid per fetch-and-op kind; the axes are the sampled points, and for every n the CAS
// count runs over all of 0..n (the compact form of docs/machine-format.md).
struct AtomicServiceGrid {
    std::string operation;           // "add" (returning fetch-and-add) or "popc_inc" (increment
                                     // whose result is unused: ATOMS.POPC.INC on Ampere+)
    std::vector<int> queued_warps;   // n axis, strictly ascending, >= 1
    std::vector<int> active_threads; // e axis, strictly ascending, 1..warp size
    // total_cycles[i][j][c] = T(queued_warps[i], active_threads[j], c), c = 0..queued_warps[i].
    std::vector<std::vector<std::vector<double>>> total_cycles;
    bool operator==(const AtomicServiceGrid&) const = default;
};

struct AtomicServiceTable {
    std::string source; // key into MachineModel::sources: the measurement (or publication)
    std::vector<AtomicServiceGrid> operations;
    // The grid of that operation, or nullptr.
    const AtomicServiceGrid* grid(const std::string& operation) const {
        for (const auto& g : operations)
            if (g.operation == operation)
                return &g;
        return nullptr;
    }
    bool operator==(const AtomicServiceTable&) const = default;
};

struct MachineModel {
    MachineIdentity identity;
    std::map<std::string, Provenance> sources;
    ComputeUnits compute;
    std::vector<MemoryLevel> memory;           // ordered from the SM outwards: l1, l2, dram
    std::vector<MemoryLevel> special_memories; // texture, readonly, constant_l1, constant_l15
    std::vector<TlbLevel> tlbs;                // address translation, from the SM outwards
    SharedMemoryBanks shared_memory_banks;
    MwpCwpParameters mwp_cwp;
    CapacityFits capacity_fits;
    std::map<std::string, Sourced<double>> calibrated_costs; // Stevens & Klöckner parameters
    std::optional<AtomicServiceTable> atomic_service_times;

    // The level of that name in memory or special_memories, or nullptr.
    const MemoryLevel* level(const std::string& name) const;

    bool operator==(const MachineModel&) const = default;
};

} // namespace kerncast
