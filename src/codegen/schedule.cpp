// Lowering a KernelSpec to a Schedule (schedule.hpp): a pipeline of named passes over one
// lowering state (lowering/lowering_passes.hpp), the way llvm-mca's
// Context::createDefaultPipeline chains its stages. Bounds and guards come from the isl domain:
// each sequential loop runs over the bounding box of its index, and each statement piece is
// guarded by the kernel domain projected onto the indices it runs over (the statement-domain
// convention of docs/kernel-format.md), simplified (isl gist) against what the loops and the
// grid already guarantee, and printed through isl's AST expression builder.
#include "kerncast/codegen/schedule.hpp"

#include "kerncast/kernel/bound_kernel.hpp"
#include "lowering/lowering_passes.hpp"

namespace kerncast::codegen {

const ArrayStorage* Schedule::find_array(const std::string& name) const {
    for (const auto& array : arrays)
        if (array.decl.name == name)
            return &array;
    return nullptr;
}

namespace {

// The grid the thread mapping chose must be launchable (CUDA's limits, launch_text.hpp):
// generated code for a 65536-block y grid would only fail at cudaLaunchKernel.
Schedule run_pipeline(lowering::LoweringState& state) {
    for (const lowering::LoweringPass& pass : lowering::lowering_pipeline())
        pass.run(state);
    kernel::check_grid_limits(state.bound, state.schedule.grid);
    return std::move(state.schedule);
}

} // namespace

Schedule lower_kernel(const kernel::BoundKernel& bound) {
    lowering::LoweringState state(bound);
    return run_pipeline(state);
}

Schedule lower_kernel(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                      const kernel::ParameterOverrides& overrides) {
    lowering::LoweringState state(spec, launch, overrides);
    return run_pipeline(state);
}

} // namespace kerncast::codegen
