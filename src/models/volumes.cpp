#include "kerncast/models/volumes.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace kerncast::models {

namespace {

const CapacityFit& required_fit(const std::optional<CapacityFit>& fit, const MachineModel& machine,
                                const char* name) {
    if (!fit)
        throw_input_error("machine '" + machine.identity.id + "' has no capacity_fits." + name +
                          " (Ernst et al. 2023, sec. 4.5), which the volume model needs");
    return *fit;
}

std::int64_t required_int(const Known<int>& value, const MachineModel& machine,
                          const std::string& field) {
    if (!value)
        throw_input_error("machine '" + machine.identity.id + "' has no " + field +
                          ", which the volume model needs");
    return value->value;
}

const MemoryLevel& required_level(const MachineModel& machine, const char* name) {
    const MemoryLevel* level = machine.level(name);
    if (!machine.level("l1") && !machine.level("l2"))
        throw_input_error("machine '" + machine.identity.id +
                          "' has no L1 or L2 cache: the volume model (Ernst et al. 2023) "
                          "estimates the traffic of a GPU whose global loads pass through L1 and "
                          "L2 caches (Volta and later); `kerncast mwp` models GPUs without them "
                          "(Hong & Kim 2009)");
    if (!level || !level->size_bytes)
        throw_input_error("machine '" + machine.identity.id + "' has no size for memory level " +
                          name + ", which the volume model needs");
    return *level;
}

// Issue rate (results per cycle per SM) of op/dtype, 0 when the machine has none.
double issue_rate(const MachineModel& machine, const std::string& op, const std::string& dtype) {
    for (const auto& rate : machine.compute.issue_rates)
        if (rate.op == op && rate.dtype == dtype)
            return rate.per_cycle_per_sm.value;
    return 0;
}

} // namespace

void check_volume_machine(const MachineModel& machine) {
    required_level(machine, "l1");
    required_level(machine, "l2");
    (void)l1_bank_layout(machine);
    required_int(machine.compute.sm_count, machine, "compute.sm_count");
    const CapacityFits& fits = machine.capacity_fits;
    required_fit(fits.l1_redundant_loads, machine, "l1_redundant_loads");
    required_fit(fits.y_layer_overlap, machine, "y_layer_overlap");
    required_fit(fits.z_layer_overlap, machine, "z_layer_overlap");
    required_fit(fits.l2_redundant_stores, machine, "l2_redundant_stores");
    (void)limiter_machine(machine);
}

VolumePrediction predict_volumes(const analysis::KernelAnalysis& analysis,
                                 const std::vector<std::int64_t>& params,
                                 const MachineModel& machine, const VolumeOptions& options) {
    check_volume_machine(machine);
    VolumePrediction p;
    p.launch = analysis.launch;
    const L1BankLayout layout = l1_bank_layout(machine);
    const MemoryLevel& l1 = required_level(machine, "l1");
    const MemoryLevel& l2 = required_level(machine, "l2");
    const std::int64_t sector = layout.sector_bytes;
    const std::int64_t line = l1.line_bytes ? l1.line_bytes->value : sector;
    const std::int64_t l2_sector = l2.sector_bytes ? l2.sector_bytes->value : sector;
    const std::int64_t l2_line = l2.line_bytes ? l2.line_bytes->value : line;
    const std::int64_t sms = required_int(machine.compute.sm_count, machine, "compute.sm_count");
    const auto& fits = machine.capacity_fits;
    const CapacityFit& l1_fit =
        required_fit(fits.l1_redundant_loads, machine, "l1_redundant_loads");
    const CapacityFit& y_fit = required_fit(fits.y_layer_overlap, machine, "y_layer_overlap");
    const CapacityFit& z_fit = required_fit(fits.z_layer_overlap, machine, "z_layer_overlap");
    const CapacityFit& store_fit =
        required_fit(fits.l2_redundant_stores, machine, "l2_redundant_stores");

    const WaveFootprints footprints(analysis, params, std::max(line, l2_line),
                                    options.linear_addresses);
    p.grid = footprints.grid();
    p.blocks = p.grid[0] * p.grid[1] * p.grid[2];
    p.points = footprints.points({BlockBox{{0, 0, 0}, p.grid}});
    if (p.points <= 0)
        throw_input_error("the kernel's domain is empty at these parameters: nothing to predict");

    // L1 wavefronts (sec. 4.2).
    std::vector<double> executions;
    for (const auto& access : analysis.accesses)
        executions.push_back(static_cast<double>(access.count_per_work_item.evaluate(params)) /
                             static_cast<double>(p.points));
    p.l1 = estimate_l1(analysis, params, layout, executions);

    // Occupancy -> the wave (sec. 4.4).
    LaunchResources resources;
    resources.threads_per_block = static_cast<int>(analysis.threads_per_block);
    p.registers = options.registers;
    resources.registers_per_thread = options.registers.per_thread;
    std::int64_t shared_bytes = 0;
    for (const auto& array : analysis.spec.arrays) {
        if (array.space != kernel::MemorySpace::shared)
            continue;
        std::int64_t elements = 1;
        for (const auto& extent : array.shape)
            elements *= kernel::evaluate_integer(
                *extent, [&](const std::string& name) -> std::optional<std::int64_t> {
                    auto at =
                        std::find(analysis.parameters.begin(), analysis.parameters.end(), name);
                    if (at == analysis.parameters.end())
                        return std::nullopt;
                    return params[static_cast<size_t>(at - analysis.parameters.begin())];
                });
        shared_bytes += elements * kernel::data_type_bytes(array.dtype);
    }
    resources.shared_memory_per_block_bytes = static_cast<int>(shared_bytes);
    p.occupancy = compute_occupancy(resources, machine);
    p.wave_blocks =
        std::min<std::int64_t>(p.blocks, std::int64_t{p.occupancy.active_blocks_per_sm} * sms);
    p.waves = (p.blocks + p.wave_blocks - 1) / p.wave_blocks;
    p.wave_first_block = (p.waves / 2) * p.wave_blocks;
    const std::int64_t wave_end = std::min(p.blocks, p.wave_first_block + p.wave_blocks);
    const std::vector<BlockBox> wave = block_boxes(p.wave_first_block, wave_end, p.grid);
    p.wave_points = footprints.points(wave);

    // One representative block in the middle of the grid (sec. 4.3).
    p.representative_block = {p.grid[0] / 2, p.grid[1] / 2, p.grid[2] / 2};
    const std::vector<BlockBox> block{
        BlockBox{p.representative_block,
                 {p.representative_block[0] + 1, p.representative_block[1] + 1,
                  p.representative_block[2] + 1}}};
    p.block_points = footprints.points(block);
    if (p.block_points <= 0 || p.wave_points <= 0)
        throw_input_error("the representative block or wave has no points inside the domain");

    const auto& arrays = footprints.arrays();
    // L1 capacity (eq. 4 for L1): 128 B lines of every resident block against the L1 left
    // over by shared memory.
    double block_line_bytes = 0;
    for (size_t a = 0; a < arrays.size(); ++a)
        block_line_bytes +=
            static_cast<double>(footprints.count(a, block, line, AccessFilter::all) * line);
    p.l1_capacity_bytes =
        static_cast<double>(l1.size_bytes->value) -
        static_cast<double>(p.occupancy.active_blocks_per_sm) * static_cast<double>(shared_bytes);
    p.l1_allocated_bytes = block_line_bytes * p.occupancy.active_blocks_per_sm;
    p.l1_oversubscription =
        p.l1_capacity_bytes > 0 ? p.l1_allocated_bytes / p.l1_capacity_bytes : 1e9;
    p.l1_hit_rate = capacity_hit_rate(l1_fit, p.l1_oversubscription);

    // L2 capacity and the layer sets (sec. 4.4.1, 4.4.2).
    p.l2_capacity_bytes = static_cast<double>(
        l2.effective_size_bytes ? l2.effective_size_bytes->value : l2.size_bytes->value);
    const std::array<std::int64_t, 3> distance{1, p.grid[0], p.grid[0] * p.grid[1]};
    std::array<std::vector<BlockBox>, 3> layer_blocks;
    std::array<std::vector<BlockBox>, 3> layer_and_wave;
    for (size_t d = 0; d < 3; ++d) {
        LayerSet& layer = p.layers[d];
        // No layer along an axis the kernel does not map to threads (a 2D kernel has no z).
        if (analysis.spec.threads.global[d].empty() && analysis.spec.threads.block[d].empty()) {
            layer.first_block = p.wave_first_block;
            continue;
        }
        layer.first_block = std::max<std::int64_t>(0, p.wave_first_block - distance[d]);
        layer.blocks = p.wave_first_block - layer.first_block;
        layer_blocks[d] = block_boxes(layer.first_block, p.wave_first_block, p.grid);
        layer_and_wave[d] = block_boxes(layer.first_block, wave_end, p.grid);
        for (size_t a = 0; a < arrays.size(); ++a)
            layer.allocated_bytes += static_cast<double>(
                footprints.count(a, layer_and_wave[d], l2_line, AccessFilter::all) * l2_line);
        layer.oversubscription = layer.allocated_bytes / p.l2_capacity_bytes;
        layer.hit_rate = capacity_hit_rate(d == 2 ? z_fit : y_fit, layer.oversubscription);
    }
    for (size_t a = 0; a < arrays.size(); ++a)
        p.wave_allocated_bytes +=
            static_cast<double>(footprints.count(a, wave, l2_line, AccessFilter::all) * l2_line);
    p.wave_oversubscription = p.wave_allocated_bytes / p.l2_capacity_bytes;
    p.store_hit_rate = capacity_hit_rate(store_fit, p.wave_oversubscription);

    const double block_points = static_cast<double>(p.block_points);
    const double wave_points = static_cast<double>(p.wave_points);
    std::vector<double> request_bytes(arrays.size(), 0.0), store_bytes(arrays.size(), 0.0);
    for (const auto& cost : p.l1.accesses)
        for (size_t a = 0; a < arrays.size(); ++a)
            if (arrays[a].name == cost.array)
                (cost.direction == analysis::Direction::load ? request_bytes : store_bytes)[a] +=
                    cost.sector_bytes_per_point;

    for (size_t a = 0; a < arrays.size(); ++a) {
        ArrayVolumes v;
        v.array = arrays[a].name;
        if (arrays[a].loaded) {
            // L2 -> L1 (sec. 4.3, eq. 5).
            v.l1_load_request_bytes = request_bytes[a];
            v.l2_load_compulsory_bytes =
                static_cast<double>(footprints.count(a, block, sector, AccessFilter::loads) *
                                    sector) /
                block_points;
            const double redundant =
                std::max(0.0, v.l1_load_request_bytes - v.l2_load_compulsory_bytes);
            v.l2_load_capacity_bytes = (1.0 - p.l1_hit_rate) * redundant;
            v.l2_load_bytes = v.l2_load_compulsory_bytes + v.l2_load_capacity_bytes;
            // DRAM -> L2: the wave's unique sectors minus what the layer sets left in L2.
            const std::int64_t wave_sectors =
                footprints.count(a, wave, l2_sector, AccessFilter::loads);
            v.dram_load_wave_bytes = static_cast<double>(wave_sectors * l2_sector) / wave_points;
            std::int64_t shared_before = 0;
            double load = v.dram_load_wave_bytes;
            for (size_t d = 0; d < 3; ++d) {
                const std::int64_t shared = footprints.count_shared(a, wave, layer_blocks[d],
                                                                    l2_sector, AccessFilter::loads);
                const double overlap =
                    static_cast<double>((shared - shared_before) * l2_sector) / wave_points;
                shared_before = std::max(shared_before, shared);
                p.layers[d].overlap_bytes_per_point += overlap;
                v.dram_layer_hit_bytes[d] = p.layers[d].hit_rate * overlap;
                load -= v.dram_layer_hit_bytes[d];
            }
            v.dram_load_bytes = load;
        }
        if (arrays[a].stored) {
            v.l2_store_bytes = store_bytes[a];
            v.dram_store_bytes =
                static_cast<double>(footprints.count(a, wave, l2_sector, AccessFilter::stores) *
                                    l2_sector) /
                wave_points;
            // Partly written sectors of a block are completed in L2 by the neighbouring blocks
            // unless evicted first; then DRAM supplies the rest (sec. 4.4, fig. 18).
            const double partial =
                static_cast<double>(footprints.partial_store_granules(a, block, l2_sector) *
                                    l2_sector) /
                block_points;
            v.dram_partial_store_bytes = (1.0 - p.store_hit_rate) * partial;
            v.dram_load_bytes += v.dram_partial_store_bytes;
        }
        p.l2_load_bytes += v.l2_load_bytes;
        p.l2_store_bytes += v.l2_store_bytes;
        p.dram_load_bytes += v.dram_load_bytes;
        p.dram_store_bytes += v.dram_store_bytes;
        p.arrays.push_back(std::move(v));
    }

    // Floating-point work (sec. 4.1): fused multiply-adds issue once.
    const double total_points = static_cast<double>(p.points);
    const int warp = layout.warp_size;
    std::map<std::string, double> per_dtype_fma;
    for (const auto& op : analysis.operations) {
        if (!kernel::is_floating(op.dtype))
            continue;
        double count = static_cast<double>(op.count.evaluate(params));
        if (op.granularity == analysis::Granularity::subgroup)
            count *= warp;
        else if (op.granularity == analysis::Granularity::work_group)
            count *= static_cast<double>(analysis.threads_per_block);
        count /= total_points;
        const std::string dtype = kernel::data_type_name(op.dtype);
        if (op.operation == "add" || op.operation == "mul") {
            p.flops_per_point += count;
            const double rate = issue_rate(machine, op.operation, dtype);
            if (rate > 0)
                p.fp_cycles_per_point += count / rate;
        } else if (op.operation == "madd") {
            const double rate = issue_rate(machine, "fma", dtype);
            const double add = issue_rate(machine, "add", dtype),
                         mul = issue_rate(machine, "mul", dtype);
            if (rate > 0 && add > 0 && mul > 0)
                p.fp_cycles_per_point += count / rate - count / add - count / mul;
        } else if (op.operation == "div" || op.operation.rfind("func:", 0) == 0) {
            p.flops_per_point += count;
            const double rate = issue_rate(machine, "special", dtype);
            if (rate > 0)
                p.fp_cycles_per_point += count / rate;
        }
    }
    p.fp_cycles_per_point = std::max(0.0, p.fp_cycles_per_point);

    for (const auto& access : analysis.accesses)
        if (access.indirect && access.space == kernel::MemorySpace::global)
            p.notes.push_back(
                "'" + access.text +
                "' has a data-dependent address and is not part of the volumes or L1 cycles.");
    p.notes.push_back(register_count_note(options.registers));
    if (p.waves == 1)
        p.notes.push_back("The launch fits in one wave: no reuse from earlier blocks is possible.");

    LimiterInputs inputs;
    inputs.dram_bytes_per_point = p.dram_load_bytes + p.dram_store_bytes;
    inputs.l2_bytes_per_point = p.l2_load_bytes + p.l2_store_bytes;
    inputs.l1_cycles_per_point = p.l1.cycles_per_point;
    inputs.fp_cycles_per_point = p.fp_cycles_per_point;
    p.limiter = evaluate_limiters(inputs, limiter_machine(machine), p.points);
    return p;
}

} // namespace kerncast::models
