// Passes map-threads and bound-sequential-loops: which indices the threads take over, the grid
// that covers the domain, and the bounding box of every other index.
#include "lowering_passes.hpp"

namespace kerncast::codegen::lowering {

namespace {

// `form` with the parameters replaced by their values.
kernel::AffineForm fold_params(const kernel::AffineForm& form,
                               const std::map<std::string, std::int64_t>& param_value) {
    kernel::AffineForm folded;
    folded.constant = form.constant;
    for (const auto& [symbol, coefficient] : form.coefficients) {
        if (auto it = param_value.find(symbol); it != param_value.end())
            folded.constant += coefficient * it->second;
        else
            folded.add_term(symbol, coefficient);
    }
    return folded;
}

enum class MappingKind { global, block, local };

// One thread-mapped index on `axis`: its form, the grid along the axis (global and block
// indices), and the range the mapping guarantees.
void map_thread_index(LoweringState& state, const std::string& index, int axis, MappingKind kind) {
    const auto a = static_cast<size_t>(axis);
    Schedule& schedule = state.schedule;
    const std::int64_t block = schedule.launch.block[a], fold = schedule.launch.fold[a];
    ThreadIndex t;
    t.index = index;
    t.axis = axis;
    t.explicit_block = kind == MappingKind::block;
    t.explicit_local = kind == MappingKind::local;
    t.form = fold_params(state.analysis.index_forms.at(index), state.param_value);
    const auto [lower, upper] = state.domain->range(index);
    if (kind == MappingKind::global) {
        const std::int64_t per_block = block * fold;
        schedule.grid[a] = (upper - t.form.constant + per_block) / per_block;
        state.domain->know(index, t.form.constant,
                           t.form.constant + schedule.grid[a] * per_block - 1);
    } else if (kind == MappingKind::block) {
        if (lower < 0)
            unsupported(state.spec, "block index '" + index + "' takes negative values");
        schedule.grid[a] = upper + 1;
        state.domain->know(index, 0, upper);
    } else {
        state.domain->know(index, 0, block - 1);
    }
    state.thread_mapped.insert(index);
    schedule.thread_indices.push_back(t);
}

} // namespace

void map_threads(LoweringState& state) {
    const kernel::ThreadMapping& threads = state.spec.threads;
    for (int axis = 0; axis < kernel::axis_count; ++axis) {
        const auto a = static_cast<size_t>(axis);
        if (!threads.global[a].empty())
            map_thread_index(state, threads.global[a], axis, MappingKind::global);
        if (!threads.block[a].empty())
            map_thread_index(state, threads.block[a], axis, MappingKind::block);
        if (!threads.local[a].empty())
            map_thread_index(state, threads.local[a], axis, MappingKind::local);
    }
}

void bound_sequential_loops(LoweringState& state) {
    for (const auto& index : state.spec.indices)
        if (!state.thread_mapped.count(index)) {
            const IndexRange range = state.domain->range(index);
            state.loop_range[index] = range;
            state.domain->know(index, range.first, range.second);
        }
}

} // namespace kerncast::codegen::lowering
