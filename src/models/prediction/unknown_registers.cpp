#include "kerncast/models/prediction/unknown_registers.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"

#include <cmath>
#include <fmt/format.h>

namespace kerncast::models {

std::optional<std::string>
unknown_registers_warning(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                          const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                          const MachineModel& machine, const VolumeOptions& options,
                          const VolumePrediction& prediction, const std::string& subject,
                          const AnalysedLaunch* analysed) {
    if (prediction.placement.registers.source != RegisterSource::unknown ||
        prediction.limiter.binding != Limiter::dram_in_flight)
        return std::nullopt;
    const std::string what =
        "Registers unknown: the binding DRAM in-flight limit assumes that registers limit "
        "neither the threads an SM holds nor the loads a thread keeps in flight";
    const std::string how = "give registers_per_thread in the kernel file or --registers N|auto";
    try {
        RegisterRequest request;
        request.kind = RegisterRequest::Kind::automatic;
        RegisterCount unused;
        const RegistersForLaunch ptxas =
            launch_registers(request, spec, overrides, machine, unused, CounterCreation::now);
        const VolumePrediction counted =
            analysed ? predict_launch(*analysed, machine, options, ptxas)
                     : predict_launch(spec, launch, overrides, machine, options, ptxas);
        const double before = prediction.limiter.points_per_second;
        const double after = counted.limiter.points_per_second;
        // A change that rounds to none says only that the assumption does not matter here.
        if (before > 0 && std::abs(after / before - 1) < 0.005)
            return fmt::format("{}. With ptxas's count for kerncast's generated code ({} "
                               "registers, --registers auto) {} is forecast at the same {:.2f} "
                               "Gpoints/s (within 0.5 %); {}.",
                               what, counted.placement.registers.per_thread, subject, before / 1e9,
                               how);
        return fmt::format("{}. With ptxas's count for kerncast's generated code ({} registers, "
                           "--registers auto) {} is forecast at {:.2f} instead of {:.2f} "
                           "Gpoints/s ({:+.0f} %); {}.",
                           what, counted.placement.registers.per_thread, subject, after / 1e9,
                           before / 1e9, before > 0 ? 100 * (after / before - 1) : 0.0, how);
    } catch (const Error& error) { // no NVRTC, or code the generator cannot write
        return fmt::format("{}; the effect cannot be sized here ({}): {}.", what, error.message(),
                           how);
    }
}

void add_best_registers_warning(report::Document& document, const kernel::KernelSpec& spec,
                                const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                                const MachineModel& machine, const ExploreOptions& options,
                                const ExploreResult& result) {
    if (result.rows.empty() || !result.rows.front().prediction || options.registers_for_launch)
        return;
    const ExploreRow& best = result.rows.front();
    if (const auto warning =
            unknown_registers_warning(spec, best.launch, overrides, machine, options.volume,
                                      *best.prediction, "the best configuration"))
        document.notes.insert(document.notes.begin(),
                              *warning + " The ranking's other rows rest on the same assumption.");
}

} // namespace kerncast::models
