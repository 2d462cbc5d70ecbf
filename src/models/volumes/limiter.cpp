#include "kerncast/models/volumes/limiter.hpp"

#include "kerncast/error.hpp"

#include <algorithm>

namespace kerncast::models {

const char* limiter_name(Limiter limiter) {
    switch (limiter) {
    case Limiter::dram:
        return "DRAM";
    case Limiter::l2:
        return "L2";
    case Limiter::l1:
        return "L1";
    case Limiter::fp:
        return "FP";
    case Limiter::launch:
        return "launch";
    case Limiter::dram_in_flight:
        return "DRAM in flight";
    }
    return "?";
}

namespace {

double bandwidth(const MachineModel& machine, const char* level_name) {
    const MemoryLevel* level = machine.level(level_name);
    if (level && level->sustained_bandwidth_gbs)
        return level->sustained_bandwidth_gbs->value * 1e9;
    if (level && level->peak_bandwidth_gbs)
        return level->peak_bandwidth_gbs->value * 1e9;
    throw_input_error("machine '" + machine.identity.id + "' has no bandwidth for memory level " +
                      level_name +
                      " (sustained_bandwidth_gbs or peak_bandwidth_gbs), which the limiter model "
                      "needs; measure it (`kerncast probe`) or give it in a machine file that "
                      "extends this one (docs/machine-format.md)");
}

// The level's mixed_bandwidth_by_store_fraction in bytes a second (empty when not given).
std::vector<MixedBandwidthRate> mixed_rates(const MachineModel& machine, const char* level_name) {
    std::vector<MixedBandwidthRate> rates;
    if (const MemoryLevel* level = machine.level(level_name))
        if (const auto& mixes = level->mixed_bandwidth_by_store_fraction)
            for (const auto& mix : mixes->value)
                rates.push_back({mix.store_fraction, mix.bandwidth_gbs * 1e9});
    return rates;
}

// Linear in the store fraction between the two nearest mixes, the nearest one's outside them;
// `alone` (loads alone, the sustained bandwidth) without mixes.
double mixed_rate(const std::vector<MixedBandwidthRate>& mixes, double alone,
                  double store_fraction) {
    if (mixes.empty())
        return alone;
    if (store_fraction <= mixes.front().store_fraction)
        return mixes.front().bytes_per_s;
    for (std::size_t i = 1; i < mixes.size(); ++i)
        if (store_fraction <= mixes[i].store_fraction) {
            const MixedBandwidthRate& below = mixes[i - 1];
            const MixedBandwidthRate& above = mixes[i];
            const double t = (store_fraction - below.store_fraction) /
                             (above.store_fraction - below.store_fraction);
            return below.bytes_per_s + t * (above.bytes_per_s - below.bytes_per_s);
        }
    return mixes.back().bytes_per_s;
}

// The dram level's bandwidth_by_loads_in_flight, one curve a store fraction, each point with the
// loads' latency by Little's law (empty when not given).
std::vector<InFlightCurve> in_flight_curves(const MachineModel& machine, int sm_count) {
    std::vector<InFlightCurve> curves;
    if (const MemoryLevel* level = machine.level("dram"))
        if (const auto& table = level->bandwidth_by_loads_in_flight)
            for (const InFlightBandwidth& entry : table->value) {
                if (!(entry.store_fraction < 1) || !(entry.bandwidth_gbs > 0))
                    continue; // no loads to keep in flight (the validator refuses it)
                if (curves.empty() || curves.back().store_fraction != entry.store_fraction)
                    curves.push_back({entry.store_fraction, {}});
                const double bytes_per_s = entry.bandwidth_gbs * 1e9;
                const double load_bytes_per_s = bytes_per_s * (1 - entry.store_fraction);
                curves.back().points.push_back(
                    {entry.loads_in_flight_bytes_per_sm, bytes_per_s,
                     entry.loads_in_flight_bytes_per_sm * sm_count / load_bytes_per_s});
            }
    return curves;
}

// One mix's bandwidth at these bytes in flight (InFlightCurve, dram_in_flight_bytes_per_s).
double curve_rate(const InFlightCurve& curve, double unloaded_latency_s, double sm_count,
                  double loads_in_flight_bytes_per_sm) {
    double most = 0;
    for (const InFlightPoint& point : curve.points)
        most = std::max(most, point.bytes_per_s);
    // Below the first point the latency falls towards the unloaded one (held at the first
    // point's where the machine gives no unloaded latency).
    double below_bytes = 0;
    double below_latency = unloaded_latency_s > 0 ? unloaded_latency_s
                           : curve.points.empty() ? 0
                                                  : curve.points.front().latency_s;
    for (const InFlightPoint& point : curve.points) {
        if (loads_in_flight_bytes_per_sm <= point.loads_in_flight_bytes_per_sm) {
            const double t = (loads_in_flight_bytes_per_sm - below_bytes) /
                             (point.loads_in_flight_bytes_per_sm - below_bytes);
            const double latency = below_latency + t * (point.latency_s - below_latency);
            const double load_bytes_per_s = loads_in_flight_bytes_per_sm * sm_count / latency;
            return std::min(most, load_bytes_per_s / (1 - curve.store_fraction));
        }
        below_bytes = point.loads_in_flight_bytes_per_sm;
        below_latency = point.latency_s;
    }
    return most; // more in flight than any measured launch: the mix's bandwidth
}

double store_fraction_of(double bytes, double store_bytes) {
    return bytes > 0 ? store_bytes / bytes : 0.0;
}

} // namespace

LimiterMachine limiter_machine(const MachineModel& machine) {
    LimiterMachine m;
    m.dram_bandwidth_bytes_per_s = bandwidth(machine, "dram");
    m.dram_bandwidth_by_store_fraction = mixed_rates(machine, "dram");
    m.l2_bandwidth_bytes_per_s = bandwidth(machine, "l2");
    m.l2_bandwidth_by_store_fraction = mixed_rates(machine, "l2");
    const auto& clock = machine.compute.boost_clock_mhz ? machine.compute.boost_clock_mhz
                                                        : machine.compute.base_clock_mhz;
    if (!clock || !machine.compute.sm_count)
        throw_input_error("machine '" + machine.identity.id +
                          "' needs compute.sm_count and a clock for the L1 and FP limiters");
    m.sm_cycles_per_s = clock->value * 1e6 * machine.compute.sm_count->value;
    m.sm_count = machine.compute.sm_count->value;
    m.busy_sms = m.sm_count;
    m.dram_in_flight_curves = in_flight_curves(machine, m.sm_count);
    if (const MemoryLevel* dram = machine.level("dram"); dram && dram->latency_cycles)
        m.dram_unloaded_latency_s = dram->latency_cycles->value / (clock->value * 1e6);
    if (const auto& rate = machine.compute.block_launches_per_cycle)
        m.block_launches_per_s = rate->value * clock->value * 1e6;
    return m;
}

LimiterMachine with_busy_sms(LimiterMachine machine, double busy_sms) {
    if (machine.sm_count > 0 && busy_sms > 0 && busy_sms < machine.sm_count) {
        machine.sm_cycles_per_s *= busy_sms / machine.sm_count;
        machine.busy_sms = busy_sms;
    }
    return machine;
}

double dram_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction) {
    return mixed_rate(machine.dram_bandwidth_by_store_fraction, machine.dram_bandwidth_bytes_per_s,
                      store_fraction);
}

double l2_bandwidth_bytes_per_s(const LimiterMachine& machine, double store_fraction) {
    return mixed_rate(machine.l2_bandwidth_by_store_fraction, machine.l2_bandwidth_bytes_per_s,
                      store_fraction);
}

double dram_in_flight_bytes_per_s(const LimiterMachine& machine,
                                  double loads_in_flight_bytes_per_sm, double store_fraction) {
    if (machine.dram_in_flight_curves.empty() || !(loads_in_flight_bytes_per_sm > 0))
        return 0;
    // Each mix's bandwidth at these bytes in flight, then linear in the store fraction between
    // the mixes as the mixed bandwidths are.
    std::vector<MixedBandwidthRate> mixes;
    for (const InFlightCurve& curve : machine.dram_in_flight_curves)
        mixes.push_back({curve.store_fraction,
                         curve_rate(curve, machine.dram_unloaded_latency_s,
                                    machine.busy_sms > 0 ? machine.busy_sms : machine.sm_count,
                                    loads_in_flight_bytes_per_sm)});
    return mixed_rate(mixes, 0, store_fraction);
}

LimiterResult evaluate_limiters(const LimiterInputs& inputs, const LimiterMachine& machine,
                                std::int64_t points_per_launch) {
    LimiterResult r;
    // Ernst et al. 2023, sec. 2: each limiter is a volume (or cycle count) over a rate. The
    // DRAM's and the L2's rates depend on the mix of loads and stores where the machine
    // measured mixes (lab/measured/*-2026-11-27/dram-mix: a 1:1 mix moves 7-13 % fewer bytes a
    // second through DRAM than loads alone on the H100 and H200; an L2 serves a few stores
    // among many loads at almost no cost, lab/measured/h100-2026-11-26b/l2-mix).
    r.dram_store_fraction =
        store_fraction_of(inputs.dram_bytes_per_point, inputs.dram_store_bytes_per_point);
    r.dram_bandwidth_bytes_per_s = dram_bandwidth_bytes_per_s(machine, r.dram_store_fraction);
    r.dram_seconds_per_point = inputs.dram_bytes_per_point / r.dram_bandwidth_bytes_per_s;
    r.l2_store_fraction =
        store_fraction_of(inputs.l2_bytes_per_point, inputs.l2_store_bytes_per_point);
    r.l2_bandwidth_bytes_per_s = l2_bandwidth_bytes_per_s(machine, r.l2_store_fraction);
    r.l2_seconds_per_point = inputs.l2_bytes_per_point / r.l2_bandwidth_bytes_per_s;
    r.l1_seconds_per_point = inputs.l1_cycles_per_point / machine.sm_cycles_per_s;
    r.fp_seconds_per_point = inputs.fp_cycles_per_point / machine.sm_cycles_per_s;
    // Every block must be started; the scheduler starts at most block_launches_per_s of them.
    if (machine.block_launches_per_s > 0)
        r.launch_seconds_per_point = inputs.blocks_per_point / machine.block_launches_per_s;
    // Little's law (docs/volume-model.md, DRAM in flight): the bandwidth the kernel's loads in
    // flight reach at the DRAM's latency under that load, where the machine measured it; phase
    // by phase, since a barrier keeps a thread's later loads from overlapping its earlier ones.
    for (const InFlightLoadPhase& phase : inputs.dram_in_flight_phases) {
        const double bytes_per_s = dram_in_flight_bytes_per_s(
            machine, phase.loads_in_flight_bytes_per_sm, r.dram_store_fraction);
        r.dram_in_flight_phase_bytes_per_s.push_back(bytes_per_s);
        if (bytes_per_s > 0)
            r.dram_in_flight_seconds_per_point +=
                phase.load_share * inputs.dram_bytes_per_point / bytes_per_s;
    }
    if (r.dram_in_flight_seconds_per_point > 0)
        r.dram_in_flight_bandwidth_bytes_per_s =
            inputs.dram_bytes_per_point / r.dram_in_flight_seconds_per_point;
    r.binding = Limiter::dram;
    r.seconds_per_point = r.dram_seconds_per_point;
    for (auto [limiter, seconds] :
         {std::pair{Limiter::l2, r.l2_seconds_per_point},
          std::pair{Limiter::l1, r.l1_seconds_per_point},
          std::pair{Limiter::fp, r.fp_seconds_per_point},
          std::pair{Limiter::launch, r.launch_seconds_per_point},
          std::pair{Limiter::dram_in_flight, r.dram_in_flight_seconds_per_point}})
        if (seconds > r.seconds_per_point) {
            r.next_seconds_per_point = r.seconds_per_point;
            r.binding = limiter;
            r.seconds_per_point = seconds;
        } else {
            r.next_seconds_per_point = std::max(r.next_seconds_per_point, seconds);
        }
    r.points_per_second = r.seconds_per_point > 0 ? 1.0 / r.seconds_per_point : 0.0;
    r.seconds_per_launch = r.seconds_per_point * static_cast<double>(points_per_launch);
    r.next_seconds_per_launch = r.next_seconds_per_point * static_cast<double>(points_per_launch);
    return r;
}

} // namespace kerncast::models
