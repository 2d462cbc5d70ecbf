// Pass place-accumulators: an accumulator is a private scalar when its init, updates and the
// piece that reads it share every loop around it; otherwise fusion split those loops and it
// becomes a private array over them (Stevens & Klöckner 8.4, variant 2).
#include "../expr_build.hpp"
#include "lowering_passes.hpp"

namespace kerncast::codegen::lowering {

using kernel::BinaryOp;
using kernel::ExprPtr;
using namespace detail;

namespace {

bool loops_split(const LoweringState& state, const Accumulator& acc) {
    for (const auto& index : acc.outer)
        for (int p : acc.pieces)
            if (state.pieces[static_cast<size_t>(p)].loop_nodes.at(index) !=
                state.pieces[static_cast<size_t>(acc.pieces.front())].loop_nodes.at(index))
                return true;
    return false;
}

} // namespace

void place_accumulators(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    for (size_t id = 0; id < state.accumulators.size(); ++id) {
        Accumulator& acc = state.accumulators[id];
        acc.privatised = loops_split(state, acc);
        ArrayStorage array;
        array.decl.name = acc.name;
        array.decl.space = kernel::MemorySpace::private_;
        const kernel::ArrayDecl* target = spec.find_array(
            spec.statements[static_cast<size_t>(acc.statement)].parsed.target->name);
        // f16 computes in float: so does its accumulator.
        array.decl.dtype = !target                                  ? kernel::DataType::f64
                           : target->dtype == kernel::DataType::f16 ? kernel::DataType::f32
                                                                    : target->dtype;
        array.accumulator = true;
        array.written = true;
        std::vector<ExprPtr> subscripts;
        if (acc.privatised)
            for (const auto& index : acc.outer) {
                const auto [lower, upper] = state.loop_range.at(index);
                array.extents.push_back(upper - lower + 1);
                array.elements *= array.extents.back();
                array.decl.shape.push_back(make_integer(upper - lower + 1));
                subscripts.push_back(lower == 0 ? make_variable(index)
                                                : make_binary(BinaryOp::sub, make_variable(index),
                                                              make_integer(lower)));
            }
        array.buffer_elements = array.elements;
        state.schedule.arrays.push_back(array);
        ExprPtr ref = make_array_ref(acc.name, subscripts);
        state.accumulator_refs[acc.reduction] = ref;
        state.accumulator_target[static_cast<int>(id)] = ref;
    }
}

} // namespace kerncast::codegen::lowering
