// Registers per thread of a --registers request (launch_registers.hpp).
#include "kerncast/models/prediction/launch_registers.hpp"

#include "kerncast/codegen/register_usage.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace kerncast::models {

namespace {

// ptxas's counter, made when first needed (or at once); one for every launch asked. Its
// counts persist in the default cache directory between runs.
class SharedCounter {
public:
    SharedCounter(kernel::KernelSpec spec,
                  std::vector<std::pair<std::string, std::int64_t>> overrides, MachineModel machine)
        : spec_(std::move(spec)), overrides_(std::move(overrides)), machine_(std::move(machine)) {}

    codegen::RegisterCounter& get() {
        std::lock_guard lock(mutex_);
        if (!counter_)
            counter_ = std::make_unique<codegen::RegisterCounter>(
                spec_, overrides_, machine_, codegen::default_register_cache_directory());
        return *counter_;
    }

private:
    kernel::KernelSpec spec_;
    std::vector<std::pair<std::string, std::int64_t>> overrides_;
    MachineModel machine_;
    std::mutex mutex_;
    std::unique_ptr<codegen::RegisterCounter> counter_;
};

} // namespace

RegistersForLaunch
launch_registers(const RegisterRequest& request, const kernel::KernelSpec& spec,
                 const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                 const MachineModel& machine, RegisterCount& registers, CounterCreation creation,
                 PrepareRegisters* prepare) {
    if (const auto fixed = fixed_register_count(request, spec)) {
        registers = *fixed;
        return {};
    }
    auto counter = std::make_shared<SharedCounter>(spec, overrides, machine);
    if (creation == CounterCreation::now)
        counter->get();
    if (prepare)
        *prepare = [counter](const std::vector<kernel::LaunchConfig>& launches, unsigned jobs) {
            counter->get().prepare(launches, jobs);
        };
    return [counter](const kernel::LaunchConfig& launch) { return counter->get().count(launch); };
}

RegistersForCase space_registers(const RegisterRequest& request,
                                 const std::vector<kernel::KernelSpec>& kernels,
                                 const MachineModel& machine, PrepareRegistersForCase* prepare) {
    using Values = std::vector<std::pair<std::string, std::int64_t>>;
    struct Case {
        RegistersForLaunch count; // empty: `fixed` applies
        RegisterCount fixed;
        PrepareRegisters prepare;
    };
    struct Counters {
        std::mutex mutex;
        std::map<std::pair<std::size_t, Values>, Case> of;
        // The case of a kernel file and values, its counter made when first asked.
        Case& at(const RegisterRequest& request, const std::vector<kernel::KernelSpec>& kernels,
                 const MachineModel& machine, std::size_t k, const Values& values) {
            std::lock_guard lock(mutex);
            auto [at, added] = of.try_emplace({k, values});
            if (added)
                at->second.count =
                    launch_registers(request, kernels.at(k), values, machine, at->second.fixed,
                                     CounterCreation::on_first_launch, &at->second.prepare);
            return at->second;
        }
    };
    auto counters = std::make_shared<Counters>();
    if (prepare)
        *prepare = [counters, request, &kernels,
                    &machine](std::size_t k, const Values& values,
                              const std::vector<kernel::LaunchConfig>& launches, unsigned jobs) {
            const Case& c = counters->at(request, kernels, machine, k, values);
            if (c.prepare)
                c.prepare(launches, jobs);
        };
    return [counters, request, &kernels, &machine](std::size_t k, const Values& values,
                                                   const kernel::LaunchConfig& launch) {
        const Case& c = counters->at(request, kernels, machine, k, values);
        return c.count ? c.count(launch) : c.fixed;
    };
}

} // namespace kerncast::models
