// MWP-CWP for a kernel file (kernel_prediction.hpp).
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"

#include "kerncast/error.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/volumes/volumes.hpp"

namespace kerncast::models::mwp_cwp {

KernelMwpPrediction
predict_kernel_mwp(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                   const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                   const MachineModel& machine, const KernelMwpOptions& options,
                   const VolumePrediction* volumes) {
    return predict_kernel_mwp(analyse_launch(spec, launch, overrides, machine), machine, options,
                              volumes);
}

namespace {

KernelMwpPrediction predict_bound(const AnalysedLaunch& launch, const MachineModel& machine,
                                  const KernelMwpOptions& options,
                                  const VolumePrediction* volumes) {
    const analysis::KernelAnalysis& analysis = launch.analysis;
    const std::vector<std::int64_t>& params = launch.params();
    const std::int64_t subgroup_size = launch.subgroup_size;

    KernelMwpPrediction p;
    p.kernel = launch.bound.spec().name;
    p.variant = options.variant;
    p.derived = derive_workload(analysis, launch.bound, machine, {options.registers});
    // Flops as the volume model counts them (add, mul, div, special functions; Ernst et al.
    // sec. 4.1), so that throughputs of the two models divide the same work.
    for (const auto& op : analysis.operations) {
        const bool flop = op.operation == "add" || op.operation == "mul" || op.operation == "div" ||
                          op.operation.rfind("func:", 0) == 0;
        if (!kernel::is_floating(op.dtype) || !flop)
            continue;
        double count = static_cast<double>(op.count.evaluate(params));
        if (op.granularity == analysis::Granularity::subgroup)
            count *= static_cast<double>(subgroup_size);
        else if (op.granularity == analysis::Granularity::work_group)
            count *= static_cast<double>(analysis.threads_per_block);
        p.flops += count;
    }
    if (options.variant == Variant::cache_aware && (!machine.level("l1") || !machine.level("l2")))
        throw_input_error("machine '" + machine.identity.id +
                              "' has no L1 or L2 cache, whose traffic the cache-aware MWP-CWP "
                              "variant needs",
                          {}, {"use --mwp-model classic, Hong & Kim's model without caches"});
    (void)mwp_cwp_machine_parameters(machine); // what the machine lacks, before its memory
    check_arrays_fit_device_memory(launch.bound, machine);
    if (options.variant == Variant::classic) {
        p.model = predict_mwp_cwp(p.derived.workload, machine, options.model);
    } else {
        std::optional<VolumePrediction> predicted;
        if (!volumes) {
            VolumeOptions volume_options;
            volume_options.registers = options.registers;
            predicted = predict_volumes(analysis, launch.bound, machine, volume_options);
            volumes = &*predicted;
        }
        p.cache_aware = predict_cache_aware(p.derived, *volumes, machine, options.model);
        p.model = p.cache_aware->model;
    }
    return p;
}

} // namespace

KernelMwpPrediction predict_kernel_mwp(const AnalysedLaunch& launch, const MachineModel& machine,
                                       const KernelMwpOptions& options,
                                       const VolumePrediction* volumes) {
    try {
        return predict_bound(launch, machine, options, volumes);
    } catch (...) {
        kernel::rethrow_naming_kernel(launch.bound);
    }
}

} // namespace kerncast::models::mwp_cwp
