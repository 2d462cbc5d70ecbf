// Passes split-statements and order-reduction-pieces: statements become the pieces of the loop
// tree, reductions get their accumulators (Stevens & Klöckner 8.4's privatised accumulators).
#include "kerncast/error.hpp"
#include "lowering_passes.hpp"

#include <algorithm>
#include <functional>

namespace kerncast::codegen::lowering {

using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;

namespace {

// A reduction of a statement; nested reductions (a reduction inside another's body) are
// children of the one whose body holds them.
struct FoundReduction {
    const Expr* expr = nullptr;
    int parent = -1;                 // index into the statement's list; -1: top level
    std::set<std::string> enclosing; // indices bound by the enclosing reductions
};

// Variables an expression uses outside reductions (free in the whole expression), and its
// reductions in pre-order (a parent before its children).
void scan(const ExprPtr& expr, const std::set<std::string>& bound, int parent,
          std::set<std::string>& used, std::vector<FoundReduction>& reductions) {
    if (!expr)
        return;
    if (expr->kind == ExprKind::variable && !bound.count(expr->name))
        used.insert(expr->name);
    if (expr->kind == ExprKind::reduction) {
        FoundReduction found;
        found.expr = expr.get();
        found.parent = parent;
        found.enclosing = bound;
        const int id = static_cast<int>(reductions.size());
        reductions.push_back(found);
        std::set<std::string> inner = bound;
        inner.insert(expr->reduction_indices.begin(), expr->reduction_indices.end());
        for (const auto& operand : expr->operands)
            scan(operand, inner, id, used, reductions);
        return;
    }
    for (const auto& operand : expr->operands)
        scan(operand, bound, parent, used, reductions);
}

// What the generator cannot express of an atomic statement: only bitwise atomics on reals
// (every kind has a native CUDA atomic or the compare-and-swap loop of docs/codegen.md).
void check_atomic(const kernel::KernelSpec& spec, const kernel::StatementSpec& statement) {
    const kernel::AtomicKind kind = *statement.parsed.atomic;
    const kernel::ArrayDecl* target = spec.find_array(statement.parsed.target->name);
    KERNCAST_CHECK(target != nullptr, "the kernel file checks atomic targets");
    const bool bitwise = kind == kernel::AtomicKind::bit_and ||
                         kind == kernel::AtomicKind::bit_or || kind == kernel::AtomicKind::bit_xor;
    if (bitwise && kernel::is_floating(target->dtype))
        unsupported(spec,
                    std::string("atomic_") + kernel::atomic_kind_name(kind) +
                        " needs an integer target; '" + target->name + "' is " +
                        kernel::data_type_name(target->dtype),
                    statement.where);
}

// Names an accumulator must not take: arrays, indices, parameters, other accumulators.
std::set<std::string> declared_names(const kernel::KernelSpec& spec) {
    std::set<std::string> taken;
    for (const auto& array : spec.arrays)
        taken.insert(array.name);
    for (const auto& index : spec.indices)
        taken.insert(index);
    for (const auto& param : spec.params)
        taken.insert(param.name);
    return taken;
}

// One statement with reductions, split into init / update / store pieces around one
// accumulator per reduction (a nested one is (re)initialised in every iteration of the
// reduction loops around it).
class ReductionSplitter {
public:
    ReductionSplitter(LoweringState& state, std::set<std::string>& taken_names, size_t statement,
                      const std::set<std::string>& outer, const std::vector<FoundReduction>& found)
        : state_(state), taken_names_(taken_names), statement_(statement), outer_(outer),
          found_(found), first_accumulator_(static_cast<int>(state.accumulators.size())) {}

    void run() {
        for (const FoundReduction& reduction : found_)
            add_accumulator(reduction);
        for (size_t r = 0; r < found_.size(); ++r)
            if (found_[r].parent < 0)
                init_piece(static_cast<int>(r));
        for (size_t r = 0; r < found_.size(); ++r)
            if (found_[r].parent < 0)
                update_pieces(static_cast<int>(r));
        Piece store;
        store.kind = PieceKind::store;
        store.statement = static_cast<int>(statement_);
        store.loops = outer_;
        state_.pieces.push_back(store);
    }

private:
    void check_indices(const FoundReduction& reduction) const {
        const kernel::StatementSpec& statement = state_.spec.statements[statement_];
        for (const auto& index : reduction.expr->reduction_indices) {
            if (reduction.enclosing.count(index))
                unsupported(state_.spec,
                            "reduction index '" + index +
                                "' is already bound by an enclosing reduction; name the "
                                "nested reduction's index differently",
                            statement.where);
            if (state_.thread_mapped.count(index) || outer_.count(index) ||
                !state_.loop_range.count(index))
                unsupported(state_.spec,
                            "reduction index '" + index +
                                "' must be a sequential index that the statement does not "
                                "use outside the reduction",
                            statement.where);
        }
    }

    void add_accumulator(const FoundReduction& reduction) {
        check_indices(reduction);
        Accumulator acc;
        const std::string base = "acc_" + state_.spec.statements[statement_].parsed.target->name;
        acc.name = base;
        for (int k = 2; taken_names_.count(acc.name); ++k)
            acc.name = base + std::to_string(k);
        taken_names_.insert(acc.name);
        acc.statement = static_cast<int>(statement_);
        acc.reduction = reduction.expr;
        acc.parent = reduction.parent < 0 ? -1 : first_accumulator_ + reduction.parent;
        std::set<std::string> around = outer_;
        around.insert(reduction.enclosing.begin(), reduction.enclosing.end());
        acc.outer = state_.in_domain_order(around);
        state_.accumulators.push_back(acc);
    }

    Piece piece(PieceKind kind, int r) const {
        Piece piece;
        piece.kind = kind;
        piece.statement = static_cast<int>(statement_);
        piece.accumulator = first_accumulator_ + r;
        piece.loops = outer_;
        const FoundReduction& reduction = found_[static_cast<size_t>(r)];
        piece.loops.insert(reduction.enclosing.begin(), reduction.enclosing.end());
        return piece;
    }

    void init_piece(int r) { state_.pieces.push_back(piece(PieceKind::init, r)); }

    // A reduction's update runs after its children's inits and updates, inside their common
    // loops: init(inner) for (l) update(inner); update(outer).
    void update_pieces(int r) {
        std::vector<int> children;
        for (size_t c = 0; c < found_.size(); ++c)
            if (found_[c].parent == r)
                children.push_back(static_cast<int>(c));
        for (int c : children)
            init_piece(c);
        for (int c : children)
            update_pieces(c);
        Piece update = piece(PieceKind::update, r);
        update.reduction = found_[static_cast<size_t>(r)].expr;
        update.loops.insert(update.reduction->reduction_indices.begin(),
                            update.reduction->reduction_indices.end());
        state_.pieces.push_back(update);
    }

    LoweringState& state_;
    std::set<std::string>& taken_names_;
    size_t statement_;
    const std::set<std::string>& outer_;
    const std::vector<FoundReduction>& found_;
    int first_accumulator_;
};

// Whether `piece`'s statement mentions `array` anywhere (target, compare, value, condition).
bool references(const kernel::KernelSpec& spec, const Piece& piece, const std::string& array) {
    if (piece.kind == PieceKind::barrier)
        return false;
    const auto& statement = spec.statements[static_cast<size_t>(piece.statement)];
    std::vector<std::string> names;
    std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& e) {
        if (!e)
            return;
        if (e->kind == ExprKind::array_ref || e->kind == ExprKind::variable)
            names.push_back(e->name);
        for (const auto& operand : e->operands)
            walk(operand);
    };
    walk(statement.parsed.target);
    walk(statement.parsed.compare);
    walk(statement.parsed.value);
    walk(statement.condition);
    return std::find(names.begin(), names.end(), array) != names.end();
}

bool shares_loop(const Piece& piece, const std::set<std::string>& indices) {
    return std::any_of(piece.loops.begin(), piece.loops.end(),
                       [&](const std::string& index) { return indices.count(index) > 0; });
}

std::set<std::string> reduction_indices_of(const LoweringState& state, int statement) {
    std::set<std::string> indices;
    for (const auto& acc : state.accumulators)
        if (acc.statement == statement)
            indices.insert(acc.reduction->reduction_indices.begin(),
                           acc.reduction->reduction_indices.end());
    return indices;
}

} // namespace

void split_statements(LoweringState& state) {
    const kernel::KernelSpec& spec = state.spec;
    std::set<std::string> taken_names = declared_names(spec);
    for (size_t s = 0; s < spec.statements.size(); ++s) {
        const kernel::StatementSpec& statement = spec.statements[s];
        std::set<std::string> loops;
        for (const auto& index : statement.within)
            if (!state.thread_mapped.count(index))
                loops.insert(index);
        if (statement.kind == kernel::StatementKind::barrier) {
            Piece piece;
            piece.kind = PieceKind::barrier;
            piece.statement = static_cast<int>(s);
            piece.loops = loops;
            state.pieces.push_back(piece);
            continue;
        }
        if (statement.parsed.atomic)
            check_atomic(spec, statement);
        std::set<std::string> used;
        std::vector<FoundReduction> found;
        for (const ExprPtr& part : {statement.parsed.target, statement.parsed.compare,
                                    statement.parsed.value, statement.condition})
            scan(part, {}, -1, used, found);
        std::set<std::string> outer = loops;
        for (const auto& name : used)
            if (state.loop_range.count(name))
                outer.insert(name);
        if (found.empty()) {
            Piece piece;
            piece.statement = static_cast<int>(s);
            piece.loops = outer;
            state.pieces.push_back(piece);
            continue;
        }
        ReductionSplitter(state, taken_names, s, outer, found).run();
    }
}

// A reduction's loops are usually shared with the statements around it (the prefetch and
// barriers of a tile loop): its init moves before the preceding pieces that run inside one of
// its reduction loops (it only writes its own fresh accumulator), and its store after the
// following ones that do, unless they touch the stored array.
void order_reduction_pieces(LoweringState& state) {
    std::vector<Piece>& pieces = state.pieces;
    for (size_t p = 0; p < pieces.size(); ++p) {
        if (pieces[p].kind != PieceKind::init)
            continue;
        const std::set<std::string> indices = reduction_indices_of(state, pieces[p].statement);
        for (size_t q = p; q > 0 && pieces[q - 1].statement != pieces[q].statement &&
                           shares_loop(pieces[q - 1], indices);
             --q)
            std::swap(pieces[q - 1], pieces[q]);
    }
    for (size_t p = pieces.size(); p-- > 0;) {
        if (pieces[p].kind != PieceKind::store)
            continue;
        const std::set<std::string> indices = reduction_indices_of(state, pieces[p].statement);
        const std::string& target =
            state.spec.statements[static_cast<size_t>(pieces[p].statement)].parsed.target->name;
        for (size_t q = p; q + 1 < pieces.size() && shares_loop(pieces[q + 1], indices) &&
                           !references(state.spec, pieces[q + 1], target);
             ++q)
            std::swap(pieces[q], pieces[q + 1]);
    }
    // Each accumulator's pieces: its own init and updates, and the piece that reads it (the
    // store, or the enclosing reduction's update).
    for (size_t p = 0; p < pieces.size(); ++p) {
        const Piece& piece = pieces[p];
        for (size_t id = 0; id < state.accumulators.size(); ++id) {
            Accumulator& acc = state.accumulators[id];
            const bool own = (piece.kind == PieceKind::init || piece.kind == PieceKind::update) &&
                             piece.accumulator == static_cast<int>(id);
            const bool reader =
                acc.parent < 0 ? piece.kind == PieceKind::store && acc.statement == piece.statement
                               : piece.kind == PieceKind::update && piece.accumulator == acc.parent;
            if (own || reader)
                acc.pieces.push_back(static_cast<int>(p));
        }
    }
}

} // namespace kerncast::codegen::lowering
