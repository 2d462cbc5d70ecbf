// Registers per thread of a --registers request (launch_registers.hpp).
#include "kerncast/models/prediction/launch_registers.hpp"

#include "kerncast/codegen/register_usage.hpp"

#include <memory>
#include <mutex>

namespace kerncast::models {

namespace {

// ptxas's counter, made when first needed (or at once); one for every launch asked.
class SharedCounter {
public:
    SharedCounter(kernel::KernelSpec spec,
                  std::vector<std::pair<std::string, std::int64_t>> overrides, MachineModel machine)
        : spec_(std::move(spec)), overrides_(std::move(overrides)), machine_(std::move(machine)) {}

    codegen::RegisterCounter& get() {
        std::lock_guard lock(mutex_);
        if (!counter_)
            counter_ = std::make_unique<codegen::RegisterCounter>(spec_, overrides_, machine_);
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
                 const MachineModel& machine, RegisterCount& registers, CounterCreation creation) {
    if (const auto fixed = fixed_register_count(request, spec)) {
        registers = *fixed;
        return {};
    }
    auto counter = std::make_shared<SharedCounter>(spec, overrides, machine);
    if (creation == CounterCreation::now)
        counter->get();
    return [counter](const kernel::LaunchConfig& launch) { return counter->get().count(launch); };
}

} // namespace kerncast::models
