// Passes bind-parameters and lay-out-arrays: the kernel at fixed parameter values.
#include "kerncast/kernel/expression.hpp"
#include "lowering_passes.hpp"

namespace kerncast::codegen::lowering {

void bind_parameters(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    state.analysis = analysis::analyze(spec, state.requested_launch);
    const std::vector<std::int64_t> values =
        analysis::parameter_values(state.analysis, state.overrides);
    state.schedule.spec = spec;
    state.schedule.launch = state.analysis.launch;
    for (size_t k = 0; k < state.analysis.parameters.size(); ++k)
        state.param_value[state.analysis.parameters[k]] = values[k];
    for (const auto& param : spec.params)
        state.schedule.parameters.emplace_back(param.name, state.param_value.at(param.name));
    state.domain = std::make_unique<DomainGuards>(spec, state.schedule.parameters);
    if (state.domain->empty())
        unsupported(spec, "the domain is empty at these parameter values");
}

void lay_out_arrays(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    const kernel::IntegerLookup lookup_param =
        [&](const std::string& name) -> std::optional<std::int64_t> {
        if (auto it = state.param_value.find(name); it != state.param_value.end())
            return it->second;
        return std::nullopt;
    };
    std::set<std::string> written;
    for (const auto& statement : spec.statements)
        if (statement.kind == kernel::StatementKind::compute)
            written.insert(statement.parsed.target->name);
    for (const auto& decl : spec.arrays) {
        ArrayStorage array;
        array.decl = decl;
        for (const auto& extent : decl.shape) {
            array.extents.push_back(kernel::evaluate_integer(*extent, lookup_param));
            array.elements *= array.extents.back();
        }
        if (decl.offset)
            array.offset = kernel::evaluate_integer(*decl.offset, lookup_param);
        if (array.offset < 0 || array.elements < 0)
            unsupported(spec, "array '" + decl.name + "' has a negative size or offset",
                        decl.where);
        array.buffer_elements = array.offset + array.elements;
        array.written = written.count(decl.name) > 0;
        state.schedule.arrays.push_back(array);
    }
}

} // namespace kerncast::codegen::lowering
