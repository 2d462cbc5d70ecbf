#include "kerncast/models/prediction/analysed_launch.hpp"

#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/launch_text.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kerncast::models {

void check_arrays_fit_device_memory(const kernel::BoundKernel& bound, const MachineModel& machine) {
    const MemoryLevel* dram = machine.level("dram");
    if (!dram || !dram->size_bytes)
        return;
    // In doubles: an array whose bytes pass 2^63 (an offset of 2^62 elements) is left to the
    // checked address arithmetic of the models, which names the statement that reaches it.
    double total = 0;
    std::vector<std::pair<double, std::string>> largest;
    for (const kernel::ArrayDecl& array : bound.spec().arrays) {
        if (array.space != kernel::MemorySpace::global &&
            array.space != kernel::MemorySpace::constant)
            continue;
        const double bytes =
            (static_cast<double>(bound.elements(array.name)) +
             static_cast<double>(std::max<std::int64_t>(0, bound.offset(array.name)))) *
            kernel::data_type_bytes(array.dtype);
        if (bytes >= 0x1p63)
            return;
        total += bytes;
        largest.emplace_back(bytes, array.name);
    }
    const double capacity = static_cast<double>(dram->size_bytes->value);
    if (total <= capacity)
        return;
    std::sort(largest.begin(), largest.end(), std::greater<>());
    std::string arrays;
    for (const auto& [bytes, name] : largest)
        arrays += fmt::format("{}{} {:.4g} GB", arrays.empty() ? "" : ", ", name, bytes / 1e9);
    const std::string values = kernel::parameters_note(bound.named_values());
    throw_input_error(
        fmt::format("the kernel's arrays need {:.4g} GB, more than the {:.4g} GB of device memory "
                    "of machine '{}': a launch that cannot be allocated is not forecast",
                    total / 1e9, capacity / 1e9,
                    machine.identity.id.empty() ? machine.identity.name : machine.identity.id),
        SourceLocation{bound.spec().file, 0, 0, {}, {}},
        {"arrays: " + arrays, "parameters: " + (values.empty() ? "(none)" : values)});
}

AnalysedLaunch analyse_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                              const kernel::ParameterOverrides& overrides,
                              const MachineModel& machine) {
    // Limits first: the analysis of a 2^30-thread block or a fold longer than the domain would
    // take time that grows with it, for a launch that cannot run anyway.
    kernel::check_launch_limits(launch, "launch");
    analysis::CountOptions counting;
    counting.count_index_arithmetic = true; // MWP-CWP's instruction mix
    if (machine.compute.warp_size)
        counting.subgroup_size = machine.compute.warp_size->value;
    analysis::KernelAnalysis analysis =
        analysis::analyze(analysis::staging_judged_at(spec, overrides), launch, counting);
    kernel::BoundKernel bound = analysis::bind(analysis, overrides);
    analysis::check_fold_within_domain(bound);
    kernel::check_grid_limits(bound);
    return {std::move(analysis), std::move(bound), counting.subgroup_size};
}

} // namespace kerncast::models
