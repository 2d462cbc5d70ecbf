// The MWP-CWP workload from a kernel file (derived_workload.hpp; docs/mwp-cwp.md, "Workloads
// from kernel files"). Every count comes from the kernel analysis; this file only maps them to
// instructions and classifies the global accesses.
#include "kerncast/models/mwp_cwp/derived_workload.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace kerncast::models::mwp_cwp {
namespace {

using analysis::AccessInfo;
using analysis::KernelAnalysis;
using analysis::LaunchVariable;

// Instructions a thread runs once before its work: per mapped axis mov %tid, mov %ctaid,
// mov %ntid and the mad that forms the global index; per global array its kernel argument
// (ld.param, cvta.to.global).
constexpr double setup_per_axis = 4;
constexpr double setup_per_global_array = 2;
// A loop that is not unrolled: setp + bra per iteration (Hong & Kim Fig. 13 lines 14, 15).
constexpr double control_per_iteration = 2;

struct LaunchSize {
    double threads = 0;
    double warps = 0;
};

LaunchSize launch_size(const KernelAnalysis& a, const std::vector<std::int64_t>& params) {
    const auto blocks = static_cast<double>(a.thread_blocks.evaluate(params));
    return {blocks * static_cast<double>(a.threads_per_block),
            blocks * static_cast<double>(a.subgroups_per_block)};
}

std::vector<std::int64_t> doubled(const std::vector<std::int64_t>& params) {
    std::vector<std::int64_t> out = params;
    for (auto& p : out)
        p *= 2;
    return out;
}

double per_thread(const AccessInfo& access, const KernelAnalysis& a,
                  const std::vector<std::int64_t>& params) {
    return static_cast<double>(access.count_per_work_item.evaluate(params)) /
           launch_size(a, params).threads;
}

// The sequential loop variables of an access, outermost first (analysis variable order).
std::vector<std::string> sequential_of(const AccessInfo& access, const KernelAnalysis& a) {
    std::vector<std::string> out;
    for (const auto& v : a.variables)
        if (v.kind == LaunchVariable::Kind::sequential &&
            std::find(access.domain_variables.begin(), access.domain_variables.end(), v.name) !=
                access.domain_variables.end())
            out.push_back(v.name);
    return out;
}

// Iterations per thread of each sequential loop: the executions of the accesses whose innermost
// loop it is (the most of them, as a guard may skip some). A loop is unrolled when its trip count
// per iteration of the enclosing loop does not change with the parameters (doubling them all).
std::vector<LoopControl> loop_controls(const KernelAnalysis& a,
                                       const std::vector<std::int64_t>& params) {
    std::map<std::string, std::pair<double, double>> innermost; // per thread at params, at 2x
    std::map<std::string, std::string> parent;
    const auto twice = doubled(params);
    for (const auto& access : a.accesses) {
        const auto loops = sequential_of(access, a);
        if (loops.empty())
            continue;
        auto& slot = innermost[loops.back()];
        slot.first = std::max(slot.first, per_thread(access, a, params));
        try {
            slot.second = std::max(slot.second, per_thread(access, a, twice));
        } catch (const Error&) {
            slot.second = -1; // not evaluable at doubled parameters: treat as varying
        }
        parent[loops.back()] = loops.size() > 1 ? loops[loops.size() - 2] : "";
    }
    std::vector<LoopControl> out;
    for (const auto& v : a.variables) {
        if (v.kind != LaunchVariable::Kind::sequential || !innermost.count(v.name))
            continue;
        const auto [here, there] = innermost[v.name];
        double trip_here = here, trip_there = there;
        const std::string& up = parent[v.name];
        if (!up.empty() && innermost.count(up) && innermost[up].first > 0 &&
            innermost[up].second > 0) {
            trip_here /= innermost[up].first;
            trip_there /= innermost[up].second;
        }
        LoopControl loop;
        loop.index = v.name;
        loop.iterations_per_thread = here;
        loop.unrolled = there > 0 && std::abs(trip_here - trip_there) <= 1e-9 * trip_here;
        out.push_back(loop);
    }
    return out;
}

// Byte address of the access for one thread of block 0 at the first sequential/fold iteration.
std::int64_t lane_address(const analysis::ByteAddress& address, const KernelAnalysis& a,
                          std::int64_t linear_thread) {
    const auto& block = a.launch.block;
    const std::int64_t thread[3] = {linear_thread % block[0], (linear_thread / block[0]) % block[1],
                                    linear_thread / (block[0] * block[1])};
    std::int64_t value = address.constant;
    for (const auto& v : a.variables) {
        if (v.kind != LaunchVariable::Kind::thread)
            continue;
        const auto found = address.coefficients.find(v.name);
        if (found != address.coefficients.end())
            value += found->second * thread[v.axis];
    }
    return value;
}

AccessTransactions classify(const AccessInfo& access, const KernelAnalysis& a,
                            const std::vector<std::int64_t>& params, CoalescingRule rule,
                            int warp_size) {
    AccessTransactions t;
    t.text = access.text;
    t.direction = analysis::direction_name(access.direction);
    t.element_bytes = kernel::data_type_bytes(access.dtype);
    t.indirect = access.indirect;
    t.per_thread = per_thread(access, a, params);
    if (access.indirect) {
        // Data-dependent addresses: every lane its own transaction, the worst case.
        t.transactions_per_warp = t.sectors_per_warp = t.lines_per_warp = warp_size;
        return t;
    }
    const analysis::ByteAddress address = analysis::byte_address(a, access, params);
    t.coalesced = true;
    double transactions = 0, sectors = 0, lines = 0;
    for (std::int64_t first = 0; first < a.threads_per_block; first += warp_size) {
        std::vector<std::int64_t> lanes;
        for (std::int64_t k = first; k < std::min(first + warp_size, a.threads_per_block); ++k)
            lanes.push_back(lane_address(address, a, k));
        const WarpTransactions w = warp_transactions(rule, lanes, t.element_bytes);
        transactions += static_cast<double>(w.transactions);
        sectors += static_cast<double>(w.sectors);
        lines += static_cast<double>(w.lines);
        t.coalesced = t.coalesced && w.coalesced;
        ++t.warps_sampled;
    }
    t.transactions_per_warp = transactions / t.warps_sampled;
    t.sectors_per_warp = sectors / t.warps_sampled;
    t.lines_per_warp = lines / t.warps_sampled;
    return t;
}

std::int64_t shared_memory_bytes(const KernelAnalysis& a, const std::vector<std::int64_t>& params) {
    std::int64_t bytes = 0;
    for (const auto& array : a.spec.arrays) {
        if (array.space != kernel::MemorySpace::shared)
            continue;
        std::int64_t elements = 1;
        for (const auto& extent : array.shape)
            elements *= kernel::evaluate_integer(
                *extent, [&](const std::string& name) -> std::optional<std::int64_t> {
                    const auto at = std::find(a.parameters.begin(), a.parameters.end(), name);
                    if (at == a.parameters.end())
                        return std::nullopt;
                    return params[static_cast<std::size_t>(at - a.parameters.begin())];
                });
        bytes += elements * kernel::data_type_bytes(array.dtype);
    }
    return bytes;
}

// Arithmetic from the analysis' operation counts (per warp = per thread without divergence).
void count_operations(const KernelAnalysis& a, const std::vector<std::int64_t>& params,
                      const LaunchSize& size, InstructionMix& mix) {
    for (const auto& op : a.operations) {
        if (op.operation.rfind("atomic:", 0) == 0)
            continue; // the atomic access is the instruction
        const double units =
            op.granularity == analysis::Granularity::work_item ? size.threads : size.warps;
        double count = static_cast<double>(op.count.evaluate(params)) / units;
        if (op.operation == "madd")
            count = -count; // a multiply feeding an add is one fma, not a mul and an add
        (kernel::is_floating(op.dtype) ? mix.floating_point : mix.integer) += count;
    }
}

void count_accesses(const KernelAnalysis& a, const std::vector<std::int64_t>& params,
                    CoalescingRule rule, int warp_size, DerivedWorkload& d) {
    InstructionMix& mix = d.mix;
    for (const auto& access : a.accesses) {
        const double executions = per_thread(access, a, params);
        bool variable_address = access.indirect;
        for (const auto& s : access.subscripts)
            variable_address = variable_address || !s.coefficients.empty();
        const kernel::ArrayDecl* array = a.spec.find_array(access.array);
        if (variable_address)
            mix.address +=
                executions *
                static_cast<double>(std::max<std::size_t>(1, array ? array->shape.size() : 1));
        switch (access.space) {
        case kernel::MemorySpace::shared:
            mix.shared_memory += executions;
            break;
        case kernel::MemorySpace::constant:
            mix.constant_memory += executions;
            break;
        case kernel::MemorySpace::private_:
            break;
        case kernel::MemorySpace::global:
            (access.direction == analysis::Direction::load ? mix.global_loads
                                                           : mix.global_stores) += executions;
            d.accesses.push_back(classify(access, a, params, rule, warp_size));
            break;
        }
    }
}

} // namespace

DerivedWorkload derive_workload(const KernelAnalysis& a, const kernel::BoundKernel& bound,
                                const MachineModel& machine, const DeriveOptions& options) {
    KERNCAST_CHECK(a.options.count_index_arithmetic,
                   "derive_workload needs an analysis that counts index arithmetic");
    KERNCAST_CHECK(bound.launch() == a.launch, "the bound kernel is not the analysis' launch");
    const std::vector<std::int64_t>& params = bound.values();
    if (!machine.compute.warp_size)
        throw_input_error(fmt::format("machine '{}' lacks compute.warp_size, which the MWP-CWP "
                                      "workload needs",
                                      machine.identity.id));
    const int warp_size = machine.compute.warp_size->value;
    DerivedWorkload d;
    d.rule = coalescing_rule(machine.identity.cc_major, machine.identity.cc_minor);
    d.registers = options.registers;
    const LaunchSize size = launch_size(a, params);
    d.points_per_thread = a.launch.fold[0] * a.launch.fold[1] * a.launch.fold[2];

    count_operations(a, params, size, d.mix);
    count_accesses(a, params, d.rule, warp_size, d);
    for (const auto& barrier : a.barriers)
        d.mix.barriers += static_cast<double>(barrier.per_work_item.evaluate(params));
    d.loops = loop_controls(a, params);
    for (auto& loop : d.loops) {
        loop.control_per_thread =
            loop.unrolled ? 0 : control_per_iteration * loop.iterations_per_thread;
        d.mix.loop_control += loop.control_per_thread;
    }
    int axes = 0;
    for (int axis = 0; axis < kernel::axis_count; ++axis)
        axes += !a.spec.threads.global[axis].empty() || !a.spec.threads.local[axis].empty();
    int global_arrays = 0;
    for (const auto& array : a.spec.arrays)
        global_arrays += array.space == kernel::MemorySpace::global;
    d.mix.thread_setup = setup_per_axis * axes + setup_per_global_array * global_arrays;

    Workload& w = d.workload;
    w.name = a.spec.name;
    w.comment = fmt::format("derived from {} ({})", a.spec.file.empty() ? a.spec.name : a.spec.file,
                            to_string(d.rule));
    w.threads_per_block = static_cast<int>(a.threads_per_block);
    w.blocks = a.thread_blocks.evaluate(params);
    w.comp_insts = d.mix.computation();
    w.synch_insts = d.mix.barriers;
    double uncoal_transactions = 0, bytes = 0, executions = 0;
    for (const auto& t : d.accesses) {
        (t.coalesced ? w.coal_mem_insts : w.uncoal_mem_insts) += t.per_thread;
        if (!t.coalesced)
            uncoal_transactions += t.per_thread * t.transactions_per_warp;
        bytes += t.per_thread * t.element_bytes * warp_size;
        executions += t.per_thread;
    }
    // #Uncoal_per_mw: the execution-weighted mean over the uncoalesced accesses (Table 1 row 20).
    w.uncoal_per_mw =
        w.uncoal_mem_insts > 0 ? std::max(1.0, uncoal_transactions / w.uncoal_mem_insts) : 1;
    // Load_bytes_per_warp: data size x #Threads_per_warp (Table 1 row 21), mean over accesses.
    w.load_bytes_per_warp = executions > 0 ? bytes / executions : 0;
    w.registers_per_thread = options.registers.per_thread;
    w.shared_memory_per_block_bytes = static_cast<int>(shared_memory_bytes(a, params));

    if (!d.accesses.empty())
        d.notes.push_back("coalescing from the warps of block 0 at the first iteration of the "
                          "sequential and fold loops, every lane active");
    if (std::any_of(d.accesses.begin(), d.accesses.end(), [](const auto& t) { return t.indirect; }))
        d.notes.push_back("data-dependent (indirect) accesses count as uncoalesced with one "
                          "transaction per lane");
    // Hong & Kim model loads and stores; an atomic is timed as a store, and the serialization
    // of updates to one address is left out (docs/mwp-cwp.md, Workloads from kernel files).
    for (const auto& access : a.accesses)
        if (access.space == kernel::MemorySpace::global &&
            access.direction == analysis::Direction::atomic && !access.indirect) {
            const double executions =
                static_cast<double>(access.count_per_work_item.evaluate(params));
            const double addresses =
                static_cast<double>(access.footprint_elements.evaluate(params));
            d.notes.push_back(fmt::format(
                "'{}' is a global atomic, timed as a store: the serialization of updates to one "
                "address is not modelled ({:.0f} updates reach {:.0f} addresses, at least {:.1f} "
                "one after another on the most contended)",
                access.text, executions, addresses, addresses > 0 ? executions / addresses : 0.0));
        }
    return d;
}

} // namespace kerncast::models::mwp_cwp
