// Dong & Pai sec. 3.2, equations (1)-(3): interpolating the measured T(n, e, c).
#include "kerncast/models/atomics/service_time.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kerncast::models::atomics {
namespace {

std::string format(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// The two samples of an ascending axis around x and the weight of the upper one; x must lie
// within [axis.front(), axis.back()].
struct Bracket {
    std::size_t low = 0, high = 0;
    double weight_high = 0;
};

Bracket bracket(const std::vector<int>& axis, double x) {
    const auto upper = std::lower_bound(axis.begin(), axis.end(), x,
                                        [](int sample, double v) { return sample < v; });
    Bracket b;
    b.high = static_cast<std::size_t>(upper - axis.begin());
    if (b.high < axis.size() && axis[b.high] == x) {
        b.low = b.high;
        return b;
    }
    b.low = b.high - 1;
    b.weight_high = (x - axis[b.low]) / (axis[b.high] - axis[b.low]);
    return b;
}

// T at the sampled n index `ni` and e index `ei`, at a CAS count c in 0..n (linear between the
// integral counts around it).
double at_cas(const AtomicServiceGrid& grid, std::size_t ni, std::size_t ei, double c) {
    const auto& by_cas = grid.total_cycles.at(ni).at(ei);
    const double clamped = std::clamp(c, 0.0, static_cast<double>(by_cas.size() - 1));
    const auto low = static_cast<std::size_t>(std::floor(clamped));
    if (low + 1 >= by_cas.size())
        return by_cas[low];
    const double weight = clamped - static_cast<double>(low);
    return weight == 0 ? by_cas[low] : (1 - weight) * by_cas[low] + weight * by_cas[low + 1];
}

} // namespace

ServiceTime service_time(const AtomicServiceGrid& grid, const ServicePoint& point) {
    const double n = point.queued_warps, e = point.active_threads, c = point.cas_warps;
    KERNCAST_CHECK(!grid.queued_warps.empty() && !grid.active_threads.empty(),
                   "an atomic service grid without samples");
    const std::string where = " (operation " + grid.operation + ")";
    if (!std::isfinite(n) || n < 0)
        throw_input_error("queued warps n = " + format(n) + " must be at least 0" + where);
    if (n > grid.queued_warps.back())
        throw_input_error("queued warps n = " + format(n) +
                          " is beyond the table's largest sampled n = " +
                          std::to_string(grid.queued_warps.back()) + where);
    if (!std::isfinite(e) || e < grid.active_threads.front() || e > grid.active_threads.back())
        throw_input_error("active threads e = " + format(e) + " is outside the table's sampled " +
                          std::to_string(grid.active_threads.front()) + ".." +
                          std::to_string(grid.active_threads.back()) + where);
    if (!std::isfinite(c) || c < 0 || c > n + 1e-9 * std::max(1.0, n))
        throw_input_error("CAS warps c = " + format(c) + " must lie in 0..n = " + format(n) +
                          where);

    ServiceTime result;
    result.point = point;
    const Bracket eb = bracket(grid.active_threads, e);
    result.active_threads_low = grid.active_threads[eb.low];
    result.active_threads_high = grid.active_threads[eb.high];
    const double cas_fraction = n > 0 ? std::min(1.0, c / n) : 0.0;

    // T at a sampled n (index ni), interpolated in e and c.
    auto at_n = [&](std::size_t ni) {
        const double ck = cas_fraction * grid.queued_warps[ni];
        const double low = at_cas(grid, ni, eb.low, ck);
        if (eb.weight_high == 0)
            return low;
        return (1 - eb.weight_high) * low + eb.weight_high * at_cas(grid, ni, eb.high, ck);
    };

    if (n < grid.queued_warps.front()) {
        // Between eq. (1)'s T(0, e, c) = 0 and the smallest sample.
        result.queued_warps_low = 0;
        result.queued_warps_high = grid.queued_warps.front();
        result.total_cycles = n / grid.queued_warps.front() * at_n(0);
    } else {
        const Bracket nb = bracket(grid.queued_warps, n);
        result.queued_warps_low = grid.queued_warps[nb.low];
        result.queued_warps_high = grid.queued_warps[nb.high];
        const double low = at_n(nb.low);
        result.total_cycles =
            nb.weight_high == 0 ? low : (1 - nb.weight_high) * low + nb.weight_high * at_n(nb.high);
    }
    result.service_cycles = n > 0 ? result.total_cycles / n : 0.0; // eq. (3)
    return result;
}

const AtomicServiceGrid& service_grid(const MachineModel& machine, const std::string& operation) {
    const std::string label =
        machine.identity.id.empty() ? machine.identity.name : machine.identity.id;
    if (!machine.atomic_service_times)
        throw_input_error(
            "machine '" + label +
                "' lacks a measured shared-memory atomic service-time table "
                "(atomic_service_times)",
            {},
            {"no built-in machine carries one yet: the table is measured on the GPU with "
             "`kerncast atomics --measure-table` and merged into a machine file "
             "(docs/atomics.md)"});
    if (const auto* grid = machine.atomic_service_times->grid(operation))
        return *grid;
    std::string have;
    for (const auto& grid : machine.atomic_service_times->operations)
        have += (have.empty() ? "" : ", ") + grid.operation;
    throw_input_error("machine '" + label + "' has no atomic service times for operation '" +
                          operation + "' (it has: " + (have.empty() ? "none" : have) + ")",
                      {}, {"choose one with --operation"});
}

} // namespace kerncast::models::atomics
