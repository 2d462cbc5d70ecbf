// The limiter model of Ernst et al. 2023, sec. 2: a roofline with two extra cache limiters,
// plus the rate at which the GPU starts thread blocks (the block scheduling term of the same
// authors' execution model, Tblocksched in te42kyfo/warpspeed's predict.py). Each limiter
// gives the time one point needs from one resource; the slowest binds. Where the machine
// measured the DRAM's bandwidth by the load bytes in flight, a sixth limit applies Little's law:
// a kernel that keeps few loads in flight waits on their latency before the DRAM is busy.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::models {

enum class Limiter { dram, l2, l1, fp, launch, dram_in_flight };
// "DRAM", "L2", "L1", "FP", "launch", "DRAM in flight"
const char* limiter_name(Limiter limiter);

// The DRAM loads of one barrier phase: the statements between two barriers. A thread issues
// no load after a barrier before every thread of its block has reached it, so each phase's
// loads are in flight on their own, and the phases' DRAM bytes move one phase after the other.
struct InFlightLoadPhase {
    double load_share = 1; // of the kernel's DRAM load bytes (the phases' shares sum to 1)
    // The DRAM load bytes an SM's resident threads have requested at once in this phase:
    // resident threads x the fraction of them still running (busy_warp_slot_fraction,
    // block_retirement.hpp) x the phase's DRAM load bytes a point x points a thread x the
    // fraction of the phase's loads its registers let a thread issue before their first use
    // (loads_in_flight_fraction, load_window.hpp).
    double loads_in_flight_bytes_per_sm = 0;
};

// Per point (one thread-fold instance of the kernel's domain).
struct LimiterInputs {
    double dram_bytes_per_point = 0;       // loads + stores between DRAM and L2
    double dram_store_bytes_per_point = 0; // of which stores (L2 -> DRAM)
    double l2_bytes_per_point = 0;         // loads L2 -> L1 + stores L1 -> L2
    double l2_store_bytes_per_point = 0;   // of which stores (L1 -> L2)
    double l1_cycles_per_point = 0;        // L1 wavefronts of one SM
    double fp_cycles_per_point = 0;        // floating-point issue cycles of one SM
    double blocks_per_point = 0;           // thread blocks of the launch over its points
    // The kernel's barrier phases that load from DRAM (InFlightLoadPhase), in order; empty: no
    // in-flight limit.
    std::vector<InFlightLoadPhase> dram_in_flight_phases;
};

// A level's bandwidth for a load/store mix (its mixed_bandwidth_by_store_fraction).
struct MixedBandwidthRate {
    double store_fraction = 0; // stored bytes over all bytes moved
    double bytes_per_s = 0;    // loads + stores
};

// One measured point of the DRAM's bandwidth by load bytes in flight, with the loads' latency
// that Little's law gives for it: in flight bytes x SMs / load bandwidth.
struct InFlightPoint {
    double loads_in_flight_bytes_per_sm = 0;
    double bytes_per_s = 0; // loads + stores
    double latency_s = 0;   // of the loads
};

// The points of one load/store mix, sorted by bytes in flight.
struct InFlightCurve {
    double store_fraction = 0;
    std::vector<InFlightPoint> points;
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
    // The dram level's bandwidth_by_loads_in_flight by store fraction (empty: no in-flight
    // limit), its unloaded latency (latency_cycles over the clock; 0: not given) and the SMs.
    std::vector<InFlightCurve> dram_in_flight_curves;
    double dram_unloaded_latency_s = 0;
    int sm_count = 0;
    // SMs that keep loads in flight (Little's law's total is bytes an SM x these): sm_count,
    // or fewer for a grid smaller than one wave (with_busy_sms); 0: sm_count.
    double busy_sms = 0;
};

// Input Error naming the missing field when the machine lacks one.
LimiterMachine limiter_machine(const MachineModel& machine);

// The rates when only `busy_sms` of the machine's SMs have work (a grid smaller than one wave,
// VolumePrediction::busy_sms): the SM cycles a second and the SMs keeping loads in flight scale
// to them; the DRAM and L2 bandwidths stay the whole GPU's.
LimiterMachine with_busy_sms(LimiterMachine machine, double busy_sms);

// The DRAM (L2) bandwidth for a mix with this store fraction (stored bytes over all bytes):
// linear between the two nearest measured mixes, the nearest one's outside them; the sustained
// bandwidth when the machine gives no mixes for that level.
double dram_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction);
double l2_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction);

// The DRAM bandwidth (loads + stores) of a mix with this store fraction when each SM keeps
// `loads_in_flight_bytes_per_sm` of loads in flight. Per measured mix: the loads' latency is
// linear in the bytes in flight between the measured points, from the unloaded latency at none
// (the first point's latency where the machine gives none);
// by Little's law the loads then move bytes in flight x SMs / latency a second, and all bytes
// that over 1 - store fraction, at most the most the mix reached. Between mixes linear in the
// store fraction, the nearest mix's outside them. 0 when the machine gives no curves.
double dram_in_flight_bytes_per_s(const LimiterMachine& machine,
                                  double loads_in_flight_bytes_per_sm, double store_fraction);

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
    // The in-flight limit: each barrier phase's share of the DRAM bytes over
    // dram_in_flight_bytes_per_s at its loads in flight, summed over the phases; the bandwidth
    // is the DRAM bytes over that time. 0 when the machine has no bandwidth_by_loads_in_flight
    // or the kernel loads nothing from DRAM.
    double dram_in_flight_bandwidth_bytes_per_s = 0;
    double dram_in_flight_seconds_per_point = 0;
    // Each phase's bandwidth (of LimiterInputs::dram_in_flight_phases, in order).
    std::vector<double> dram_in_flight_phase_bytes_per_s;
    Limiter binding = Limiter::dram;
    double seconds_per_point = 0; // the largest of the six
    double points_per_second = 0;
    double seconds_per_launch = 0;
    // The second-largest limit: the limits overlap imperfectly, so of launches that bind at
    // one limit equally, the one whose next limit is smaller runs faster; rankings use it to
    // order equal forecasts (issue 46; docs/volume-model.md, "Limiters").
    double next_seconds_per_point = 0;
    double next_seconds_per_launch = 0;
};

LimiterResult evaluate_limiters(const LimiterInputs& inputs, const LimiterMachine& machine,
                                std::int64_t points_per_launch);

} // namespace kerncast::models
