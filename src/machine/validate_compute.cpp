// The SM: compute values and their consistency, issue rates, the shared-memory banks and their
// miss pass, MWP-CWP's parameters (machine_checks.hpp; docs/machine-format.md).
#include "kerncast/closest_names.hpp"
#include "machine_checks.hpp"

#include <algorithm>
#include <set>

namespace kerncast::machine_checks {
namespace {

class ComputeChecks : public MachineChecks {
public:
    using MachineChecks::MachineChecks;

    void compute() const {
        const auto& c = m_.compute;
        const std::string p = "/compute";
        section(c, p, mf::compute_fields);
        auto at = [&](const char* key) { return child_pointer(p, key); };

        if (!c.sm_count)
            fail(at("sm_count"), "missing required field \"sm_count\"");

        if (c.register_allocation_granularity &&
            c.register_allocation_granularity->value != "warp" &&
            c.register_allocation_granularity->value != "block")
            fail(at("register_allocation_granularity"),
                 "expected \"warp\" or \"block\", got \"" +
                     c.register_allocation_granularity->value + "\"");

        // Impossible combinations.
        if (c.max_warps_per_sm && c.warp_size && c.max_threads_per_sm &&
            c.max_warps_per_sm->value * c.warp_size->value != c.max_threads_per_sm->value)
            fail(at("max_threads_per_sm"), "max_threads_per_sm (" +
                                               std::to_string(c.max_threads_per_sm->value) +
                                               ") must equal max_warps_per_sm x warp_size (" +
                                               std::to_string(c.max_warps_per_sm->value) + " x " +
                                               std::to_string(c.warp_size->value) + ")");
        not_above(p, c.max_threads_per_block, "max_threads_per_block", c.max_threads_per_sm,
                  "max_threads_per_sm");
        if (c.max_threads_per_block && c.warp_size &&
            c.max_threads_per_block->value % c.warp_size->value != 0)
            fail(at("max_threads_per_block"), "max_threads_per_block (" +
                                                  std::to_string(c.max_threads_per_block->value) +
                                                  ") must be a multiple of warp_size (" +
                                                  std::to_string(c.warp_size->value) + ")");
        not_above(p, c.base_clock_mhz, "base_clock_mhz", c.boost_clock_mhz, "boost_clock_mhz");
        not_above(p, c.shared_memory_per_block_bytes, "shared_memory_per_block_bytes",
                  c.shared_memory_per_block_optin_bytes, "shared_memory_per_block_optin_bytes");
        not_above(p, c.shared_memory_per_block_bytes, "shared_memory_per_block_bytes",
                  c.shared_memory_per_sm_bytes, "shared_memory_per_sm_bytes");
        not_above(p, c.shared_memory_per_block_optin_bytes, "shared_memory_per_block_optin_bytes",
                  c.shared_memory_per_sm_bytes, "shared_memory_per_sm_bytes");
        not_above(p, c.max_registers_per_thread, "max_registers_per_thread", c.registers_per_sm,
                  "registers_per_sm");
        not_above(p, c.max_registers_per_block, "max_registers_per_block", c.registers_per_sm,
                  "registers_per_sm");
        not_above(p, c.warp_allocation_granularity, "warp_allocation_granularity",
                  c.max_warps_per_sm, "max_warps_per_sm");
        if (c.reserved_shared_memory_per_block_bytes && c.shared_memory_per_sm_bytes &&
            c.reserved_shared_memory_per_block_bytes->value >= c.shared_memory_per_sm_bytes->value)
            fail(at("reserved_shared_memory_per_block_bytes"),
                 "reserved_shared_memory_per_block_bytes must be less than "
                 "shared_memory_per_sm_bytes");
        if (c.registers_per_sm && c.register_allocation_unit &&
            c.registers_per_sm->value % c.register_allocation_unit->value != 0)
            fail(at("register_allocation_unit"),
                 "registers_per_sm (" + std::to_string(c.registers_per_sm->value) +
                     ") must be a multiple of register_allocation_unit (" +
                     std::to_string(c.register_allocation_unit->value) + ")");

        if (c.shared_memory_carveouts_kib) {
            const std::string path = at("shared_memory_carveouts_kib");
            source(c.shared_memory_carveouts_kib->source, path);
            const auto& carveouts = c.shared_memory_carveouts_kib->value;
            if (carveouts.empty())
                fail(path, "expected at least one carve-out size");
            for (std::size_t i = 0; i < carveouts.size(); ++i) {
                if (carveouts[i] < 0)
                    fail(child_pointer(path, i),
                         "must not be negative, got " + std::to_string(carveouts[i]));
                if (i > 0 && carveouts[i] <= carveouts[i - 1])
                    fail(child_pointer(path, i), "carve-outs must be listed in increasing order");
            }
            if (c.shared_memory_per_sm_bytes &&
                static_cast<std::int64_t>(carveouts.back()) * 1024 !=
                    c.shared_memory_per_sm_bytes->value)
                fail(path, "the largest carve-out (" + std::to_string(carveouts.back()) +
                               " KiB) must equal shared_memory_per_sm_bytes (" +
                               std::to_string(c.shared_memory_per_sm_bytes->value) + " B)");
        }

        std::set<std::pair<std::string, std::string>> seen;
        for (std::size_t i = 0; i < c.issue_rates.size(); ++i) {
            const auto& rate = c.issue_rates[i];
            const std::string path = child_pointer(at("issue_rates"), i);
            if (rate.op.empty())
                fail(child_pointer(path, "op"), "expected a non-empty instruction class");
            if (rate.dtype.empty())
                fail(child_pointer(path, "dtype"), "expected a non-empty data type");
            if (!seen.insert({rate.op, rate.dtype}).second)
                fail(path, "issue rate for op \"" + rate.op + "\", dtype \"" + rate.dtype +
                               "\" is given twice");
            check_value(Known<double>(rate.per_cycle_per_sm),
                        child_pointer(path, "per_cycle_per_sm"), mf::Range::positive);
        }
    }

    void banks() const { section(m_.shared_memory_banks, "/shared_memory_banks", mf::bank_fields); }

    void mwp_cwp() const { section(m_.mwp_cwp, "/mwp_cwp", mf::mwp_cwp_fields); }

    void miss_pass() const {
        const auto& known = m_.shared_memory_banks.miss_pass;
        if (!known)
            return;
        const std::vector<std::string> allowed(mf::miss_pass_values.begin(),
                                               mf::miss_pass_values.end());
        if (known->value == "after_hits") {
            const auto l2 =
                std::find_if(m_.memory.begin(), m_.memory.end(),
                             [](const MemoryLevel& level) { return level.name == "l2"; });
            if (l2 == m_.memory.end() || !l2->latency_cycles)
                fail("/shared_memory_banks/miss_pass",
                     "miss_pass \"after_hits\" needs the L2 latency (memory level l2, "
                     "latency_cycles): a fill is in flight that long");
        }
        if (std::find(allowed.begin(), allowed.end(), known->value) != allowed.end())
            return;
        std::vector<std::string> notes;
        const auto close = closest_names(known->value, allowed, 2);
        if (!close.empty())
            notes.push_back("did you mean \"" + close.front() + "\"?");
        notes.push_back("values: " + json_reader::quoted_list(allowed));
        fail("/shared_memory_banks/miss_pass", "unknown miss_pass \"" + known->value + "\"", notes);
    }
};

} // namespace

void check_compute(const MachineModel& machine, const JsonPathLocator& locate) {
    ComputeChecks(machine, locate).compute();
}

void check_banks(const MachineModel& machine, const JsonPathLocator& locate) {
    ComputeChecks checks(machine, locate);
    checks.banks();
    checks.miss_pass();
}

void check_mwp_cwp(const MachineModel& machine, const JsonPathLocator& locate) {
    ComputeChecks(machine, locate).mwp_cwp();
}

} // namespace kerncast::machine_checks
