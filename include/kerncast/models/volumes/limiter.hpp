// The limiter model of Ernst et al. 2023, sec. 2: a roofline with two extra cache limiters,
// plus the rate at which the GPU starts thread blocks (the block scheduling term of the same
// authors' execution model, Tblocksched in te42kyfo/warpspeed's predict.py). Each limiter
// gives the time one point needs from one resource; the slowest binds.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::models {

enum class Limiter { dram, l2, l1, fp, launch };
const char* limiter_name(Limiter limiter); // "DRAM", "L2", "L1", "FP", "launch"

// Per point (one thread-fold instance of the kernel's domain).
struct LimiterInputs {
    double dram_bytes_per_point = 0;       // loads + stores between DRAM and L2
    double dram_store_bytes_per_point = 0; // of which stores (L2 -> DRAM)
    double l2_bytes_per_point = 0;         // loads L2 -> L1 + stores L1 -> L2
    double l2_store_bytes_per_point = 0;   // of which stores (L1 -> L2)
    double l1_cycles_per_point = 0;        // L1 wavefronts of one SM
    double fp_cycles_per_point = 0;        // floating-point issue cycles of one SM
    double blocks_per_point = 0;           // thread blocks of the launch over its points
};

// A level's bandwidth for a load/store mix (its mixed_bandwidth_by_store_fraction).
struct MixedBandwidthRate {
    double store_fraction = 0; // stored bytes over all bytes moved
    double bytes_per_s = 0;    // loads + stores
};

// The machine numbers the limiters divide by, with the fields they came from.
struct LimiterMachine {
    double dram_bandwidth_bytes_per_s = 0; // memory level dram, sustained (else peak)
    double l2_bandwidth_bytes_per_s = 0;   // memory level l2, sustained (else peak)
    double sm_cycles_per_s = 0;            // SMs x clock (boost when known)
    // compute.block_launches_per_cycle x clock; 0 when the machine does not give the rate (the
    // launch limiter then does not limit).
    double block_launches_per_s = 0;
    // The dram and l2 levels' bandwidths by load/store mix, sorted by store fraction; where
    // given, the DRAM (L2) limiter divides by it (interpolated for the kernel's mix) instead of
    // the sustained bandwidth, which the probe measures with loads alone.
    std::vector<MixedBandwidthRate> dram_bandwidth_by_store_fraction;
    std::vector<MixedBandwidthRate> l2_bandwidth_by_store_fraction;
};

// Input Error naming the missing field when the machine lacks one.
LimiterMachine limiter_machine(const MachineModel& machine);

// The DRAM (L2) bandwidth for a mix with this store fraction (stored bytes over all bytes):
// linear between the two nearest measured mixes, the nearest one's outside them; the sustained
// bandwidth when the machine gives no mixes for that level.
double dram_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction);
double l2_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction);

struct LimiterResult {
    double dram_store_fraction = 0;        // stored bytes over all DRAM bytes (0 without any)
    double dram_bandwidth_bytes_per_s = 0; // what the DRAM limiter divided by
    double l2_store_fraction = 0;          // stored bytes over all L2 <-> L1 bytes
    double l2_bandwidth_bytes_per_s = 0;   // what the L2 limiter divided by
    double dram_seconds_per_point = 0;
    double l2_seconds_per_point = 0;
    double l1_seconds_per_point = 0;
    double fp_seconds_per_point = 0;
    double launch_seconds_per_point = 0; // 0 when the machine has no block launch rate
    Limiter binding = Limiter::dram;
    double seconds_per_point = 0; // the largest of the five
    double points_per_second = 0;
    double seconds_per_launch = 0;
};

LimiterResult evaluate_limiters(const LimiterInputs& inputs, const LimiterMachine& machine,
                                std::int64_t points_per_launch);

} // namespace kerncast::models
