#include "kerncast/models/volumes/volumes.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/volumes/block_retirement.hpp"
#include "kerncast/models/volumes/capacity_coverage.hpp"
#include "kerncast/models/volumes/dram_load_phases.hpp"
#include "kerncast/models/volumes/l1_simulation.hpp"
#include "kerncast/models/volumes/load_window.hpp"
#include "kerncast/models/volumes/volume_stages.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace kerncast::models {

namespace {

// A capacity term of one level (no second fit).
CapacityTerm one_level_term(CapacityFitKind fit, double oversubscription,
                            double volume_bytes_per_point) {
    CapacityTerm term;
    term.fit = fit;
    term.oversubscription = oversubscription;
    term.volume_bytes_per_point = volume_bytes_per_point;
    return term;
}

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

// One wave of the launch with what it shares with the blocks before it (sec. 4.4.1).
struct WaveSample {
    std::int64_t first_block = 0;
    std::int64_t points = 0;
    double allocated_bytes = 0; // 128 B lines of the wave, all arrays
    struct Layer {
        std::int64_t blocks = 0;
        double allocated_bytes = 0;        // lines of the layer set, all arrays
        std::vector<double> overlap_bytes; // per array: wave sectors first found here
    };
    std::array<Layer, 3> layers;
    struct Array {
        double load_bytes = 0;  // unique load sectors of the wave
        double store_bytes = 0; // unique store sectors of the wave
    };
    std::vector<Array> arrays;
};

// The waves of the launch to average over. One wave is a sample of a periodic pattern: where a
// wave starts relative to the planes (3D) or rows (2D) of blocks decides which neighbours it
// can reuse — a wave that starts on a plane of blocks finds no y reuse, its successors do. The
// waves of the period around the middle of the launch step through that pattern; when there
// are more than `count` of them, the ones whose starting phase in the period is nearest to
// `count` evenly spaced phases stand for it. Evenly spaced wave numbers would alias with the
// period (e.g. every other plane starting at the same row).
std::vector<std::int64_t> sampled_wave_numbers(const kernel::Dim3& grid,
                                               const WavePlacement& placement, int count) {
    const std::int64_t wanted = std::max(1, count);
    const std::int64_t wave_blocks = placement.wave_blocks, wave_count = placement.waves;
    std::vector<std::int64_t> waves;
    if (wave_count <= wanted) {
        for (std::int64_t k = 0; k < wave_count; ++k)
            waves.push_back(k);
        return waves;
    }
    const std::int64_t period = grid[2] > 1 ? grid[0] * grid[1] : grid[0];
    const std::int64_t per_period = (period + wave_blocks - 1) / wave_blocks + 1;
    // Whole waves of the middle of the launch, away from the first and the last one.
    const std::int64_t first = std::clamp<std::int64_t>(
        wave_count / 2 - per_period / 2, 1, std::max<std::int64_t>(1, wave_count - 1 - per_period));
    const std::int64_t last = std::min(wave_count - 1, first + per_period); // exclusive
    if (last - first <= wanted) {
        for (std::int64_t k = first; k < last; ++k)
            waves.push_back(k);
        return waves;
    }
    // From wave `first` on, the start phase (k * wave_blocks) mod period grows by wave_blocks
    // a wave and wraps once within [first, last): the wave nearest to a phase is arithmetic.
    const double wave = static_cast<double>(wave_blocks);
    const double base = static_cast<double>((first * wave_blocks) % period);
    for (std::int64_t i = 0; i < wanted; ++i) {
        const double target = (static_cast<double>(i) + 0.5) * static_cast<double>(period) /
                              static_cast<double>(wanted);
        const double offset =
            std::fmod(target - base + static_cast<double>(period), static_cast<double>(period));
        const std::int64_t best =
            std::min(last - 1, first + static_cast<std::int64_t>(std::llround(offset / wave)));
        if (std::find(waves.begin(), waves.end(), best) == waves.end())
            waves.push_back(best);
    }
    std::sort(waves.begin(), waves.end());
    return waves;
}

std::vector<WaveSample> sample_waves(const WaveFootprints& footprints,
                                     const analysis::KernelAnalysis& analysis,
                                     const VolumePrediction& p, std::int64_t l2_line,
                                     std::int64_t l2_sector, int count) {
    const auto& arrays = footprints.arrays();
    const std::array<std::int64_t, 3> distance{1, p.grid[0], p.grid[0] * p.grid[1]};
    const std::int64_t wave_blocks = p.placement.wave_blocks;
    std::vector<WaveSample> result;
    for (const std::int64_t wave : sampled_wave_numbers(p.grid, p.placement, count)) {
        WaveSample sample;
        sample.first_block = wave * wave_blocks;
        const std::int64_t end = std::min(p.blocks, sample.first_block + wave_blocks);
        const std::vector<BlockBox> boxes = block_boxes(sample.first_block, end, p.grid);
        sample.points = footprints.points(boxes);
        if (sample.points <= 0)
            continue;
        sample.arrays.resize(arrays.size());
        for (size_t a = 0; a < arrays.size(); ++a) {
            sample.allocated_bytes += static_cast<double>(
                footprints.count(a, boxes, l2_line, AccessFilter::all) * l2_line);
            if (arrays[a].loaded)
                sample.arrays[a].load_bytes = static_cast<double>(
                    footprints.count(a, boxes, l2_sector, AccessFilter::loads) * l2_sector);
            if (arrays[a].stored)
                sample.arrays[a].store_bytes = static_cast<double>(
                    footprints.count(a, boxes, l2_sector, AccessFilter::stores) * l2_sector);
        }
        std::vector<std::int64_t> shared_before(arrays.size(), 0);
        for (size_t d = 0; d < 3; ++d) {
            WaveSample::Layer& layer = sample.layers[d];
            layer.overlap_bytes.assign(arrays.size(), 0.0);
            // No layer along an axis the kernel does not map to threads (a 2D kernel has no z).
            if (analysis.spec.threads.global[d].empty() && analysis.spec.threads.block[d].empty())
                continue;
            const std::int64_t first = std::max<std::int64_t>(0, sample.first_block - distance[d]);
            layer.blocks = sample.first_block - first;
            if (layer.blocks == 0)
                continue;
            // The layer condition's working set: the blocks from the reuse partner up to the
            // wave. A block of the wave re-reads what the block one reuse distance before it
            // read; blocks start in order at a steady rate, so between the two reads the GPU
            // runs that many blocks' accesses, whatever the wave's size (the wave is the set of
            // blocks running at once, not an extra working set on top).
            const std::vector<BlockBox> before = block_boxes(first, sample.first_block, p.grid);
            for (size_t a = 0; a < arrays.size(); ++a) {
                layer.allocated_bytes += static_cast<double>(
                    footprints.count(a, before, l2_line, AccessFilter::all) * l2_line);
                if (!arrays[a].loaded)
                    continue;
                // The wave's sectors the x, then y, then z layer set also touched: each
                // layer counts only what the ones before it did not.
                const std::int64_t shared =
                    footprints.count_shared(a, boxes, before, l2_sector, AccessFilter::loads);
                if (shared > shared_before[a]) {
                    layer.overlap_bytes[a] =
                        static_cast<double>((shared - shared_before[a]) * l2_sector);
                    shared_before[a] = shared;
                }
            }
        }
        result.push_back(std::move(sample));
    }
    if (result.empty())
        throw_input_error("the sampled waves have no points inside the domain");
    return result;
}

// Bytes per point that the warps of a block request from L1 for `array`, each warp's
// repeated sectors counted once (estimate_l1's warp-unique sectors); all requested bytes
// where estimate_l1 did not unite them (very long folds).
double warp_unique_bytes(const L1Estimate& l1, const std::string& array, double requested) {
    for (const auto& [name, bytes] : l1.warp_unique_load_bytes_per_point)
        if (name == array)
            return bytes;
    return requested;
}

// The machine values the volume model reads, checked once (check_volume_machine names what is
// missing).
struct VolumeMachine {
    L1BankLayout layout;
    const MemoryLevel* l1 = nullptr;
    const MemoryLevel* l2 = nullptr;
    std::int64_t sector = 0;    // L1 sector, bytes
    std::int64_t line = 0;      // L1 line, bytes
    std::int64_t l2_sector = 0; // bytes
    std::int64_t l2_line = 0;   // bytes
    std::int64_t sms = 0;
    std::int64_t l1_ways = 0; // 0: the L1 capacity fit, else the simulated L1
    // shared_memory_banks.miss_pass "after_hits": the simulated L1 costs the loads.
    bool miss_pass_after_hits = false;
    const CapacityFit* l1_fit = nullptr;
    const CapacityFit* y_fit = nullptr;
    const CapacityFit* z_fit = nullptr;
    const CapacityFit* store_fit = nullptr;
    const std::optional<CapacityFit>* l2_load_fit = nullptr; // optional
    VolumeStagePlan plan; // which mechanisms run (volume_stages.hpp)

    // The layer-overlap fit of axis d (y and x share the y fit, sec. 4.5).
    const CapacityFit& layer_fit(size_t d) const { return d == 2 ? *z_fit : *y_fit; }
};

VolumeMachine volume_machine(const MachineModel& machine) {
    VolumeMachine m;
    m.layout = l1_bank_layout(machine);
    m.l1 = &required_level(machine, "l1");
    m.l2 = &required_level(machine, "l2");
    m.sector = m.layout.sector_bytes;
    m.line = m.l1->line_bytes ? m.l1->line_bytes->value : m.sector;
    m.l2_sector = m.l2->sector_bytes ? m.l2->sector_bytes->value : m.sector;
    m.l2_line = m.l2->line_bytes ? m.l2->line_bytes->value : m.line;
    m.sms = required_int(machine.compute.sm_count, machine, "compute.sm_count");
    m.plan = volume_stage_decisions(machine); // predict_volumes checked the machine
    m.l1_ways = m.plan.simulated_l1 ? m.l1->ways->value : 0;
    const auto& miss_pass = machine.shared_memory_banks.miss_pass;
    m.miss_pass_after_hits = miss_pass && miss_pass->value == "after_hits";
    if (m.miss_pass_after_hits && !m.l2->latency_cycles)
        throw_input_error("machine '" + machine.identity.id +
                          "': shared_memory_banks.miss_pass \"after_hits\" needs the L2 "
                          "latency (memory level l2, latency_cycles): a fill is in flight that "
                          "long");
    const auto& fits = machine.capacity_fits;
    m.l1_fit = &required_fit(fits.l1_redundant_loads, machine, "l1_redundant_loads");
    m.y_fit = &required_fit(fits.y_layer_overlap, machine, "y_layer_overlap");
    m.z_fit = &required_fit(fits.z_layer_overlap, machine, "z_layer_overlap");
    m.store_fit = &required_fit(fits.l2_redundant_stores, machine, "l2_redundant_stores");
    m.l2_load_fit = &fits.l2_redundant_loads;
    return m;
}

// Shared memory of one block at the parameter values, bytes.
std::int64_t shared_memory_bytes(const analysis::KernelAnalysis& analysis,
                                 const std::vector<std::int64_t>& params) {
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
    return shared_bytes;
}

// L1 wavefronts (sec. 4.2).
L1Estimate predict_l1(const analysis::KernelAnalysis& analysis,
                      const std::vector<std::int64_t>& params, std::int64_t points,
                      const VolumeMachine& m) {
    std::vector<double> executions;
    for (const auto& access : analysis.accesses)
        executions.push_back(static_cast<double>(access.count_per_work_item.evaluate(params)) /
                             static_cast<double>(points));
    return estimate_l1(analysis, params, m.layout, executions);
}

// Occupancy -> the wave (sec. 4.4).
WavePlacement place_waves(const analysis::KernelAnalysis& analysis, std::int64_t blocks,
                          std::int64_t shared_bytes, const MachineModel& machine,
                          const VolumeOptions& options, const VolumeMachine& m) {
    WavePlacement w;
    LaunchResources resources;
    resources.threads_per_block = static_cast<int>(analysis.threads_per_block);
    w.registers = options.registers;
    resources.registers_per_thread = options.registers.per_thread;
    resources.shared_memory_per_block_bytes = static_cast<int>(shared_bytes);
    w.occupancy = compute_occupancy(resources, machine);
    const std::int64_t full_wave = std::int64_t{w.occupancy.active_blocks_per_sm} * m.sms;
    w.wave_blocks = std::min<std::int64_t>(blocks, full_wave);
    w.waves = (blocks + w.wave_blocks - 1) / w.wave_blocks;
    w.under_filled = blocks < full_wave;
    w.resident_blocks_per_sm = w.under_filled ? (blocks + m.sms - 1) / m.sms
                                              : std::int64_t{w.occupancy.active_blocks_per_sm};
    w.busy_sms = w.under_filled
                     ? static_cast<double>(blocks) / static_cast<double>(w.resident_blocks_per_sm)
                     : static_cast<double>(m.sms);
    return w;
}

// The representative block as a box of block indices.
std::vector<BlockBox> block_of(const RepresentativeBlock& r) {
    return {BlockBox{r.origin, {r.origin[0] + 1, r.origin[1] + 1, r.origin[2] + 1}}};
}

// One representative block in the middle of the grid (sec. 4.3).
RepresentativeBlock representative_block(const kernel::Dim3& grid,
                                         const WaveFootprints& footprints) {
    RepresentativeBlock r;
    r.origin = {grid[0] / 2, grid[1] / 2, grid[2] / 2};
    r.points = footprints.points(block_of(r));
    if (r.points <= 0)
        throw_input_error("the representative block has no points inside the domain");
    return r;
}

// L1 capacity (eq. 4 for L1): 128 B lines of every resident block against the L1 left over by
// shared memory.
L1Capacity l1_capacity(const WaveFootprints& footprints, const std::vector<BlockBox>& block,
                       std::int64_t resident_blocks_per_sm, std::int64_t shared_bytes,
                       const VolumeMachine& m) {
    const auto& arrays = footprints.arrays();
    double block_line_bytes = 0;
    for (size_t a = 0; a < arrays.size(); ++a)
        block_line_bytes +=
            static_cast<double>(footprints.count(a, block, m.line, AccessFilter::all) * m.line);
    L1Capacity c;
    c.capacity_bytes =
        static_cast<double>(m.l1->size_bytes->value) -
        static_cast<double>(resident_blocks_per_sm) * static_cast<double>(shared_bytes);
    c.allocated_bytes = block_line_bytes * static_cast<double>(resident_blocks_per_sm);
    c.oversubscription = c.capacity_bytes > 0 ? c.allocated_bytes / c.capacity_bytes : 1e9;
    c.hit_rate = capacity_hit_rate(*m.l1_fit, c.oversubscription);
    return c;
}

// The simulated L1 stage's result: the simulation when it ran, and where the misses come from.
struct L1SimulationStage {
    std::optional<L1Simulation> simulation;
    L1MissAssumption assumption;
};

// The simulated L1 (l1_simulation.hpp) when the machine gives the L1's associativity and the
// kernel's program order is static; else the capacity fit stays, and a note says why.
L1SimulationStage simulated_l1(const analysis::KernelAnalysis& analysis,
                               const std::vector<std::int64_t>& params, const VolumePrediction& p,
                               const VolumeMachine& m) {
    L1SimulationStage stage;
    L1MissAssumption& assumption = stage.assumption;
    assumption.miss_pass_requested = m.miss_pass_after_hits;
    if (m.l1_ways == 0) {
        assumption.source = L1MissSource::capacity_fit;
        return stage;
    }
    L1Geometry geometry;
    geometry.ways = m.l1_ways;
    geometry.line_bytes = m.line;
    geometry.sector_bytes = m.sector;
    geometry.lines =
        static_cast<std::int64_t>(p.l1_capacity.capacity_bytes) / m.line / m.l1_ways * m.l1_ways;
    std::string why_not;
    std::optional<BlockPrograms> programs;
    if (geometry.lines < geometry.ways)
        why_not = "shared memory leaves less than one set of L1 lines";
    else
        programs = block_programs(analysis, params, m.layout, p.representative.origin, why_not);
    if (!programs) {
        assumption.source = L1MissSource::capacity_fit_instead;
        assumption.simulation_refused = why_not;
        return stage;
    }
    std::optional<L1MissPasses> passes;
    if (m.plan.miss_pass)
        passes = L1MissPasses{m.layout, m.l2->latency_cycles->value};
    stage.simulation = simulate_l1(*programs, static_cast<int>(p.placement.resident_blocks_per_sm),
                                   geometry, passes);
    assumption.source = L1MissSource::simulation;
    assumption.lines = geometry.lines;
    assumption.line_bytes = m.line;
    assumption.ways = m.l1_ways;
    return stage;
}

// The miss pass stage: the global loads' L1 cycles are the simulated L1's (the bank rule per
// pass) instead of estimate_l1's bank rule over all lanes; the difference is its own term of
// the L1 estimate.
void add_miss_pass_cycles(L1Estimate& l1, L1MissAssumption& assumption,
                          const L1Simulation& simulation, const VolumeMachine& m) {
    if (!simulation.load_wavefronts_per_point)
        return;
    double global_loads = 0;
    for (const auto& access : l1.accesses)
        if (access.space == kernel::MemorySpace::global &&
            access.direction == analysis::Direction::load)
            global_loads += access.wavefronts_per_point;
    l1.miss_pass_cycles_per_point = *simulation.load_wavefronts_per_point - global_loads;
    l1.cycles_per_point += l1.miss_pass_cycles_per_point;
    assumption.miss_pass_fill_cycles = m.l2->latency_cycles->value;
}

double total_points(const std::vector<WaveSample>& samples) {
    double sampled_points = 0;
    for (const auto& sample : samples)
        sampled_points += static_cast<double>(sample.points);
    return sampled_points;
}

// L2 capacity and the waves (sec. 4.4, 4.4.1, 4.4.2): averages over the sampled waves,
// weighted by their points.
WaveAverages average_waves(const std::vector<WaveSample>& samples, const VolumeMachine& m) {
    WaveAverages w;
    w.l2_capacity_bytes = static_cast<double>(
        m.l2->effective_size_bytes ? m.l2->effective_size_bytes->value : m.l2->size_bytes->value);
    w.sampled_waves = static_cast<std::int64_t>(samples.size());
    const WaveSample& middle = samples[samples.size() / 2];
    w.first_block = middle.first_block;
    w.points = middle.points;
    const double sampled_points = total_points(samples);
    std::array<double, 3> layer_hit_bytes{0, 0, 0};
    for (const auto& sample : samples) {
        const double weight = static_cast<double>(sample.points) / sampled_points;
        w.allocated_bytes += weight * sample.allocated_bytes;
        for (size_t d = 0; d < 3; ++d) {
            LayerSet& layer = w.layers[d];
            const WaveSample::Layer& s = sample.layers[d];
            layer.blocks += s.blocks; // divided below: the mean over samples
            layer.allocated_bytes += weight * s.allocated_bytes;
            double overlap = 0;
            for (double bytes : s.overlap_bytes)
                overlap += bytes;
            layer.overlap_bytes_per_point += overlap / sampled_points;
            layer_hit_bytes[d] +=
                capacity_hit_rate(m.layer_fit(d), s.allocated_bytes / w.l2_capacity_bytes) *
                overlap / sampled_points;
        }
    }
    w.oversubscription = w.allocated_bytes / w.l2_capacity_bytes;
    w.store_hit_rate = capacity_hit_rate(*m.store_fit, w.oversubscription);
    for (size_t d = 0; d < 3; ++d) {
        LayerSet& layer = w.layers[d];
        layer.blocks /= static_cast<std::int64_t>(samples.size());
        layer.first_block = middle.first_block - layer.blocks;
        layer.oversubscription = layer.allocated_bytes / w.l2_capacity_bytes;
        layer.hit_rate = layer.overlap_bytes_per_point > 0
                             ? layer_hit_bytes[d] / layer.overlap_bytes_per_point
                             : capacity_hit_rate(m.layer_fit(d), layer.oversubscription);
    }
    return w;
}

// What the per-array volumes read: the earlier stages' results, the footprints, the
// representative block, the sampled waves and the machine.
struct ArrayContext {
    const VolumePrediction& p;
    const WaveFootprints& footprints;
    const std::vector<BlockBox>& block;
    const std::vector<WaveSample>& samples;
    const VolumeMachine& m;
    double block_points = 0;
    double sampled_points = 0;
    const std::optional<L1Simulation>& l1_simulation;
};

// The simulated L1's misses of `array` beyond its first touches, bytes per point.
double simulated_l1_extra_bytes(const L1Simulation& simulation, const std::string& array) {
    for (size_t a = 0; a < simulation.arrays.size(); ++a)
        if (simulation.arrays[a] == array)
            return std::max(0.0, simulation.load_miss_bytes[a] - simulation.first_touch_bytes[a]);
    return 0.0;
}

// Load volumes of array `a` at L2 and DRAM.
void load_volumes(MemoryVolumes& out, ArrayVolumes& v, size_t a, const ArrayContext& c) {
    auto& decomposition = out.decompositions;
    const VolumePrediction& p = c.p;
    const VolumeMachine& m = c.m;
    // L2 -> L1 (sec. 4.3, eq. 5). The redundant volume that can miss is what the warps request
    // beyond the block's unique sectors, counting the sectors one warp requests again itself
    // only once: those are re-read a few instructions later by the same warp and do not wait
    // in L1 long enough to be evicted.
    v.l1_load_warp_unique_bytes = warp_unique_bytes(p.l1, v.array, v.l1_load_request_bytes);
    v.l2_load_compulsory_bytes =
        static_cast<double>(c.footprints.count(a, c.block, m.sector, AccessFilter::loads) *
                            m.sector) /
        c.block_points;
    const double redundant =
        std::max(0.0, std::min(v.l1_load_request_bytes, v.l1_load_warp_unique_bytes) -
                          v.l2_load_compulsory_bytes);
    if (c.l1_simulation) {
        // The simulated L1: its misses beyond the first touches, no fit.
        v.l2_load_capacity_bytes = simulated_l1_extra_bytes(*c.l1_simulation, v.array);
        decomposition.l2_load.base_bytes_per_point +=
            v.l2_load_compulsory_bytes + v.l2_load_capacity_bytes;
    } else {
        v.l2_load_capacity_bytes = (1.0 - p.l1_capacity.hit_rate) * redundant;
        decomposition.l2_load.base_bytes_per_point += v.l2_load_compulsory_bytes;
        decomposition.l2_load.terms.push_back(one_level_term(
            CapacityFitKind::l1_redundant_loads, p.l1_capacity.oversubscription, redundant));
    }
    v.l2_load_bytes = v.l2_load_compulsory_bytes + v.l2_load_capacity_bytes;
    // DRAM -> L2: each sampled wave's unique sectors minus what its layer sets left in L2
    // (eq. 5 per layer), averaged over the samples.
    double load = 0;
    for (const auto& sample : c.samples) {
        v.dram_load_wave_bytes += sample.arrays[a].load_bytes / c.sampled_points;
        load += sample.arrays[a].load_bytes / c.sampled_points;
        for (size_t d = 0; d < 3; ++d) {
            const double overlap = sample.layers[d].overlap_bytes[a] / c.sampled_points;
            if (overlap == 0)
                continue;
            const double oversubscription =
                sample.layers[d].allocated_bytes / p.wave.l2_capacity_bytes;
            const double hit = capacity_hit_rate(m.layer_fit(d), oversubscription) * overlap;
            v.dram_layer_hit_bytes[d] += hit;
            load -= hit;
            decomposition.dram_load.base_bytes_per_point -= overlap;
            decomposition.dram_load.terms.push_back(one_level_term(
                d == 2 ? CapacityFitKind::z_layer_overlap : CapacityFitKind::y_layer_overlap,
                oversubscription, overlap));
        }
    }
    decomposition.dram_load.base_bytes_per_point += v.dram_load_wave_bytes;
    // Eq. (5) for the L2 with one wave as the group (kerncast's extension): what L1 requests
    // from L2 beyond the wave's unique sectors — halos shared by blocks of the wave, L1
    // capacity misses — hits in L2 unless the wave itself oversubscribes it. The paper treats
    // every wave as fitting in L2; deep folded waves do not. Two parts: the block's compulsory
    // sectors beyond the wave's, and the L1 capacity misses (those miss in L2 only if they
    // missed in L1 first).
    if (*m.l2_load_fit) {
        const double wave_oversubscription = p.wave.oversubscription;
        const double miss = 1.0 - capacity_hit_rate(**m.l2_load_fit, wave_oversubscription);
        const double shared = std::max(0.0, v.l2_load_compulsory_bytes - v.dram_load_wave_bytes);
        v.dram_l2_capacity_bytes = miss * (shared + v.l2_load_capacity_bytes);
        load += v.dram_l2_capacity_bytes;
        if (shared > 0)
            decomposition.dram_load.terms.push_back(
                one_level_term(CapacityFitKind::l2_redundant_loads, wave_oversubscription, shared));
        if (c.l1_simulation && v.l2_load_capacity_bytes > 0)
            decomposition.dram_load.terms.push_back(
                one_level_term(CapacityFitKind::l2_redundant_loads, wave_oversubscription,
                               v.l2_load_capacity_bytes));
        else if (!c.l1_simulation && redundant > 0)
            decomposition.dram_load.terms.push_back(
                {CapacityFitKind::l2_redundant_loads, wave_oversubscription, redundant,
                 CapacityFitKind::l1_redundant_loads, p.l1_capacity.oversubscription});
    }
    v.dram_load_bytes = load;
}

// Store volumes of array `a` at L2 and DRAM.
void store_volumes(MemoryVolumes& out, ArrayVolumes& v, size_t a, const ArrayContext& c) {
    auto& decomposition = out.decompositions;
    const WaveAverages& wave = c.p.wave;
    decomposition.l2_store.base_bytes_per_point += v.l2_store_bytes;
    for (const auto& sample : c.samples)
        v.dram_store_bytes += sample.arrays[a].store_bytes / c.sampled_points;
    decomposition.dram_store.base_bytes_per_point += v.dram_store_bytes;
    // Partly written sectors of a block are completed in L2 by the neighbouring blocks unless
    // evicted first (sec. 4.4, fig. 18). An evicted part costs twice: DRAM supplies the
    // unwritten rest of the sector (a read), and the sector is written back once more when the
    // neighbour's part arrives (a second write).
    const double partial =
        static_cast<double>(c.footprints.partial_store_granules(a, c.block, c.m.l2_sector) *
                            c.m.l2_sector) /
        c.block_points;
    v.dram_partial_store_bytes = (1.0 - wave.store_hit_rate) * partial;
    v.dram_load_bytes += v.dram_partial_store_bytes;
    v.dram_store_bytes += v.dram_partial_store_bytes;
    if (partial > 0) {
        decomposition.dram_load.terms.push_back(
            one_level_term(CapacityFitKind::l2_redundant_stores, wave.oversubscription, partial));
        decomposition.dram_store.terms.push_back(
            one_level_term(CapacityFitKind::l2_redundant_stores, wave.oversubscription, partial));
    }
}

// Volumes per array and their totals (sec. 4.3, 4.4).
MemoryVolumes array_volumes(const ArrayContext& c) {
    MemoryVolumes out;
    const auto& arrays = c.footprints.arrays();
    std::vector<double> request_bytes(arrays.size(), 0.0), store_bytes(arrays.size(), 0.0);
    for (const auto& cost : c.p.l1.accesses)
        for (size_t a = 0; a < arrays.size(); ++a)
            if (arrays[a].name == cost.array)
                (cost.direction == analysis::Direction::load ? request_bytes : store_bytes)[a] +=
                    cost.sector_bytes_per_point;
    for (size_t a = 0; a < arrays.size(); ++a) {
        ArrayVolumes v;
        v.array = arrays[a].name;
        if (arrays[a].loaded) {
            v.l1_load_request_bytes = request_bytes[a];
            load_volumes(out, v, a, c);
        }
        if (arrays[a].stored) {
            v.l2_store_bytes = store_bytes[a];
            store_volumes(out, v, a, c);
        }
        out.l2_load_bytes += v.l2_load_bytes;
        out.l2_store_bytes += v.l2_store_bytes;
        out.dram_load_bytes += v.dram_load_bytes;
        out.dram_store_bytes += v.dram_store_bytes;
        out.arrays.push_back(std::move(v));
    }
    return out;
}

// Floating-point work (sec. 4.1): fused multiply-adds issue once. Issue cycles count every lane
// of the sub-groups that execute an operation (idle lanes of a partly filled warp take the slot
// too); flops count the work-items that execute it (useful work).
FloatingPointWork floating_point_work(const analysis::KernelAnalysis& analysis,
                                      const std::vector<std::int64_t>& params, std::int64_t points,
                                      const MachineModel& machine, int warp) {
    FloatingPointWork work;
    const double total_points = static_cast<double>(points);
    // Issue cycles a point of `count` operations of this kind (sub-group units or not).
    const auto cycles = [&](const analysis::OperationCount& op, const analysis::SymbolicCount& n) {
        double count = static_cast<double>(n.evaluate(params));
        if (op.granularity == analysis::Granularity::subgroup)
            count *= warp;
        else if (op.granularity == analysis::Granularity::work_group)
            count *= static_cast<double>(analysis.threads_per_block);
        count /= total_points;
        const std::string dtype = kernel::data_type_name(op.dtype);
        if (op.operation == "add" || op.operation == "mul") {
            const double rate = issue_rate(machine, op.operation, dtype);
            return rate > 0 ? count / rate : 0.0;
        }
        if (op.operation == "madd") {
            const double rate = issue_rate(machine, "fma", dtype);
            const double add = issue_rate(machine, "add", dtype),
                         mul = issue_rate(machine, "mul", dtype);
            return rate > 0 && add > 0 && mul > 0 ? count / rate - count / add - count / mul : 0.0;
        }
        if (op.operation == "div" || op.operation.rfind("func:", 0) == 0) {
            const double rate = issue_rate(machine, "special", dtype);
            return rate > 0 ? count / rate : 0.0;
        }
        return 0.0;
    };
    for (const auto& op : analysis.operations) {
        if (!kernel::is_floating(op.dtype))
            continue;
        if (op.operation == "add" || op.operation == "mul" || op.operation == "div" ||
            op.operation.rfind("func:", 0) == 0)
            work.flops_per_point +=
                static_cast<double>(op.work_items.evaluate(params)) / total_points;
        const double op_cycles = cycles(op, op.count);
        work.cycles_per_point += op_cycles;
        work.instance_cycles_per_point +=
            op.shared_by_fold_instances ? cycles(op, op.instance_count) : op_cycles;
    }
    work.cycles_per_point = std::max(0.0, work.cycles_per_point);
    work.instance_cycles_per_point = std::max(0.0, work.instance_cycles_per_point);
    return work;
}

// The simulated L1's hit rate on what the warps request beyond the block's first touches
// (the fit's hit rate applies to the warp-unique part of it only).
double simulated_hit_rate(const MemoryVolumes& volumes) {
    double beyond = 0, missed = 0;
    for (const auto& v : volumes.arrays) {
        beyond += std::max(0.0, v.l1_load_request_bytes - v.l2_load_compulsory_bytes);
        missed += v.l2_load_capacity_bytes;
    }
    return beyond > 0 ? std::clamp(1.0 - missed / beyond, 0.0, 1.0) : 1.0;
}

// Global accesses the model leaves out (UnmodelledAccess), and their share of the kernel's global
// access executions. Global atomics are counted as stores of their element (volumes, L1
// cycles); the L2's read-modify-write and the serialization of updates to one address are
// not modelled, so their exact counts bound the contention: executions over distinct addresses
// is the mean number of updates an address takes, and the most contended address takes at
// least that many one after another.
void unmodelled_accesses(VolumePrediction& p, const analysis::KernelAnalysis& analysis,
                         const std::vector<std::int64_t>& params) {
    double all = 0, left_out = 0;
    for (const auto& access : analysis.accesses) {
        if (access.space != kernel::MemorySpace::global)
            continue;
        const double executions = static_cast<double>(access.count_per_work_item.evaluate(params));
        all += executions;
        UnmodelledAccess u;
        u.access = access.text;
        u.executions_per_point = executions / static_cast<double>(p.points);
        if (access.indirect) {
            u.kind = "data-dependent address";
            u.left_out = "not part of the volumes or L1 cycles (its addresses are data).";
        } else if (access.direction == analysis::Direction::atomic) {
            const double addresses =
                static_cast<double>(access.footprint_elements.evaluate(params));
            u.kind = "global atomic";
            u.updates_per_address = addresses > 0 ? executions / addresses : 0;
            u.left_out = fmt::format(
                "counted as a store of its element; the L2's read-modify-write and the "
                "serialization of updates to one address are not modelled: {:.0f} updates "
                "reach {:.0f} addresses, so at least {:.1f} updates run one after another on "
                "the most contended one.",
                executions, addresses, u.updates_per_address);
        } else {
            continue;
        }
        left_out += executions;
        p.unmodelled.push_back(std::move(u));
    }
    p.unmodelled_share = all > 0 ? left_out / all : 0;
}

// The machine's gaps the forecast filled with an assumption, and the capacity terms that rest
// on a part of their curve no measurement places (fitted curves extrapolated beyond their
// samples, default curves in their transition): capacity_coverage.hpp.
void record_assumptions(VolumePrediction& p, const MachineModel& machine, const VolumeMachine& m) {
    p.assumptions.l2_redundant_loads_assumed_hit = !*m.l2_load_fit;
    p.assumptions.machine_sms = m.sms;
    const struct {
        std::string_view metric;
        const VolumeDecomposition& decomposition;
        double total;
    } metrics[] = {{"L2->L1 load", p.decompositions.l2_load, p.l2_load_bytes},
                   {"DRAM load", p.decompositions.dram_load, p.dram_load_bytes},
                   {"DRAM store", p.decompositions.dram_store, p.dram_store_bytes}};
    for (const auto& metric : metrics)
        for (auto& term : uncovered_capacity_terms(metric.decomposition, metric.total, machine))
            p.assumptions.uncovered.push_back({std::string(metric.metric), std::move(term)});
    p.assumptions.block_launch_rate_unknown = !machine.compute.block_launches_per_cycle;
    const MemoryLevel* dram = machine.level("dram");
    p.assumptions.dram_in_flight_unknown = dram && !dram->bandwidth_by_loads_in_flight;
}

// The DRAM load bytes an SM's threads keep in flight (LimiterInputs), barrier phase by phase
// (dram_load_phases.hpp), factor by factor: resident threads x the fraction of them still
// running (a block's slots free when its last warp ends, block_retirement.hpp) x points a
// thread x the fraction of the phase's loads a thread's registers let it issue before the
// first use (load_window.hpp) x the phase's DRAM load bytes a point.
DramLoadsInFlight dram_loads_in_flight(const VolumePrediction& p, const WaveFootprints& footprints,
                                       const kernel::KernelSpec& spec, const MachineModel& machine,
                                       const VolumeStagePlan& plan, int warp_size) {
    DramLoadsInFlight f;
    const int threads_per_block = p.launch.block[0] * p.launch.block[1] * p.launch.block[2];
    f.resident_threads = static_cast<double>(p.placement.resident_blocks_per_sm) *
                         static_cast<double>(threads_per_block);
    f.warps_per_block = (threads_per_block + warp_size - 1) / warp_size;
    if (plan.block_retirement) {
        f.warp_duration_cv = machine.compute.warp_duration_cv->value;
        f.running_fraction = busy_warp_slot_fraction(f.warps_per_block, *f.warp_duration_cv);
    }
    f.points_per_thread =
        static_cast<double>(p.launch.fold[0] * p.launch.fold[1] * p.launch.fold[2]);

    // The phases' global loads a thread executes: each access's fold instances (register reuse
    // removed) times its executions a point (below 1 under a guard). A load in a sequential
    // loop runs many times while most of its executions hit in L1 or L2 and leave the window
    // quickly, so the window's share of them says little about the DRAM loads in flight: no
    // window there.
    bool in_loop = false;
    for (const L1AccessCost& access : p.l1.accesses)
        if (access.direction == analysis::Direction::load &&
            access.space == kernel::MemorySpace::global)
            in_loop = in_loop || access.executions_per_point > 1 + 1e-9;
    f.phases = dram_load_phases(spec.statements, p.l1.accesses, p.arrays);
    f.barrier_in_loop = std::any_of(
        spec.statements.begin(), spec.statements.end(), [](const kernel::StatementSpec& s) {
            return s.kind == kernel::StatementKind::barrier && !s.within.empty();
        });
    for (const FootprintArray& array : footprints.arrays()) // the largest loaded element
        if (array.loaded)
            f.value_bytes = std::max(f.value_bytes, array.element_bytes);
    f.registers_per_value = (f.value_bytes + 3) / 4;
    const int registers_per_thread = p.placement.registers.per_thread;
    f.registers_per_thread = registers_per_thread;
    f.no_window = in_loop             ? NoLoadWindow::sequential_loop
                  : !plan.load_window ? NoLoadWindow::no_reserve
                                      : NoLoadWindow::none;
    if (f.no_window == NoLoadWindow::none) {
        f.reserved_registers = machine.compute.load_window_reserved_registers->value;
        f.window = load_window(registers_per_thread, f.reserved_registers, f.registers_per_value);
        if (!f.window)
            f.no_window = NoLoadWindow::registers_unknown;
    }
    if (const MemoryLevel* dram = machine.level("dram"); dram && dram->bandwidth_by_loads_in_flight)
        f.table_source = dram->bandwidth_by_loads_in_flight->source;
    for (DramLoadPhase& phase : f.phases) {
        phase.window_fraction =
            f.window ? loads_in_flight_fraction(phase.loads_per_thread, *f.window) : 1.0;
        phase.bytes_per_sm = f.resident_threads * f.running_fraction * f.points_per_thread *
                             phase.window_fraction * phase.dram_load_bytes_per_point;
    }
    return f;
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
                                 const kernel::BoundKernel& bound, const MachineModel& machine,
                                 const VolumeOptions& options) {
    KERNCAST_CHECK(bound.launch() == analysis.launch && bound.spec().name == analysis.spec.name,
                   "the bound kernel is not the analysis' launch");
    const std::vector<std::int64_t>& params = bound.values();
    check_volume_machine(machine);
    const VolumeMachine m = volume_machine(machine);
    VolumePrediction p;
    p.launch = analysis.launch;

    const WaveFootprints footprints(analysis, params, std::max(m.line, m.l2_line),
                                    options.linear_addresses);
    p.grid = footprints.grid();
    p.blocks = p.grid[0] * p.grid[1] * p.grid[2];
    p.points = footprints.points({BlockBox{{0, 0, 0}, p.grid}});
    if (p.points <= 0)
        throw_input_error("the kernel's domain is empty at these parameters: nothing to predict");

    // The stages, in the order of volume_stages.hpp's plan; each returns its typed result.
    p.l1 = predict_l1(analysis, params, p.points, m);
    const std::int64_t shared_bytes = shared_memory_bytes(analysis, params);
    p.placement = place_waves(analysis, p.blocks, shared_bytes, machine, options, m);
    p.representative = representative_block(p.grid, footprints);
    const std::vector<BlockBox> block = block_of(p.representative);
    p.l1_capacity =
        l1_capacity(footprints, block, p.placement.resident_blocks_per_sm, shared_bytes, m);
    L1SimulationStage l1_stage = simulated_l1(analysis, params, p, m);
    p.assumptions.l1 = l1_stage.assumption;
    p.l1_capacity.simulated = l1_stage.simulation.has_value();
    if (l1_stage.simulation)
        add_miss_pass_cycles(p.l1, p.assumptions.l1, *l1_stage.simulation, m);

    const std::vector<WaveSample> samples =
        sample_waves(footprints, analysis, p, m.l2_line, m.l2_sector, options.sampled_waves);
    p.wave = average_waves(samples, m);

    const ArrayContext context{p,
                               footprints,
                               block,
                               samples,
                               m,
                               static_cast<double>(p.representative.points),
                               total_points(samples),
                               l1_stage.simulation};
    static_cast<MemoryVolumes&>(p) = array_volumes(context);
    if (l1_stage.simulation)
        p.l1_capacity.hit_rate = simulated_hit_rate(p);
    p.fp = floating_point_work(analysis, params, p.points, machine, m.layout.warp_size);
    unmodelled_accesses(p, analysis, params);
    record_assumptions(p, machine, m);

    LimiterInputs inputs;
    inputs.dram_bytes_per_point = p.dram_load_bytes + p.dram_store_bytes;
    inputs.dram_store_bytes_per_point = p.dram_store_bytes;
    inputs.l2_bytes_per_point = p.l2_load_bytes + p.l2_store_bytes;
    inputs.l2_store_bytes_per_point = p.l2_store_bytes;
    inputs.l1_cycles_per_point = p.l1.cycles_per_point;
    inputs.fp_cycles_per_point = p.fp.cycles_per_point;
    inputs.blocks_per_point = static_cast<double>(p.blocks) / static_cast<double>(p.points);
    p.assumptions.dram_in_flight =
        dram_loads_in_flight(p, footprints, analysis.spec, machine, m.plan, m.layout.warp_size);
    double phased_load_bytes = 0;
    for (const DramLoadPhase& phase : p.assumptions.dram_in_flight.phases)
        phased_load_bytes += phase.dram_load_bytes_per_point;
    for (const DramLoadPhase& phase : p.assumptions.dram_in_flight.phases)
        inputs.dram_in_flight_phases.push_back(
            {phase.dram_load_bytes_per_point / phased_load_bytes, phase.bytes_per_sm});
    const LimiterMachine limiter_rates =
        with_busy_sms(limiter_machine(machine), p.placement.busy_sms);
    p.limiter = evaluate_limiters(inputs, limiter_rates, p.points);
    // Which bandwidth the DRAM and L2 limiters divided by, where the level measured mixes.
    if (!limiter_rates.dram_bandwidth_by_store_fraction.empty())
        p.assumptions.mixed_bandwidths.push_back(
            {"DRAM", "dram", "DRAM bytes", p.limiter.dram_bandwidth_bytes_per_s,
             p.limiter.dram_store_fraction, limiter_rates.dram_bandwidth_bytes_per_s});
    if (!limiter_rates.l2_bandwidth_by_store_fraction.empty())
        p.assumptions.mixed_bandwidths.push_back(
            {"L2", "l2", "L2 <-> L1 bytes", p.limiter.l2_bandwidth_bytes_per_s,
             p.limiter.l2_store_fraction, limiter_rates.l2_bandwidth_bytes_per_s});
    return p;
}

} // namespace kerncast::models
