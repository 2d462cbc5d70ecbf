// The models' tables: capacity fits, calibrated costs and the atomics' service times
// (machine_checks.hpp; docs/machine-format.md).
#include "machine_checks.hpp"

#include <set>

namespace kerncast::machine_checks {
namespace {

class TableChecks : public MachineChecks {
public:
    using MachineChecks::MachineChecks;

    void capacity_fits() const {
        for (const auto& slot : mf::capacity_fit_slots) {
            const auto& fit = m_.capacity_fits.*slot.member;
            if (!fit)
                continue;
            const std::string path = child_pointer("/capacity_fits", std::string(slot.key));
            for (auto [name, value] :
                 {std::pair{"a", &fit->a}, std::pair{"b", &fit->b}, std::pair{"c", &fit->c}})
                check_value(Known<double>(*value), child_pointer(path, name), mf::Range::any);
            // hit(O) = a exp(-b exp(-c O)) is a hit rate that falls with O only for
            // 0 < a <= 1, b > 0, c < 0 (docs/volume-model.md, Capacity-miss fits); beyond
            // |b|, |c| <= 10^6 exp() over- or underflows at ordinary O.
            if (!(fit->a.value > 0 && fit->a.value <= 1))
                fail(child_pointer(path, "a"),
                     "expected 0 < a <= 1 (the hit rate's level), got " + scientific(fit->a.value));
            if (!(fit->b.value > 0 && fit->b.value <= 1e6))
                fail(child_pointer(path, "b"),
                     "expected 0 < b <= 10^6, got " + scientific(fit->b.value));
            if (!(fit->c.value < 0 && fit->c.value >= -1e6))
                fail(child_pointer(path, "c"),
                     "expected -10^6 <= c < 0 (hits fall as the cache is oversubscribed), got " +
                         scientific(fit->c.value));
        }
    }

    void calibrated_costs() const {
        for (const auto& [name, cost] : m_.calibrated_costs) {
            const std::string path = child_pointer("/calibrated_costs", name);
            if (name.empty() || name == "source")
                fail(path, "a calibrated cost needs a name other than \"\" or \"source\"");
            check_value(Known<double>(cost), path, mf::Range::any);
        }
    }

    void atomic_service_times() const {
        if (!m_.atomic_service_times)
            return;
        const auto& table = *m_.atomic_service_times;
        const std::string path = "/atomic_service_times";
        source(table.source, child_pointer(path, "source"));
        const int warp_size = m_.compute.warp_size ? m_.compute.warp_size->value : 32;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < table.operations.size(); ++i) {
            const auto& grid = table.operations[i];
            const std::string grid_path = child_pointer(child_pointer(path, "operations"), i);
            if (grid.operation != "add" && grid.operation != "popc_inc")
                fail(child_pointer(grid_path, "operation"),
                     "must be \"add\" or \"popc_inc\", got \"" + grid.operation + "\"");
            if (!seen.insert(grid.operation).second)
                fail(child_pointer(grid_path, "operation"),
                     "operation \"" + grid.operation + "\" is given twice");
            auto ascending = [&](const std::vector<int>& axis, const char* key, int low, int high) {
                const std::string axis_path = child_pointer(grid_path, key);
                if (axis.empty())
                    fail(axis_path, "must list at least one value");
                for (std::size_t k = 0; k < axis.size(); ++k) {
                    if (axis[k] < low || axis[k] > high)
                        fail(child_pointer(axis_path, k), "must be between " + std::to_string(low) +
                                                              " and " + std::to_string(high) +
                                                              ", got " + std::to_string(axis[k]));
                    if (k > 0 && axis[k] <= axis[k - 1])
                        fail(child_pointer(axis_path, k),
                             "must be larger than the value before it (" +
                                 std::to_string(axis[k - 1]) + "): the axis ascends");
                }
            };
            ascending(grid.queued_warps, "queued_warps", 1, 4096);
            ascending(grid.active_threads, "active_threads", 1, warp_size);
            for (std::size_t n = 0; n < grid.total_cycles.size(); ++n)
                for (std::size_t e = 0; e < grid.total_cycles[n].size(); ++e)
                    for (std::size_t c = 0; c < grid.total_cycles[n][e].size(); ++c) {
                        const double cycles = grid.total_cycles[n][e][c];
                        if (!(cycles > 0) || !std::isfinite(cycles))
                            fail(child_pointer(
                                     child_pointer(
                                         child_pointer(child_pointer(grid_path, "total_cycles"), n),
                                         e),
                                     c),
                                 "must be positive, got " + number(cycles));
                    }
        }
    }
};

} // namespace

void check_tables(const MachineModel& machine, const JsonPathLocator& locate) {
    TableChecks checks(machine, locate);
    checks.capacity_fits();
    checks.calibrated_costs();
    checks.atomic_service_times();
}

} // namespace kerncast::machine_checks
