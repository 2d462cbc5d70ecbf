// Pass build-loop-tree: the schedule's loop tree from the fused piece order, each step with its
// guard (the domain projected onto the indices it runs over, cached by that index set) and,
// for reductions, its accumulator reads and writes.
#include "../expr_build.hpp"
#include "lowering_passes.hpp"

#include <tuple>

namespace kerncast::codegen::lowering {

using kernel::Expr;
using kernel::ExprPtr;
using namespace detail;

namespace {

// The expression with each reduction replaced by its accumulator reference.
ExprPtr replace_reductions(const ExprPtr& expr, const std::map<const Expr*, ExprPtr>& with) {
    return kernel::replace_subexpressions(expr, [&](const Expr& e) -> ExprPtr {
        const auto it = with.find(&e);
        return it == with.end() ? nullptr : it->second;
    });
}

class StepBuilder {
public:
    explicit StepBuilder(LoweringState& state) : state_(state) {}

    Step step(const Piece& piece) {
        Step step;
        step.source_statement = piece.statement;
        const kernel::StatementSpec& statement =
            state_.spec.statements[static_cast<size_t>(piece.statement)];
        switch (piece.kind) {
        case PieceKind::barrier:
            step.kind = StepKind::barrier;
            return step;
        case PieceKind::plain:
            step.statement = statement.parsed;
            break;
        case PieceKind::init:
        case PieceKind::update:
            accumulator_step(piece, step);
            break;
        case PieceKind::store:
            step.statement = statement.parsed;
            step.statement.target = replace(statement.parsed.target);
            step.statement.compare = replace(statement.parsed.compare);
            step.statement.value = replace(statement.parsed.value);
            step.role = "store";
            break;
        }
        step.guard = guard_for(piece);
        return step;
    }

private:
    ExprPtr replace(const ExprPtr& expr) const {
        return replace_reductions(expr, state_.accumulator_refs);
    }

    void accumulator_step(const Piece& piece, Step& step) const {
        const Accumulator& acc = state_.accumulators[static_cast<size_t>(piece.accumulator)];
        const bool product = acc.reduction->name == "prod";
        step.statement.target = state_.accumulator_target.at(piece.accumulator);
        if (piece.kind == PieceKind::init) {
            step.role = "init " + acc.name;
            step.statement.op = kernel::AssignOp::assign;
            step.statement.value = make_integer(product ? 1 : 0);
        } else {
            step.role = "update " + acc.name;
            step.statement.op =
                product ? kernel::AssignOp::mul_assign : kernel::AssignOp::add_assign;
            step.statement.value = replace(acc.reduction->operands.at(0));
        }
    }

    ExprPtr guard_for(const Piece& piece) {
        std::set<std::string> keep = piece.loops;
        keep.insert(state_.thread_mapped.begin(), state_.thread_mapped.end());
        auto it = guard_cache_.find(keep);
        if (it == guard_cache_.end())
            it = guard_cache_.emplace(keep, state_.domain->guard(keep)).first;
        return conjunction(it->second,
                           state_.spec.statements[static_cast<size_t>(piece.statement)].condition);
    }

    LoweringState& state_;
    std::map<std::set<std::string>, ExprPtr> guard_cache_;
};

} // namespace

void build_loop_tree(LoweringState& state) {
    StepBuilder builder(state);
    std::vector<std::vector<Step>*> stack{&state.schedule.body};
    for (const auto& piece : state.pieces) {
        stack.resize(piece.shared + 1);
        for (size_t k = piece.shared; k < piece.order.size(); ++k) {
            Step loop;
            loop.kind = StepKind::loop;
            loop.index = piece.order[k];
            std::tie(loop.lower, loop.upper) = state.loop_range.at(loop.index);
            stack.back()->push_back(std::move(loop));
            stack.push_back(&stack.back()->back().body);
        }
        stack.back()->push_back(builder.step(piece));
    }
}

} // namespace kerncast::codegen::lowering
