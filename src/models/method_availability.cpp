#include "kerncast/models/method_availability.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <functional>

namespace kerncast::models {

namespace {

// "" when `check` passes, else its error's message.
std::string missing_for(const std::function<void()>& check) {
    try {
        check();
        return {};
    } catch (const Error& error) {
        return error.message();
    }
}

} // namespace

std::vector<MethodAvailability> method_availability(const MachineModel& machine) {
    const std::string volumes = missing_for([&] { check_volume_machine(machine); });
    const std::string mwp = missing_for([&] { (void)mwp_cwp_machine_parameters(machine); });
    const std::string atomics =
        machine.atomic_service_times
            ? std::string()
            : std::string("no shared-memory atomic service-time table (atomic_service_times; "
                          "`kerncast atomics --measure-table` measures it)");
    return {{"volume model (predict, explore)", volumes},
            {"MWP-CWP (mwp)", mwp},
            {"MWP-CWP cache-aware (mwp --mwp-model cache-aware)", !volumes.empty() ? volumes : mwp},
            {"shared-memory atomics (atomics)", atomics}};
}

} // namespace kerncast::models
