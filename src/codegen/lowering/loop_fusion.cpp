// Pass fuse-loops: a piece keeps the open loops it shares with the pieces before it (outermost
// first) and opens the rest in domain order (loopy's nesting of `within` loops). Fusion must
// keep the dependences between the pieces of one loop iteration (fusion_is_legal);
// reductions' accumulators are fresh and need no check.
#include "loop_fusion.hpp"

#include "lowering_passes.hpp"

#include <algorithm>

namespace kerncast::codegen::lowering {

using kernel::ExprKind;
using kernel::ExprPtr;

namespace {

void collect_accesses(const ExprPtr& expr, const kernel::KernelSpec& spec, bool write,
                      std::vector<Access>& out) {
    if (!expr)
        return;
    if ((expr->kind == ExprKind::array_ref || expr->kind == ExprKind::variable) &&
        spec.find_array(expr->name))
        out.push_back({expr->name, expr->operands, write});
    for (const auto& operand : expr->operands)
        collect_accesses(operand, spec, false, out);
}

bool mentions(const std::vector<ExprPtr>& subscripts, const std::string& index) {
    std::vector<std::string> names;
    for (const auto& subscript : subscripts)
        kernel::collect_variables(*subscript, names);
    return std::find(names.begin(), names.end(), index) != names.end();
}

std::string subscript_text(const std::vector<ExprPtr>& subscripts) {
    std::string text;
    for (const auto& subscript : subscripts)
        text += kernel::to_string(*subscript) + ",";
    return text;
}

// The array accesses of every piece (inits and barriers have none that matter).
std::vector<std::vector<Access>> piece_accesses(const LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    std::vector<std::vector<Access>> accesses(state.pieces.size());
    for (size_t p = 0; p < state.pieces.size(); ++p) {
        const Piece& piece = state.pieces[p];
        if (piece.kind == PieceKind::barrier || piece.kind == PieceKind::init)
            continue;
        if (piece.kind == PieceKind::update) {
            collect_accesses(piece.reduction->operands.at(0), spec, false, accesses[p]);
            continue;
        }
        const auto& statement = spec.statements[static_cast<size_t>(piece.statement)];
        collect_accesses(statement.parsed.target, spec, true, accesses[p]);
        collect_accesses(statement.parsed.compare, spec, false, accesses[p]);
        collect_accesses(statement.parsed.value, spec, false, accesses[p]);
        collect_accesses(statement.condition, spec, false, accesses[p]);
    }
    return accesses;
}

} // namespace

bool fusion_is_legal(const std::vector<Access>& earlier, const std::vector<Access>& later,
                     const std::string& index) {
    for (const auto& a : earlier)
        for (const auto& b : later) {
            if (a.array != b.array || (!a.write && !b.write))
                continue;
            const bool same = subscript_text(a.subscripts) == subscript_text(b.subscripts);
            if (!same && (mentions(a.subscripts, index) || mentions(b.subscripts, index)))
                return false;
        }
    return true;
}

void fuse_loops(LoweringState& state) {
    const std::vector<std::vector<Access>> accesses = piece_accesses(state);
    struct OpenLoop {
        std::string index;
        int node;
        size_t first_piece; // pieces since this loop instance opened
    };
    std::vector<OpenLoop> open;
    int next_node = 0;
    for (size_t p = 0; p < state.pieces.size(); ++p) {
        Piece& piece = state.pieces[p];
        size_t shared = 0;
        while (shared < open.size() && piece.loops.count(open[shared].index)) {
            bool legal = true;
            for (size_t q = open[shared].first_piece; q < p && legal; ++q)
                legal = fusion_is_legal(accesses[q], accesses[p], open[shared].index);
            if (!legal)
                break;
            ++shared;
        }
        open.resize(shared);
        piece.shared = shared;
        std::set<std::string> rest = piece.loops;
        for (const auto& loop : open) {
            rest.erase(loop.index);
            piece.order.push_back(loop.index);
        }
        for (const auto& index : state.in_domain_order(rest)) {
            open.push_back({index, next_node++, p});
            piece.order.push_back(index);
        }
        for (const auto& loop : open)
            piece.loop_nodes[loop.index] = loop.node;
    }
}

} // namespace kerncast::codegen::lowering
