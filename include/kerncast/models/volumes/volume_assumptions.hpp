// What a volume forecast assumed where the machine or the kernel left it a choice, as data:
// predict_volumes records it in VolumePrediction::assumptions, and the view says it in words
// (volume_notes, volume_view.hpp). Nothing here is English.
#pragma once

#include "kerncast/models/volumes/capacity_coverage.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

// Where the L1 capacity misses come from (docs/volume-model.md, "L1").
enum class L1MissSource {
    capacity_fit,         // the l1_redundant_loads fit (eq. 5): the machine gives no L1 ways
    capacity_fit_instead, // the fit, because the simulated L1 could not run here
    simulation,           // the simulated L1 of one SM (l1_simulation.hpp)
};

struct L1MissAssumption {
    L1MissSource source = L1MissSource::capacity_fit;
    std::string simulation_refused; // capacity_fit_instead: why the simulation did not run
    // simulation: the L1 simulated, lines of line_bytes in sets of `ways`, LRU.
    std::int64_t lines = 0;
    std::int64_t line_bytes = 0;
    std::int64_t ways = 0;
    // The machine asks for the miss pass (shared_memory_banks.miss_pass "after_hits"), and,
    // when it ran, the cycles a fill takes (the L2 latency).
    bool miss_pass_requested = false;
    std::optional<double> miss_pass_fill_cycles;
};

// Why a thread's DRAM loads in flight are not limited by a register window (load_window.hpp).
enum class NoLoadWindow {
    none,              // a window applies
    sequential_loop,   // its loads run in a sequential loop
    no_reserve,        // the machine gives no compute.load_window_reserved_registers
    registers_unknown, // the registers per thread are unknown
};

// One barrier phase's DRAM loads (InFlightLoadPhase, limiter.hpp): the global loads of the
// statements between two barriers.
struct DramLoadPhase {
    std::vector<std::string> arrays; // the global arrays it loads, in the order of their loads
    double loads_per_thread = 0;     // its global loads a thread executes
    double window_fraction = 1;      // of them in flight at once (loads_in_flight_fraction)
    double dram_load_bytes_per_point = 0;
    double bytes_per_sm = 0; // its loads in flight an SM
};

// The DRAM load bytes an SM's threads keep in flight (LimiterInputs), factor by factor:
// resident threads x the fraction still running x points a thread x the share of its loads
// its registers let it issue at once x DRAM load bytes a point, per barrier phase.
struct DramLoadsInFlight {
    // The phases whose loads reach DRAM, in order: one where no barrier separates the kernel's
    // DRAM loads.
    std::vector<DramLoadPhase> phases;
    // A barrier sits in a sequential loop: its phases repeat every iteration, while `phases`
    // count each over all the iterations.
    bool barrier_in_loop = false;
    double resident_threads = 0;
    // Block retirement (block_retirement.hpp): a block's slots free when its last warp ends.
    // nullopt warp_duration_cv: not applied (the machine gives none), running_fraction 1.
    std::optional<double> warp_duration_cv;
    double running_fraction = 1;
    int warps_per_block = 0;
    double points_per_thread = 1;
    // The load window: `window` values of value_bytes = (registers - reserved) / per value.
    NoLoadWindow no_window = NoLoadWindow::none;
    std::optional<int> window;
    int registers_per_thread = 0;
    int reserved_registers = 0;
    int value_bytes = 4;
    int registers_per_value = 1;
    // The dram level's bandwidth_by_loads_in_flight source key ("" when the machine has none).
    std::string table_source;
};

// A limiter that divided by a bandwidth interpolated for the kernel's store share, where the
// level measured mixed loads and stores (mixed_bandwidth_by_store_fraction).
struct MixedBandwidthUse {
    std::string limiter; // "DRAM", "L2"
    std::string level;   // "dram", "l2"
    std::string bytes;   // "DRAM bytes", "L2 <-> L1 bytes"
    double bandwidth_bytes_per_s = 0;
    double store_fraction = 0;
    double sustained_bytes_per_s = 0; // sustained_bandwidth_gbs: the limit without the list
};

// A capacity term of one metric that rests on a part of its curve no measurement places.
struct UncoveredMetricTerm {
    std::string metric; // "L2->L1 load", "DRAM load", "DRAM store"
    UncoveredCapacityTerm term;
};

struct VolumeAssumptions {
    L1MissAssumption l1;
    // The machine has no capacity_fits.l2_redundant_loads: redundant L2 loads within a wave hit.
    bool l2_redundant_loads_assumed_hit = false;
    std::vector<UncoveredMetricTerm> uncovered;
    std::int64_t machine_sms = 0; // for an under-filled grid's words
    DramLoadsInFlight dram_in_flight;
    std::vector<MixedBandwidthUse> mixed_bandwidths;
    // The machine gives no compute.block_launches_per_cycle: block starts never limit.
    bool block_launch_rate_unknown = false;
    // The machine's dram level gives no bandwidth_by_loads_in_flight: the loads a launch keeps
    // in flight never limit (no latency limit, whatever the occupancy).
    bool dram_in_flight_unknown = false;
};

} // namespace kerncast::models
