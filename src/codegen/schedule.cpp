// Lowering a KernelSpec to a Schedule (schedule.hpp). Bounds and guards come from the isl
// domain: each sequential loop runs over the bounding box of its index, and each statement
// piece is guarded by the kernel domain projected onto the indices it runs over (the
// statement-domain convention of docs/kernel-format.md), simplified (isl gist) against what
// the loops and the grid already guarantee, and printed through isl's AST expression builder.
#include "kerncast/codegen/schedule.hpp"

#include "../support/isl_support.hpp"
#include "expr_build.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <functional>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/point.h>
#include <set>

namespace kerncast::codegen {

using kernel::BinaryOp;
using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using namespace detail;

const ArrayLayout* Schedule::find_array(const std::string& name) const {
    for (const auto& array : arrays)
        if (array.decl.name == name)
            return &array;
    return nullptr;
}

namespace {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (size_t k = 0; k < items.size(); ++k)
        out += (k ? separator : "") + items[k];
    return out;
}

[[noreturn]] void unsupported(const kernel::KernelSpec& spec, const std::string& message,
                              const SourceLocation& where = {}) {
    SourceLocation location = where;
    if (location.file.empty())
        location.file = spec.file;
    throw_input_error("cannot generate code for kernel '" + spec.name + "': " + message, location);
}

// isl AST expression -> kernel-language expression (integer `/` is floor division and `%` is
// non-negative in the kernel language, which covers isl's fdiv_q, pdiv_q, pdiv_r, zdiv_r).
ExprPtr from_isl(isl_ast_expr* expr) {
    switch (isl_ast_expr_get_type(expr)) {
    case isl_ast_expr_int: {
        isl::Val value(isl_ast_expr_int_get_val(expr));
        return make_integer(isl::to_int64(value.get()));
    }
    case isl_ast_expr_id: {
        isl_id* id = isl_ast_expr_id_get_id(expr);
        std::string name = isl_id_get_name(id);
        isl_id_free(id);
        return make_variable(name);
    }
    case isl_ast_expr_op:
        break;
    default:
        throw isl::IslError("unexpected isl AST expression");
    }
    const int n = isl_ast_expr_op_get_n_arg(expr);
    std::vector<ExprPtr> args;
    for (int k = 0; k < n; ++k) {
        isl_ast_expr* arg = isl_ast_expr_op_get_arg(expr, k);
        args.push_back(from_isl(arg));
        isl_ast_expr_free(arg);
    }
    auto fold = [&](BinaryOp op) {
        ExprPtr result = args.at(0);
        for (size_t k = 1; k < args.size(); ++k)
            result = make_binary(op, result, args[k]);
        return result;
    };
    switch (isl_ast_expr_op_get_type(expr)) {
    case isl_ast_expr_op_and:
    case isl_ast_expr_op_and_then:
        return fold(BinaryOp::logical_and);
    case isl_ast_expr_op_or:
    case isl_ast_expr_op_or_else:
        return fold(BinaryOp::logical_or);
    case isl_ast_expr_op_max:
    case isl_ast_expr_op_min: {
        const char* name = isl_ast_expr_op_get_type(expr) == isl_ast_expr_op_max ? "max" : "min";
        ExprPtr result = args.at(0);
        for (size_t k = 1; k < args.size(); ++k)
            result = make_call(name, {result, args[k]});
        return result;
    }
    case isl_ast_expr_op_minus:
        return make_negate(args.at(0));
    case isl_ast_expr_op_add:
        return fold(BinaryOp::add);
    case isl_ast_expr_op_sub:
        return fold(BinaryOp::sub);
    case isl_ast_expr_op_mul:
        return fold(BinaryOp::mul);
    case isl_ast_expr_op_div:
    case isl_ast_expr_op_fdiv_q:
    case isl_ast_expr_op_pdiv_q:
        return fold(BinaryOp::div);
    case isl_ast_expr_op_pdiv_r:
    case isl_ast_expr_op_zdiv_r:
        return fold(BinaryOp::mod);
    case isl_ast_expr_op_cond:
    case isl_ast_expr_op_select:
        return make_conditional(args.at(0), args.at(1), args.at(2));
    case isl_ast_expr_op_eq:
        return fold(BinaryOp::equal);
    case isl_ast_expr_op_le:
        return fold(BinaryOp::less_equal);
    case isl_ast_expr_op_lt:
        return fold(BinaryOp::less);
    case isl_ast_expr_op_ge:
        return fold(BinaryOp::greater_equal);
    case isl_ast_expr_op_gt:
        return fold(BinaryOp::greater);
    default:
        throw isl::IslError("unexpected isl AST operation");
    }
}

// Everything the lowering knows about the domain at the chosen parameter values.
class DomainGuards {
public:
    DomainGuards(const kernel::KernelSpec& spec,
                 const std::vector<std::pair<std::string, std::int64_t>>& params)
        : indices_(spec.indices) {
        isl::Set domain = isl::read_set(ctx_, spec.domain);
        for (const auto& [name, value] : params) {
            const int pos = isl_set_find_dim_by_name(domain.get(), isl_dim_param, name.c_str());
            if (pos >= 0) {
                isl_val* fixed = isl_val_int_from_si(isl_set_get_ctx(domain.get()), value);
                domain.reset(isl_set_fix_val(domain.release(), isl_dim_param,
                                             static_cast<unsigned>(pos), fixed));
            }
        }
        const isl_size n_params = isl_set_dim(domain.get(), isl_dim_param);
        domain.reset(isl_set_project_out(domain.release(), isl_dim_param, 0,
                                         static_cast<unsigned>(n_params)));
        domain_ = ctx_.check(std::move(domain), "fixing the kernel parameters");
        empty_ = isl_set_is_empty(domain_.get()) == isl_bool_true;
    }

    bool empty() const { return empty_; }

    // [min, max] of one index over the whole domain.
    std::pair<std::int64_t, std::int64_t> range(const std::string& index) {
        isl::Set set = project_onto({index});
        isl::Set low(isl_set_lexmin(isl_set_copy(set.get())));
        isl::Set high(isl_set_lexmax(set.release()));
        auto coordinate = [&](isl::Set& s) {
            isl_point* point = isl_set_sample_point(s.release());
            isl::Val v(isl_point_get_coordinate_val(point, isl_dim_set, 0));
            isl_point_free(point);
            return isl::to_int64(ctx_.check(std::move(v), "reading a bound").get());
        };
        return {coordinate(low), coordinate(high)};
    }

    // Facts that need no check: index -> "lo <= index <= hi".
    void know(const std::string& index, std::int64_t lower, std::int64_t upper) {
        known_[index] = {lower, upper};
    }

    // The domain projected onto `keep`, as a condition on those indices; null when it always
    // holds given the known facts.
    ExprPtr guard(const std::set<std::string>& keep) {
        isl::Set set = project_onto(keep);
        const isl_size n = isl_set_dim(set.get(), isl_dim_set);
        for (isl_size k = 0; k < n; ++k) {
            const char* name = isl_set_get_dim_name(set.get(), isl_dim_set, k);
            set.reset(isl_set_set_dim_id(set.release(), isl_dim_set, k,
                                         isl_id_alloc(ctx_.get(), name, nullptr)));
        }
        set.reset(isl_set_move_dims(set.release(), isl_dim_param, 0, isl_dim_set, 0,
                                    static_cast<unsigned>(n)));
        set.reset(isl_set_params(set.release()));
        std::vector<std::string> names, facts;
        for (const auto& index : keep)
            if (auto it = known_.find(index); it != known_.end()) {
                names.push_back(index);
                facts.push_back(std::to_string(it->second.first) + " <= " + index +
                                " <= " + std::to_string(it->second.second));
            }
        isl::Set context = isl::read_set(
            ctx_, "[" + join(names, ", ") + "] -> { : " +
                      (facts.empty() ? std::string("true") : join(facts, " and ")) + " }");
        set.reset(isl_set_align_params(set.release(), isl_set_get_space(context.get())));
        context.reset(isl_set_align_params(context.release(), isl_set_get_space(set.get())));
        set.reset(isl_set_gist(set.release(), isl_set_copy(context.get())));
        set = ctx_.check(std::move(set), "simplifying a guard");
        if (isl_set_plain_is_universe(set.get()) == isl_bool_true)
            return nullptr;
        if (isl_set_is_empty(set.get()) == isl_bool_true)
            return make_integer(0);
        isl_ast_build* build = isl_ast_build_from_context(context.release());
        isl_ast_expr* expr = isl_ast_build_expr_from_set(build, set.release());
        isl_ast_build_free(build);
        if (!expr)
            ctx_.fail("building a guard expression");
        ExprPtr result = from_isl(expr);
        isl_ast_expr_free(expr);
        return result;
    }

private:
    isl::Set project_onto(const std::set<std::string>& keep) {
        isl::Set set(isl_set_copy(domain_.get()));
        for (int k = static_cast<int>(indices_.size()) - 1; k >= 0; --k)
            if (!keep.count(indices_[static_cast<size_t>(k)]))
                set.reset(
                    isl_set_project_out(set.release(), isl_dim_set, static_cast<unsigned>(k), 1));
        return ctx_.check(std::move(set), "projecting the domain");
    }

    isl::Context ctx_;
    std::vector<std::string> indices_;
    isl::Set domain_;
    bool empty_ = false;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> known_;
};

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

// The expression with each reduction replaced by its accumulator reference.
ExprPtr replace_reductions(const ExprPtr& expr, const std::map<const Expr*, ExprPtr>& with) {
    if (!expr)
        return expr;
    if (auto it = with.find(expr.get()); it != with.end())
        return it->second;
    bool changed = false;
    std::vector<ExprPtr> operands;
    for (const auto& operand : expr->operands) {
        operands.push_back(replace_reductions(operand, with));
        changed = changed || operands.back() != operand;
    }
    if (!changed)
        return expr;
    auto copy = std::make_shared<Expr>(*expr);
    copy->operands = std::move(operands);
    return copy;
}

enum class PieceKind { plain, init, update, store, barrier };

struct Piece {
    PieceKind kind = PieceKind::plain;
    int statement = -1;
    int accumulator = -1; // init / update
    const Expr* reduction = nullptr;
    std::set<std::string> loops; // sequential indices the piece runs over
    std::vector<std::string> order;
    size_t shared = 0;                     // leading loops of `order` it shares with the last piece
    std::map<std::string, int> loop_nodes; // index -> loop node id
};

// One array access of a piece, for the fusion legality check.
struct Access {
    std::string array;
    std::vector<ExprPtr> subscripts;
    bool write = false;
};

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

// Fusing `later` into a loop over `index` that already ran `earlier` in the same iteration
// keeps every dependence between them when, for each array one of them writes and the other
// touches, all their accesses use identical subscripts (the same element per iteration) or
// none mentions the index (the whole array is produced and consumed in every iteration,
// like a prefetched tile).
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

struct Accumulator {
    std::string name;
    int statement = -1;
    const Expr* reduction = nullptr;
    int parent = -1; // the accumulator of the enclosing reduction (nested ones); -1: none
    // The sequential indices around the accumulator, domain order: the statement's own, plus
    // the reduction indices of enclosing reductions.
    std::vector<std::string> outer;
    std::vector<int> pieces; // init, updates, and the piece that reads it (store or parent update)
    bool privatised = false;
};

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

} // namespace

Schedule lower_kernel(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                      const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
    const analysis::KernelAnalysis analysis = analysis::analyze(spec, launch);
    const std::vector<std::int64_t> values = analysis::parameter_values(analysis, overrides);

    Schedule schedule;
    schedule.spec = spec;
    schedule.launch = analysis.launch;
    std::map<std::string, std::int64_t> param_value;
    for (size_t k = 0; k < analysis.parameters.size(); ++k)
        param_value[analysis.parameters[k]] = values[k];
    for (const auto& param : spec.params)
        schedule.parameters.emplace_back(param.name, param_value.at(param.name));
    const kernel::IntegerLookup lookup_param =
        [&](const std::string& name) -> std::optional<std::int64_t> {
        if (auto it = param_value.find(name); it != param_value.end())
            return it->second;
        return std::nullopt;
    };

    DomainGuards domain(spec, schedule.parameters);
    if (domain.empty())
        unsupported(spec, "the domain is empty at these parameter values");

    // Arrays at the parameter values.
    std::set<std::string> written;
    for (const auto& statement : spec.statements)
        if (statement.kind == kernel::StatementKind::compute)
            written.insert(statement.parsed.target->name);
    for (const auto& decl : spec.arrays) {
        ArrayLayout layout;
        layout.decl = decl;
        for (const auto& extent : decl.shape) {
            layout.extents.push_back(kernel::evaluate_integer(*extent, lookup_param));
            layout.elements *= layout.extents.back();
        }
        if (decl.offset)
            layout.offset = kernel::evaluate_integer(*decl.offset, lookup_param);
        if (layout.offset < 0 || layout.elements < 0)
            unsupported(spec, "array '" + decl.name + "' has a negative size or offset",
                        decl.where);
        layout.buffer_elements = layout.offset + layout.elements;
        layout.written = written.count(decl.name) > 0;
        schedule.arrays.push_back(layout);
    }

    // Thread-mapped indices and the grid.
    const kernel::ThreadMapping& threads = spec.threads;
    auto fold_params = [&](const kernel::AffineForm& form) {
        kernel::AffineForm folded;
        folded.constant = form.constant;
        for (const auto& [symbol, coefficient] : form.coefficients) {
            if (auto it = param_value.find(symbol); it != param_value.end())
                folded.constant += coefficient * it->second;
            else
                folded.add_term(symbol, coefficient);
        }
        return folded;
    };
    std::set<std::string> thread_mapped;
    for (int axis = 0; axis < kernel::axis_count; ++axis) {
        const auto a = static_cast<size_t>(axis);
        const std::int64_t block = schedule.launch.block[a], fold = schedule.launch.fold[a];
        for (int kind = 0; kind < 3; ++kind) {
            const std::string& index = kind == 0   ? threads.global[a]
                                       : kind == 1 ? threads.block[a]
                                                   : threads.local[a];
            if (index.empty())
                continue;
            ThreadIndex t;
            t.index = index;
            t.axis = axis;
            t.explicit_block = kind == 1;
            t.explicit_local = kind == 2;
            t.form = fold_params(analysis.index_forms.at(index));
            const auto [lower, upper] = domain.range(index);
            if (kind == 0) {
                const std::int64_t per_block = block * fold;
                schedule.grid[a] = (upper - t.form.constant + per_block) / per_block;
                domain.know(index, t.form.constant,
                            t.form.constant + schedule.grid[a] * per_block - 1);
            } else if (kind == 1) {
                if (lower < 0)
                    unsupported(spec, "block index '" + index + "' takes negative values");
                schedule.grid[a] = upper + 1;
                domain.know(index, 0, upper);
            } else {
                domain.know(index, 0, block - 1);
            }
            thread_mapped.insert(index);
            schedule.thread_indices.push_back(t);
        }
    }

    // Sequential loops: the bounding box of each index.
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> loop_range;
    for (const auto& index : spec.indices)
        if (!thread_mapped.count(index)) {
            loop_range[index] = domain.range(index);
            domain.know(index, loop_range[index].first, loop_range[index].second);
        }
    auto domain_position = [&](const std::string& index) {
        return std::find(spec.indices.begin(), spec.indices.end(), index) - spec.indices.begin();
    };
    auto in_domain_order = [&](std::set<std::string> names) {
        std::vector<std::string> ordered(names.begin(), names.end());
        std::sort(ordered.begin(), ordered.end(), [&](const auto& x, const auto& y) {
            return domain_position(x) < domain_position(y);
        });
        return ordered;
    };

    // Statements -> pieces.
    std::vector<Piece> pieces;
    std::vector<Accumulator> accumulators;
    std::set<std::string> taken_names;
    for (const auto& array : spec.arrays)
        taken_names.insert(array.name);
    for (const auto& index : spec.indices)
        taken_names.insert(index);
    for (const auto& param : spec.params)
        taken_names.insert(param.name);
    for (size_t s = 0; s < spec.statements.size(); ++s) {
        const kernel::StatementSpec& statement = spec.statements[s];
        std::set<std::string> loops(statement.within.begin(), statement.within.end());
        for (const auto& index : statement.within)
            if (thread_mapped.count(index))
                loops.erase(index);
        if (statement.kind == kernel::StatementKind::barrier) {
            Piece piece;
            piece.kind = PieceKind::barrier;
            piece.statement = static_cast<int>(s);
            piece.loops = loops;
            pieces.push_back(piece);
            continue;
        }
        const kernel::Statement& parsed = statement.parsed;
        if (parsed.atomic)
            check_atomic(spec, statement);
        std::set<std::string> used;
        std::vector<FoundReduction> found;
        scan(parsed.target, {}, -1, used, found);
        scan(parsed.compare, {}, -1, used, found);
        scan(parsed.value, {}, -1, used, found);
        scan(statement.condition, {}, -1, used, found);
        std::set<std::string> outer = loops;
        for (const auto& name : used)
            if (loop_range.count(name))
                outer.insert(name);
        if (found.empty()) {
            Piece piece;
            piece.statement = static_cast<int>(s);
            piece.loops = outer;
            pieces.push_back(piece);
            continue;
        }
        // One accumulator per reduction, nested ones included (Stevens & Klöckner 8.4's
        // privatised accumulators; a nested one is (re)initialised in every iteration of the
        // reduction loops around it).
        const int first_accumulator = static_cast<int>(accumulators.size());
        for (const FoundReduction& reduction : found) {
            for (const auto& index : reduction.expr->reduction_indices) {
                if (reduction.enclosing.count(index))
                    unsupported(spec,
                                "reduction index '" + index +
                                    "' is already bound by an enclosing reduction; name the "
                                    "nested reduction's index differently",
                                statement.where);
                if (thread_mapped.count(index) || outer.count(index) || !loop_range.count(index))
                    unsupported(spec,
                                "reduction index '" + index +
                                    "' must be a sequential index that the statement does not "
                                    "use outside the reduction",
                                statement.where);
            }
            Accumulator acc;
            const std::string base = "acc_" + parsed.target->name;
            acc.name = base;
            for (int k = 2; taken_names.count(acc.name); ++k)
                acc.name = base + std::to_string(k);
            taken_names.insert(acc.name);
            acc.statement = static_cast<int>(s);
            acc.reduction = reduction.expr;
            acc.parent = reduction.parent < 0 ? -1 : first_accumulator + reduction.parent;
            std::set<std::string> around = outer;
            around.insert(reduction.enclosing.begin(), reduction.enclosing.end());
            acc.outer = in_domain_order(around);
            accumulators.push_back(acc);
        }
        auto init_piece = [&](int r) {
            Piece init;
            init.kind = PieceKind::init;
            init.statement = static_cast<int>(s);
            init.accumulator = first_accumulator + r;
            init.loops = outer;
            init.loops.insert(found[static_cast<size_t>(r)].enclosing.begin(),
                              found[static_cast<size_t>(r)].enclosing.end());
            pieces.push_back(init);
        };
        // A reduction's update runs after its children's inits and updates, inside their
        // common loops: init(inner) for (l) update(inner); update(outer).
        std::function<void(int)> update_pieces = [&](int r) {
            std::vector<int> children;
            for (size_t c = 0; c < found.size(); ++c)
                if (found[c].parent == r)
                    children.push_back(static_cast<int>(c));
            for (int c : children)
                init_piece(c);
            for (int c : children)
                update_pieces(c);
            Piece update;
            update.kind = PieceKind::update;
            update.statement = static_cast<int>(s);
            update.accumulator = first_accumulator + r;
            update.reduction = found[static_cast<size_t>(r)].expr;
            update.loops = outer;
            update.loops.insert(found[static_cast<size_t>(r)].enclosing.begin(),
                                found[static_cast<size_t>(r)].enclosing.end());
            update.loops.insert(update.reduction->reduction_indices.begin(),
                                update.reduction->reduction_indices.end());
            pieces.push_back(update);
        };
        for (size_t r = 0; r < found.size(); ++r)
            if (found[r].parent < 0)
                init_piece(static_cast<int>(r));
        for (size_t r = 0; r < found.size(); ++r)
            if (found[r].parent < 0)
                update_pieces(static_cast<int>(r));
        Piece store;
        store.kind = PieceKind::store;
        store.statement = static_cast<int>(s);
        store.loops = outer;
        pieces.push_back(store);
    }

    // A reduction's loops are usually shared with the statements around it (the prefetch and
    // barriers of a tile loop): its init moves before the preceding pieces that run inside one
    // of its reduction loops (it only writes its own fresh accumulator), and its store after
    // the following ones that do, unless they touch the stored array.
    auto reduction_indices_of = [&](int statement) {
        std::set<std::string> indices;
        for (const auto& acc : accumulators)
            if (acc.statement == statement)
                indices.insert(acc.reduction->reduction_indices.begin(),
                               acc.reduction->reduction_indices.end());
        return indices;
    };
    auto shares_loop = [](const Piece& piece, const std::set<std::string>& indices) {
        return std::any_of(piece.loops.begin(), piece.loops.end(),
                           [&](const std::string& index) { return indices.count(index) > 0; });
    };
    auto references = [&](const Piece& piece, const std::string& array) {
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
    };
    for (size_t p = 0; p < pieces.size(); ++p) {
        if (pieces[p].kind != PieceKind::init)
            continue;
        const std::set<std::string> indices = reduction_indices_of(pieces[p].statement);
        for (size_t q = p; q > 0 && pieces[q - 1].statement != pieces[q].statement &&
                           shares_loop(pieces[q - 1], indices);
             --q)
            std::swap(pieces[q - 1], pieces[q]);
    }
    for (size_t p = pieces.size(); p-- > 0;) {
        if (pieces[p].kind != PieceKind::store)
            continue;
        const std::set<std::string> indices = reduction_indices_of(pieces[p].statement);
        const std::string& target =
            spec.statements[static_cast<size_t>(pieces[p].statement)].parsed.target->name;
        for (size_t q = p; q + 1 < pieces.size() && shares_loop(pieces[q + 1], indices) &&
                           !references(pieces[q + 1], target);
             ++q)
            std::swap(pieces[q], pieces[q + 1]);
    }
    for (size_t p = 0; p < pieces.size(); ++p) {
        const Piece& piece = pieces[p];
        for (size_t id = 0; id < accumulators.size(); ++id) {
            Accumulator& acc = accumulators[id];
            const bool own = (piece.kind == PieceKind::init || piece.kind == PieceKind::update) &&
                             piece.accumulator == static_cast<int>(id);
            // The piece that reads the accumulator: the store, or the enclosing update.
            const bool reader =
                acc.parent < 0 ? piece.kind == PieceKind::store && acc.statement == piece.statement
                               : piece.kind == PieceKind::update && piece.accumulator == acc.parent;
            if (own || reader)
                acc.pieces.push_back(static_cast<int>(p));
        }
    }

    // Loop fusion: a piece keeps the open loops it shares (outermost first) and opens the rest
    // in domain order (loopy's nesting of `within` loops).
    // Fusion must keep the dependences between the pieces of one loop iteration
    // (fusion_is_legal); reductions' accumulators are fresh and need no check.
    std::vector<std::vector<Access>> piece_accesses(pieces.size());
    for (size_t p = 0; p < pieces.size(); ++p) {
        const Piece& piece = pieces[p];
        if (piece.kind == PieceKind::barrier || piece.kind == PieceKind::init)
            continue;
        if (piece.kind == PieceKind::update) {
            collect_accesses(piece.reduction->operands.at(0), spec, false, piece_accesses[p]);
            continue;
        }
        const auto& statement = spec.statements[static_cast<size_t>(piece.statement)];
        collect_accesses(statement.parsed.target, spec, true, piece_accesses[p]);
        collect_accesses(statement.parsed.compare, spec, false, piece_accesses[p]);
        collect_accesses(statement.parsed.value, spec, false, piece_accesses[p]);
        collect_accesses(statement.condition, spec, false, piece_accesses[p]);
    }
    {
        struct OpenLoop {
            std::string index;
            int node;
            size_t first_piece; // pieces since this loop instance opened
        };
        std::vector<OpenLoop> open;
        int next_node = 0;
        for (size_t p = 0; p < pieces.size(); ++p) {
            Piece& piece = pieces[p];
            size_t shared = 0;
            while (shared < open.size() && piece.loops.count(open[shared].index)) {
                bool legal = true;
                for (size_t q = open[shared].first_piece; q < p && legal; ++q)
                    legal =
                        fusion_is_legal(piece_accesses[q], piece_accesses[p], open[shared].index);
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
            for (const auto& index : in_domain_order(rest)) {
                open.push_back({index, next_node++, p});
                piece.order.push_back(index);
            }
            for (const auto& loop : open)
                piece.loop_nodes[loop.index] = loop.node;
        }
    }

    // Accumulators: private scalars when init, updates and store share every loop of the
    // statement; otherwise private arrays over the statement's sequential indices.
    std::map<const Expr*, ExprPtr> accumulator_refs;
    std::map<int, ExprPtr> accumulator_target;
    for (size_t id = 0; id < accumulators.size(); ++id) {
        Accumulator& acc = accumulators[id];
        for (const auto& index : acc.outer)
            for (int p : acc.pieces)
                if (pieces[static_cast<size_t>(p)].loop_nodes.at(index) !=
                    pieces[static_cast<size_t>(acc.pieces.front())].loop_nodes.at(index))
                    acc.privatised = true;
        ArrayLayout layout;
        layout.decl.name = acc.name;
        layout.decl.space = kernel::MemorySpace::private_;
        const kernel::ArrayDecl* target = spec.find_array(
            spec.statements[static_cast<size_t>(acc.statement)].parsed.target->name);
        // f16 computes in float: so does its accumulator.
        layout.decl.dtype = !target                                  ? kernel::DataType::f64
                            : target->dtype == kernel::DataType::f16 ? kernel::DataType::f32
                                                                     : target->dtype;
        layout.accumulator = true;
        layout.written = true;
        std::vector<ExprPtr> subscripts;
        if (acc.privatised)
            for (const auto& index : acc.outer) {
                const auto [lower, upper] = loop_range.at(index);
                layout.extents.push_back(upper - lower + 1);
                layout.elements *= layout.extents.back();
                layout.decl.shape.push_back(make_integer(upper - lower + 1));
                subscripts.push_back(lower == 0 ? make_variable(index)
                                                : make_binary(BinaryOp::sub, make_variable(index),
                                                              make_integer(lower)));
            }
        layout.buffer_elements = layout.elements;
        schedule.arrays.push_back(layout);
        ExprPtr ref = make_array_ref(acc.name, subscripts);
        accumulator_refs[acc.reduction] = ref;
        accumulator_target[static_cast<int>(id)] = ref;
    }

    // Guards (cached by the set of indices they constrain).
    std::map<std::set<std::string>, ExprPtr> guard_cache;
    auto guard_for = [&](const Piece& piece) {
        std::set<std::string> keep = piece.loops;
        keep.insert(thread_mapped.begin(), thread_mapped.end());
        auto it = guard_cache.find(keep);
        if (it == guard_cache.end())
            it = guard_cache.emplace(keep, domain.guard(keep)).first;
        return conjunction(it->second,
                           spec.statements[static_cast<size_t>(piece.statement)].condition);
    };

    // Build the loop tree.
    std::vector<std::vector<Step>*> stack{&schedule.body};
    std::vector<std::string> open;
    for (const auto& piece : pieces) {
        const size_t shared = piece.shared;
        open.resize(shared);
        stack.resize(shared + 1);
        for (size_t k = shared; k < piece.order.size(); ++k) {
            Step loop;
            loop.kind = StepKind::loop;
            loop.index = piece.order[k];
            std::tie(loop.lower, loop.upper) = loop_range.at(loop.index);
            stack.back()->push_back(std::move(loop));
            stack.push_back(&stack.back()->back().body);
            open.push_back(piece.order[k]);
        }
        Step step;
        step.source_statement = piece.statement;
        const kernel::StatementSpec& statement =
            spec.statements[static_cast<size_t>(piece.statement)];
        switch (piece.kind) {
        case PieceKind::barrier:
            step.kind = StepKind::barrier;
            break;
        case PieceKind::plain:
            step.statement = statement.parsed;
            step.guard = guard_for(piece);
            break;
        case PieceKind::init:
        case PieceKind::update: {
            const Accumulator& acc = accumulators[static_cast<size_t>(piece.accumulator)];
            const bool product = acc.reduction->name == "prod";
            step.statement.target = accumulator_target.at(piece.accumulator);
            if (piece.kind == PieceKind::init) {
                step.role = "init " + acc.name;
                step.statement.op = kernel::AssignOp::assign;
                step.statement.value = make_integer(product ? 1 : 0);
            } else {
                step.role = "update " + acc.name;
                step.statement.op =
                    product ? kernel::AssignOp::mul_assign : kernel::AssignOp::add_assign;
                step.statement.value =
                    replace_reductions(acc.reduction->operands.at(0), accumulator_refs);
            }
            step.guard = guard_for(piece);
            break;
        }
        case PieceKind::store:
            step.statement = statement.parsed;
            step.statement.target = replace_reductions(statement.parsed.target, accumulator_refs);
            step.statement.compare = replace_reductions(statement.parsed.compare, accumulator_refs);
            step.statement.value = replace_reductions(statement.parsed.value, accumulator_refs);
            step.role = "store";
            step.guard = guard_for(piece);
            break;
        }
        stack.back()->push_back(std::move(step));
    }
    return schedule;
}

} // namespace kerncast::codegen
