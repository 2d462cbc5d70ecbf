// Passes bind-parameters and lay-out-arrays: the kernel at fixed parameter values, read from the
// bound kernel (kernel/bound_kernel.hpp) so that values and array shapes are computed in one
// place.
#include "lowering_passes.hpp"

namespace kerncast::codegen::lowering {

void bind_parameters(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    state.schedule.spec = spec;
    state.schedule.launch = state.bound.launch();
    state.schedule.parameters = state.bound.named_values();
    for (const auto& [name, value] : state.schedule.parameters)
        state.param_value[name] = value;
    state.domain = std::make_unique<DomainGuards>(spec, state.schedule.parameters);
    if (state.domain->empty())
        unsupported(spec, "the domain is empty at these parameter values");
}

void lay_out_arrays(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    std::set<std::string> written;
    for (const auto& statement : spec.statements)
        if (statement.kind == kernel::StatementKind::compute)
            written.insert(statement.parsed.target->name);
    for (const auto& decl : spec.arrays) {
        ArrayStorage array;
        array.decl = decl;
        array.extents = state.bound.extents(decl.name);
        array.elements = state.bound.elements(decl.name);
        array.offset = state.bound.offset(decl.name);
        if (array.offset < 0 || array.elements < 0)
            unsupported(spec, "array '" + decl.name + "' has a negative size or offset",
                        decl.where);
        array.buffer_elements = array.offset + array.elements;
        array.written = written.count(decl.name) > 0;
        state.schedule.arrays.push_back(array);
    }
}

} // namespace kerncast::codegen::lowering
