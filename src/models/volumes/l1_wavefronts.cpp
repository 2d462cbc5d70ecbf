#include "kerncast/models/volumes/l1_wavefronts.hpp"

#include "kerncast/error.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace kerncast::models {

namespace {

template <class T>
T required(const Known<T>& value, const MachineModel& machine, const std::string& field) {
    if (!value)
        throw_input_error("machine '" + machine.identity.id + "' has no " + field +
                          ", which the L1 wavefront model needs");
    return value->value;
}

} // namespace

AxisCoefficients axis_coefficients(const analysis::KernelAnalysis& analysis,
                                   const analysis::ByteAddress& address) {
    using Kind = analysis::LaunchVariable::Kind;
    AxisCoefficients c;
    for (const auto& variable : analysis.variables) {
        auto at = address.coefficients.find(variable.name);
        if (at == address.coefficients.end() || variable.axis < 0)
            continue;
        const auto axis = static_cast<size_t>(variable.axis);
        if (variable.kind == Kind::thread)
            c.thread[axis] = at->second;
        else if (variable.kind == Kind::fold)
            c.fold[axis] = at->second;
        else if (variable.kind == Kind::block)
            c.block[axis] = at->second;
    }
    return c;
}

L1BankLayout l1_bank_layout(const MachineModel& machine) {
    L1BankLayout layout;
    layout.banks =
        required(machine.shared_memory_banks.banks, machine, "shared_memory_banks.banks");
    layout.bank_width_bytes = required(machine.shared_memory_banks.bank_width_bytes, machine,
                                       "shared_memory_banks.bank_width_bytes");
    layout.wavefront_window_bytes = required(machine.shared_memory_banks.wavefront_window_bytes,
                                             machine, "shared_memory_banks.wavefront_window_bytes");
    layout.warp_size = required(machine.compute.warp_size, machine, "compute.warp_size");
    const MemoryLevel* l1 = machine.level("l1");
    if (!l1)
        throw_input_error("machine '" + machine.identity.id + "' has no memory level l1");
    layout.sector_bytes = required(l1->sector_bytes, machine, "memory l1 sector_bytes");
    return layout;
}

namespace {

// How the bank rule groups and counts one access size (sec. 4.2).
struct BankGeometry {
    std::int64_t unit = 0;        // bytes one bank unit holds: the value or a bank if wider
    std::int64_t unit_banks = 0;  // bank units in a row of all banks
    std::int64_t group_lanes = 0; // lanes served together: a row of all banks' worth
    std::int64_t window_units = 0;
};

BankGeometry bank_geometry(int access_bytes, const L1BankLayout& layout) {
    KERNCAST_CHECK(layout.banks > 0 && layout.bank_width_bytes > 0 && layout.sector_bytes > 0,
                   "bank layout must be positive");
    BankGeometry g;
    // A value wider than a bank occupies several adjacent banks: model it as one bank of the
    // value's width (sec. 4.2: 16 banks of 8 B for doubles on 32 x 4 B banks).
    g.unit = std::max(access_bytes, layout.bank_width_bytes);
    const std::int64_t row_bytes = std::int64_t{layout.banks} * layout.bank_width_bytes;
    g.unit_banks = std::max<std::int64_t>(1, row_bytes / g.unit);
    g.group_lanes = std::clamp<std::int64_t>(row_bytes / access_bytes, 1, layout.warp_size);
    // A window of 0 bytes: no pairing distance, any two values share a wavefront unless their
    // banks conflict (measured on Hopper, docs/volume-model.md).
    g.window_units = layout.wavefront_window_bytes == 0
                         ? std::numeric_limits<std::int64_t>::max()
                         : std::max<std::int64_t>(1, layout.wavefront_window_bytes / g.unit);
    return g;
}

// Sorts the `count` values at `first` and moves the distinct ones to the front; returns how many.
std::int64_t unique_sorted(std::int64_t* first, size_t count) {
    std::int64_t* const last = first + count;
    if (!std::is_sorted(first, last)) // lanes mostly come in address order
        std::sort(first, last);
    return std::unique(first, last) - first;
}

// The wavefronts of one lane group whose lanes' bank units are `units` (sorted and made unique
// here): the distinct values split into clusters no wider than the window, each costing as many
// wavefronts as its busiest bank has values. `per_bank`: scratch of unit_banks entries, all 0
// (and left so).
std::int64_t group_wavefronts(std::int64_t* units_first, size_t count, const BankGeometry& g,
                              std::int64_t* per_bank) {
    const std::span<std::int64_t> units(units_first,
                                        static_cast<size_t>(unique_sorted(units_first, count)));
    if (units.empty())
        return 0;
    // Distinct values closer than a row of banks and than the window: one cluster, each bank
    // holds at most one of them (a coalesced group), one wavefront.
    if (units.back() - units.front() < std::min(g.unit_banks, g.window_units))
        return 1;
    std::int64_t wavefronts = 0;
    // The bank of a unit, the remainder in 0 .. unit_banks - 1 (a mask for a power of two).
    const bool power_of_two = (g.unit_banks & (g.unit_banks - 1)) == 0;
    const auto bank = [&](std::int64_t unit) {
        return static_cast<size_t>(power_of_two
                                       ? unit & (g.unit_banks - 1)
                                       : ((unit % g.unit_banks) + g.unit_banks) % g.unit_banks);
    };
    size_t start = 0;
    while (start < units.size()) {
        size_t stop = start;
        while (stop < units.size() && units[stop] - units[start] < g.window_units)
            ++stop;
        std::int64_t most = 0;
        for (size_t k = start; k < stop; ++k)
            most = std::max(most, ++per_bank[bank(units[k])]);
        for (size_t k = start; k < stop; ++k)
            per_bank[bank(units[k])] = 0;
        wavefronts += most;
        start = stop;
    }
    return wavefronts;
}

// Scratch vectors of the bank rule, one set per thread: the rule runs for every warp request
// of the simulated L1, and allocating them each time was a tenth of a forecast.
struct BankScratch {
    std::vector<std::int64_t> sectors, units, late_units, per_bank;
};
BankScratch& bank_scratch() {
    thread_local BankScratch scratch;
    return scratch;
}

// Each warp's sectors of `bytes`-wide values at place + offset[t] for every thread t (a
// repeat of the previous lane's sector left out; the warp-unique count sorts them).
std::vector<std::vector<std::int64_t>> warp_load_sectors(const std::vector<std::int64_t>& offset,
                                                         std::int64_t place, int bytes,
                                                         const L1BankLayout& layout) {
    const support::FloorDivider sector_of(layout.sector_bytes);
    const auto threads = static_cast<std::int64_t>(offset.size());
    std::vector<std::vector<std::int64_t>> per_warp(
        static_cast<size_t>((threads + layout.warp_size - 1) / layout.warp_size));
    for (std::int64_t t = 0; t < threads; ++t) {
        const std::int64_t a = place + offset[static_cast<size_t>(t)];
        auto& mine = per_warp[static_cast<size_t>(t / layout.warp_size)];
        for (const std::int64_t sector : {sector_of(a), sector_of(a + bytes - 1)})
            if (mine.empty() || mine.back() != sector)
                mine.push_back(sector);
    }
    return per_warp;
}

} // namespace

std::vector<std::int64_t> thread_offsets(const std::array<std::int64_t, 3>& thread,
                                         const kernel::Dim3& block) {
    const std::int64_t threads = block[0] * block[1] * block[2];
    const AxisCoefficients axes{thread, {}, {}};
    std::vector<std::int64_t> offsets(static_cast<size_t>(threads));
    for (std::int64_t t = 0; t < threads; ++t)
        offsets[static_cast<size_t>(t)] = lane_address(axes, block, t, 0);
    return offsets;
}

std::int64_t bank_rule_period(int access_bytes, const L1BankLayout& layout) {
    const BankGeometry g = bank_geometry(access_bytes, layout);
    return std::lcm(std::int64_t{layout.sector_bytes}, g.unit * g.unit_banks);
}

WarpInstructionCost warp_instruction_cost(std::span<const std::int64_t> lane_addresses,
                                          int access_bytes, const L1BankLayout& layout) {
    const BankGeometry g = bank_geometry(access_bytes, layout);
    WarpInstructionCost cost;
    if (lane_addresses.empty())
        return cost;
    BankScratch& scratch = bank_scratch();
    std::vector<std::int64_t>& sectors = scratch.sectors;
    sectors.clear();
    const support::FloorDivider sector_of(layout.sector_bytes);
    for (const std::int64_t a : lane_addresses) {
        sectors.push_back(sector_of(a));
        sectors.push_back(sector_of(a + access_bytes - 1));
    }
    if (!std::is_sorted(sectors.begin(), sectors.end()))
        std::sort(sectors.begin(), sectors.end());
    cost.sectors = std::unique(sectors.begin(), sectors.end()) - sectors.begin();

    const auto group_lanes = static_cast<size_t>(g.group_lanes);
    scratch.units.resize(group_lanes);
    scratch.per_bank.resize(static_cast<size_t>(g.unit_banks));
    std::int64_t* const units = scratch.units.data();
    const support::FloorDivider unit_of(g.unit);
    for (size_t first = 0; first < lane_addresses.size(); first += group_lanes) {
        size_t count = 0;
        for (size_t k = first; k < std::min(lane_addresses.size(), first + group_lanes); ++k)
            units[count++] = unit_of(lane_addresses[k]);
        cost.wavefronts += group_wavefronts(units, count, g, scratch.per_bank.data());
    }
    return cost;
}

std::int64_t two_pass_wavefronts(std::span<const std::int64_t> lane_addresses,
                                 std::span<const unsigned char> late, int access_bytes,
                                 const L1BankLayout& layout) {
    KERNCAST_CHECK(late.size() == lane_addresses.size(), "one pass flag per lane");
    const BankGeometry g = bank_geometry(access_bytes, layout);
    std::int64_t wavefronts = 0;
    BankScratch& scratch = bank_scratch();
    const auto group_lanes = static_cast<size_t>(g.group_lanes);
    scratch.units.resize(group_lanes);
    scratch.late_units.resize(group_lanes);
    scratch.per_bank.resize(static_cast<size_t>(g.unit_banks));
    const std::array<std::int64_t*, 2> pass{scratch.units.data(), scratch.late_units.data()};
    std::int64_t* const per_bank = scratch.per_bank.data();
    const support::FloorDivider unit_of(g.unit);
    for (size_t first = 0; first < lane_addresses.size(); first += group_lanes) {
        std::array<size_t, 2> count{0, 0};
        for (size_t k = first; k < std::min(lane_addresses.size(), first + group_lanes); ++k) {
            const size_t p = late[k] ? 1 : 0;
            pass[p][count[p]++] = unit_of(lane_addresses[k]);
        }
        for (size_t p = 0; p < 2; ++p)
            wavefronts += group_wavefronts(pass[p], count[p], g, per_bank);
    }
    return wavefronts;
}

L1Estimate estimate_l1(const analysis::KernelAnalysis& analysis,
                       const std::vector<std::int64_t>& params, const L1BankLayout& layout,
                       const std::vector<double>& executions_per_point) {
    KERNCAST_CHECK(executions_per_point.size() == analysis.accesses.size(),
                   "one execution rate per access");
    const auto& block = analysis.launch.block;
    const auto& fold = analysis.launch.fold;
    const std::int64_t threads = block[0] * block[1] * block[2];
    const std::int64_t fold_points = fold[0] * fold[1] * fold[2];
    const double points_per_block = static_cast<double>(threads * fold_points);
    L1Estimate estimate;
    estimate.sector_bytes = layout.sector_bytes;
    // Loads already issued: (array, thread coefficients, constant) -> seen.
    std::map<std::tuple<std::string, std::array<std::int64_t, 3>, std::int64_t>, bool> loaded;
    // (array, executions per point) -> per warp, the load sectors it requests.
    std::map<std::pair<std::string, double>, std::vector<std::vector<std::int64_t>>> warp_sectors;
    const std::int64_t warps = (threads + layout.warp_size - 1) / layout.warp_size;
    std::set<std::string> uncollected; // arrays without warp-unique sectors
    // Each thread's address less the fold instance's constant, by thread coefficients.
    std::map<std::array<std::int64_t, 3>, std::vector<std::int64_t>> offsets_by_thread;
    // The block's cost of one fold instance depends on the access's thread coefficients, its
    // size and its constant modulo the bank rule's period only: computed once for each, so a
    // long fold, or many accesses of one pattern (a stencil's points), cost one map look-up an
    // instance, not a pass over every warp. Wavefronts and sectors of the block's warps.
    std::map<std::tuple<std::array<std::int64_t, 3>, int, std::int64_t>, std::pair<double, double>>
        block_cost;
    // Each warp's load sectors of one fold instance, by thread coefficients, size and the
    // constant's place in its sector (the constant's whole sectors shift them).
    std::map<std::tuple<std::array<std::int64_t, 3>, int, std::int64_t>,
             std::vector<std::vector<std::int64_t>>>
        sectors_by_place;

    for (size_t index = 0; index < analysis.accesses.size(); ++index) {
        const analysis::AccessInfo& access = analysis.accesses[index];
        if (access.indirect || (access.space != kernel::MemorySpace::global &&
                                access.space != kernel::MemorySpace::shared))
            continue;
        const analysis::ByteAddress address = analysis::byte_address(analysis, access, params);
        const AxisCoefficients axes = axis_coefficients(analysis, address);
        L1AccessCost cost;
        cost.array = access.array;
        cost.text = access.text;
        cost.statement = access.statement;
        cost.direction = access.direction;
        cost.space = access.space;
        cost.executions_per_point = executions_per_point[index];
        const int bytes = kernel::data_type_bytes(access.dtype);
        const std::int64_t period = bank_rule_period(bytes, layout);
        const bool global = access.space == kernel::MemorySpace::global;
        // Each warp's load sectors over all fold instances, for the warp-unique volume; a fold
        // longer than warp_unique_fold_limit leaves the array out (its requests count whole).
        const bool collect_warp_sectors = global && access.direction == analysis::Direction::load &&
                                          fold_points <= warp_unique_fold_limit &&
                                          !uncollected.count(access.array);
        if (global && access.direction == analysis::Direction::load && !collect_warp_sectors) {
            uncollected.insert(access.array);
            for (auto at = warp_sectors.begin(); at != warp_sectors.end();)
                at = at->first.first == access.array ? warp_sectors.erase(at) : std::next(at);
        }
        auto [offsets, added] = offsets_by_thread.try_emplace(axes.thread);
        if (added)
            offsets->second = thread_offsets(axes.thread, block);
        const std::vector<std::int64_t>& thread_offset = offsets->second;
        std::vector<std::int64_t> lanes;
        const support::FloorDivider sector_of(layout.sector_bytes);
        for (std::int64_t fz = 0; fz < fold[2]; ++fz)
            for (std::int64_t fy = 0; fy < fold[1]; ++fy)
                for (std::int64_t fx = 0; fx < fold[0]; ++fx) {
                    const std::int64_t constant = address.constant + fx * axes.fold[0] +
                                                  fy * axes.fold[1] + fz * axes.fold[2];
                    if (access.direction == analysis::Direction::load) {
                        auto key = std::tuple{access.array, axes.thread, constant};
                        if (loaded.count(key))
                            continue; // reused from a register
                        loaded[key] = true;
                    }
                    ++cost.instructions_per_thread;
                    if (collect_warp_sectors) {
                        auto& per_warp = warp_sectors[{access.array, cost.executions_per_point}];
                        per_warp.resize(static_cast<size_t>(warps));
                        // constant = whole sectors + place: each warp's sectors are those of
                        // the place shifted by the whole sectors.
                        const std::int64_t whole = sector_of(constant);
                        const std::int64_t place = constant - whole * layout.sector_bytes;
                        auto [sectors, fresh] =
                            sectors_by_place.try_emplace({axes.thread, bytes, place});
                        if (fresh)
                            sectors->second =
                                warp_load_sectors(thread_offset, place, bytes, layout);
                        for (size_t w = 0; w < per_warp.size(); ++w)
                            for (const std::int64_t sector : sectors->second[w])
                                per_warp[w].push_back(whole + sector);
                    }
                    const std::int64_t residue = ((constant % period) + period) % period;
                    auto [known, computed] =
                        block_cost.try_emplace({axes.thread, bytes, residue}, 0.0, 0.0);
                    auto& [wavefronts, sector_bytes] = known->second;
                    if (computed)
                        for (std::int64_t first = 0; first < threads; first += layout.warp_size) {
                            lanes.clear();
                            for (std::int64_t t = first;
                                 t < std::min(threads, first + layout.warp_size); ++t)
                                lanes.push_back(constant + thread_offset[static_cast<size_t>(t)]);
                            const WarpInstructionCost warp =
                                warp_instruction_cost(lanes, bytes, layout);
                            wavefronts += static_cast<double>(warp.wavefronts);
                            sector_bytes += static_cast<double>(warp.sectors * layout.sector_bytes);
                        }
                    cost.wavefronts_per_point += wavefronts;
                    if (global) // request bytes count global accesses only
                        cost.sector_bytes_per_point += sector_bytes;
                }
        // Per point: block totals times executions of one fold instance, over the points of
        // the block.
        cost.wavefronts_per_point *= cost.executions_per_point / points_per_block;
        cost.sector_bytes_per_point *= cost.executions_per_point / points_per_block;
        estimate.cycles_per_point += cost.wavefronts_per_point;
        if (access.direction == analysis::Direction::load)
            estimate.load_request_bytes_per_point += cost.sector_bytes_per_point;
        else
            estimate.store_request_bytes_per_point += cost.sector_bytes_per_point;
        estimate.accesses.push_back(std::move(cost));
    }
    for (auto& [array_and_rate, per_warp] : warp_sectors) {
        const std::string& array = array_and_rate.first; // named: clang 14 lambdas cannot
        const double executions = array_and_rate.second; // capture structured bindings
        std::int64_t unique = 0;
        for (auto& sectors : per_warp) {
            std::sort(sectors.begin(), sectors.end());
            unique += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
        }
        const double bytes =
            static_cast<double>(unique * layout.sector_bytes) * executions / points_per_block;
        auto at = std::find_if(estimate.warp_unique_load_bytes_per_point.begin(),
                               estimate.warp_unique_load_bytes_per_point.end(),
                               [&](const auto& entry) { return entry.first == array; });
        if (at == estimate.warp_unique_load_bytes_per_point.end())
            estimate.warp_unique_load_bytes_per_point.emplace_back(array, bytes);
        else
            at->second += bytes;
    }
    return estimate;
}

} // namespace kerncast::models
