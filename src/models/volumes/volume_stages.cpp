#include "kerncast/models/volumes/volume_stages.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <fmt/format.h>
#include <type_traits>

namespace kerncast::models {

namespace {

std::string number(double value) {
    return fmt::format("{:.6g}", value);
}

template <class T>
void add(VolumeStage& stage, std::string name, const Known<T>& field, const char* unit = "") {
    if (!field)
        return;
    std::string value;
    if constexpr (std::is_same_v<T, std::string>)
        value = field->value;
    else if constexpr (std::is_integral_v<T>)
        value = fmt::format("{}", field->value);
    else
        value = number(static_cast<double>(field->value));
    if (*unit != '\0')
        value += std::string(" ") + unit;
    stage.parameters.push_back({std::move(name), std::move(value), field->source});
}

void add_fit(VolumeStage& stage, const char* name, const std::optional<CapacityFit>& fit) {
    if (!fit)
        return;
    stage.parameters.push_back({std::string("capacity_fits.") + name,
                                fmt::format("a {}, b {}, c {}", number(fit->a.value),
                                            number(fit->b.value), number(fit->c.value)),
                                fit->b.source});
}

template <class T>
void add_level(VolumeStage& stage, const MemoryLevel& level, const char* field,
               const Known<T>& value, const char* unit) {
    add(stage, "memory." + level.name + "." + field, value, unit);
}

// The bandwidth a limiter divides by: sustained, else peak.
void add_bandwidth(VolumeStage& stage, const MemoryLevel& level) {
    if (level.sustained_bandwidth_gbs)
        add(stage, "memory." + level.name + ".sustained_bandwidth_gbs",
            level.sustained_bandwidth_gbs, "GB/s");
    else
        add(stage, "memory." + level.name + ".peak_bandwidth_gbs", level.peak_bandwidth_gbs,
            "GB/s");
}

template <class Table>
void add_table(VolumeStage& stage, std::string name, const std::optional<Sourced<Table>>& table,
               const char* what) {
    if (table)
        stage.parameters.push_back(
            {std::move(name), fmt::format("{} {}", table->value.size(), what), table->source});
}

const Known<double>& clock_of(const MachineModel& machine) {
    return machine.compute.boost_clock_mhz ? machine.compute.boost_clock_mhz
                                           : machine.compute.base_clock_mhz;
}

VolumeStage stage(std::string name, std::string section, bool runs, std::string instead = {}) {
    VolumeStage s;
    s.name = std::move(name);
    s.section = std::move(section);
    s.runs = runs;
    if (!runs)
        s.instead = std::move(instead);
    return s;
}

void l1_stages(VolumeStagePlan& plan, const MachineModel& machine) {
    const MemoryLevel& l1 = *machine.level("l1");
    const MemoryLevel& l2 = *machine.level("l2");
    const SharedMemoryBanks& banks = machine.shared_memory_banks;
    VolumeStage bank_rule = stage("l1_bank_rule", "L1 cycles", true);
    add(bank_rule, "shared_memory_banks.banks", banks.banks);
    add(bank_rule, "shared_memory_banks.bank_width_bytes", banks.bank_width_bytes, "B");
    add(bank_rule, "shared_memory_banks.wavefront_window_bytes", banks.wavefront_window_bytes, "B");
    plan.stages.push_back(bank_rule);

    const bool after_hits = banks.miss_pass && banks.miss_pass->value == "after_hits";
    VolumeStage miss_pass =
        stage("l1_miss_pass", "L1 cycles", plan.miss_pass,
              after_hits ? "needs the simulated L1 (memory.l1.ways): the bank rule alone"
                         : "shared_memory_banks.miss_pass is not \"after_hits\": the bank "
                           "rule alone");
    add(miss_pass, "shared_memory_banks.miss_pass", banks.miss_pass);
    add(miss_pass, "memory.l2.latency_cycles", l2.latency_cycles, "cycles");
    plan.stages.push_back(miss_pass);

    VolumeStage fit = stage("l1_capacity_fit", "L2 -> L1", !plan.simulated_l1,
                            "the simulated L1 (kernels without a static request order keep "
                            "the fit)");
    add_fit(fit, "l1_redundant_loads", machine.capacity_fits.l1_redundant_loads);
    plan.stages.push_back(fit);

    VolumeStage simulation = stage("l1_simulation", "L2 -> L1", plan.simulated_l1,
                                   "no memory.l1.ways: the l1_redundant_loads fit");
    add_level(simulation, l1, "size_bytes", l1.size_bytes, "B");
    add_level(simulation, l1, "line_bytes", l1.line_bytes, "B");
    add_level(simulation, l1, "sector_bytes", l1.sector_bytes, "B");
    add(simulation, "memory.l1.ways", l1.ways);
    plan.stages.push_back(simulation);
}

void l2_stages(VolumeStagePlan& plan, const MachineModel& machine) {
    const MemoryLevel& l2 = *machine.level("l2");
    const CapacityFits& fits = machine.capacity_fits;
    VolumeStage waves = stage("waves", "DRAM -> L2", true);
    add(waves, "compute.sm_count", machine.compute.sm_count);
    waves.parameters.push_back({"sampled waves", "16 at most", ""});
    plan.stages.push_back(waves);

    VolumeStage layers = stage("layer_sets", "DRAM -> L2", true);
    add_fit(layers, "y_layer_overlap", fits.y_layer_overlap);
    add_fit(layers, "z_layer_overlap", fits.z_layer_overlap);
    if (l2.effective_size_bytes)
        add_level(layers, l2, "effective_size_bytes", l2.effective_size_bytes, "B");
    else
        add_level(layers, l2, "size_bytes", l2.size_bytes, "B");
    plan.stages.push_back(layers);

    VolumeStage redundant =
        stage("l2_redundant_loads", "DRAM -> L2", plan.l2_redundant_loads,
              "no capacity_fits.l2_redundant_loads: a wave's redundant L2 loads hit (the "
              "paper's assumption)");
    add_fit(redundant, "l2_redundant_loads", fits.l2_redundant_loads);
    plan.stages.push_back(redundant);

    VolumeStage partial = stage("partial_stores", "DRAM -> L2", true);
    add_fit(partial, "l2_redundant_stores", fits.l2_redundant_stores);
    plan.stages.push_back(partial);
}

void bandwidth_stages(VolumeStagePlan& plan, const MemoryLevel& level, bool mixed) {
    VolumeStage limit = stage(level.name + "_limit", "Limiters", true);
    add_bandwidth(limit, level);
    plan.stages.push_back(limit);
    VolumeStage mix = stage(level.name + "_mixed_bandwidth", "Limiters", mixed,
                            "no memory." + level.name +
                                ".mixed_bandwidth_by_store_fraction: one bandwidth for every mix");
    add_table(mix, "memory." + level.name + ".mixed_bandwidth_by_store_fraction",
              level.mixed_bandwidth_by_store_fraction, "mixes");
    plan.stages.push_back(mix);
}

void limiter_stages(VolumeStagePlan& plan, const MachineModel& machine) {
    const MemoryLevel& dram = *machine.level("dram");
    bandwidth_stages(plan, dram, plan.dram_mixed_bandwidth);
    bandwidth_stages(plan, *machine.level("l2"), plan.l2_mixed_bandwidth);
    const char* clock_name =
        machine.compute.boost_clock_mhz ? "compute.boost_clock_mhz" : "compute.base_clock_mhz";
    for (const char* name : {"l1_limit", "flops_limit"}) {
        VolumeStage s = stage(name, "Limiters", true);
        add(s, "compute.sm_count", machine.compute.sm_count);
        add(s, clock_name, clock_of(machine), "MHz");
        plan.stages.push_back(s);
    }
    VolumeStage launch =
        stage("launch_limit", "Limiters", plan.launch_limit,
              "no compute.block_launches_per_cycle: the block launch rate does not limit");
    add(launch, "compute.block_launches_per_cycle", machine.compute.block_launches_per_cycle,
        "blocks/cycle");
    plan.stages.push_back(launch);

    const char* needs_table = "no memory.dram.bandwidth_by_loads_in_flight: no limit by the "
                              "DRAM loads in flight";
    VolumeStage in_flight = stage("dram_in_flight_limit", "DRAM in flight (Little's law)",
                                  plan.dram_in_flight, needs_table);
    add_table(in_flight, "memory.dram.bandwidth_by_loads_in_flight",
              dram.bandwidth_by_loads_in_flight, "points");
    add(in_flight, "memory.dram.latency_cycles", dram.latency_cycles, "cycles");
    plan.stages.push_back(in_flight);

    VolumeStage retirement =
        stage("block_retirement", "DRAM in flight (Little's law)", plan.block_retirement,
              plan.dram_in_flight ? "no compute.warp_duration_cv: every resident thread counts"
                                  : needs_table);
    add(retirement, "compute.warp_duration_cv", machine.compute.warp_duration_cv);
    plan.stages.push_back(retirement);

    VolumeStage window =
        stage("load_window", "DRAM in flight (Little's law)", plan.load_window,
              plan.dram_in_flight
                  ? "no compute.load_window_reserved_registers: every load of a point counts"
                  : needs_table);
    add(window, "compute.load_window_reserved_registers",
        machine.compute.load_window_reserved_registers, "registers");
    plan.stages.push_back(window);
}

} // namespace

const VolumeStage& VolumeStagePlan::stage(std::string_view name) const {
    for (const VolumeStage& s : stages)
        if (s.name == name)
            return s;
    KERNCAST_CHECK(false, "no volume-model stage " + std::string(name));
    return stages.front(); // not reached
}

VolumeStagePlan volume_stage_decisions(const MachineModel& machine) {
    const MemoryLevel& l1 = *machine.level("l1");
    const MemoryLevel& l2 = *machine.level("l2");
    const MemoryLevel* dram = machine.level("dram");
    KERNCAST_CHECK(dram != nullptr, "check_volume_machine lets a machine without dram through");
    VolumeStagePlan plan;
    plan.simulated_l1 = l1.ways.has_value();
    const auto& miss_pass = machine.shared_memory_banks.miss_pass;
    plan.miss_pass = plan.simulated_l1 && miss_pass && miss_pass->value == "after_hits";
    plan.l2_redundant_loads = machine.capacity_fits.l2_redundant_loads.has_value();
    plan.launch_limit = machine.compute.block_launches_per_cycle.has_value();
    plan.dram_mixed_bandwidth = dram->mixed_bandwidth_by_store_fraction.has_value();
    plan.l2_mixed_bandwidth = l2.mixed_bandwidth_by_store_fraction.has_value();
    plan.dram_in_flight = dram->bandwidth_by_loads_in_flight.has_value();
    plan.block_retirement = plan.dram_in_flight && machine.compute.warp_duration_cv.has_value();
    plan.load_window =
        plan.dram_in_flight && machine.compute.load_window_reserved_registers.has_value();
    return plan;
}

VolumeStagePlan plan_volume_stages(const MachineModel& machine) {
    check_volume_machine(machine);
    VolumeStagePlan plan = volume_stage_decisions(machine);
    l1_stages(plan, machine);
    l2_stages(plan, machine);
    limiter_stages(plan, machine);
    return plan;
}

} // namespace kerncast::models
