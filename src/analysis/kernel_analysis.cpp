// Counting with the loopy statistics conventions (Stevens & Klöckner sec. 5;
// ../shared/reference/counting-cases.md):
// - an operation or access in a statement counts once per point of the statement's domain:
//   the kernel domain projected onto the indices the statement uses (plus `within` and every
//   thread-mapped index);
// - arithmetic and shared-memory accesses count per sub-group: executions of one work-item
//   per work-group x ceil(work-group size / sub-group size) x work-groups;
// - global accesses count per work-item unless their thread-x stride is 0 (then per
//   sub-group); atomics per work-item;
// - barriers count per work-item: the trip count of their enclosing sequential loops.
#include "kerncast/analysis/kernel_analysis.hpp"

#include "../support/isl_support.hpp"
#include "domain_bounds.hpp"
#include "kerncast/analysis/array_bounds.hpp"
#include "kerncast/analysis/launch_semantics.hpp"
#include "kerncast/analysis/shared_arrays.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/builtin_functions.hpp"
#include "kerncast/kernel/staged_arrays.hpp"
#include "kerncast/support/memo.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <isl/constraint.h>
#include <isl/cpp.h>
#include <optional>
#include <set>

namespace kerncast::analysis {

using kernel::AffineForm;
using kernel::ArrayDecl;
using kernel::axis_count;
using kernel::DataType;
using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using kernel::KernelSpec;
using kernel::LaunchConfig;
using kernel::MemorySpace;
using kernel::StatementKind;

const char* granularity_name(Granularity granularity) {
    switch (granularity) {
    case Granularity::work_item:
        return "work-item";
    case Granularity::subgroup:
        return "sub-group";
    case Granularity::work_group:
        return "work-group";
    }
    return "?";
}

const char* direction_name(Direction direction) {
    switch (direction) {
    case Direction::load:
        return "load";
    case Direction::store:
        return "store";
    case Direction::atomic:
        return "atomic";
    }
    return "?";
}

namespace {

const char* builtin_of(LaunchVariable::Kind kind, int axis) {
    static const char* names[3][3] = {{"bx", "by", "bz"}, {"tx", "ty", "tz"}, {"fx", "fy", "fz"}};
    return names[static_cast<int>(kind)][axis];
}

// isl text of a where-condition with user indices replaced by their launch-variable forms.
std::string condition_to_isl(const Expr& e, const std::map<std::string, AffineForm>& forms);

AffineForm substitute(const AffineForm& form, const std::map<std::string, AffineForm>& forms) {
    AffineForm result;
    result.constant = form.constant;
    for (const auto& [name, coefficient] : form.coefficients) {
        auto found = forms.find(name);
        if (found == forms.end())
            result.add_term(name, coefficient);
        else
            result += found->second.scaled(coefficient);
    }
    return result;
}

std::string condition_to_isl(const Expr& e, const std::map<std::string, AffineForm>& forms) {
    if (e.kind == ExprKind::binary &&
        (e.op == kernel::BinaryOp::logical_and || e.op == kernel::BinaryOp::logical_or))
        return "(" + condition_to_isl(*e.operands[0], forms) +
               (e.op == kernel::BinaryOp::logical_and ? " and " : " or ") +
               condition_to_isl(*e.operands[1], forms) + ")";
    const AffineForm left = substitute(kernel::to_affine(*e.operands[0]), forms);
    const AffineForm right = substitute(kernel::to_affine(*e.operands[1]), forms);
    const std::string op = e.op == kernel::BinaryOp::equal ? "=" : kernel::binary_op_symbol(e.op);
    return "(" + left.to_string() + " " + op + " " + right.to_string() + ")";
}

// Type of a value expression; weak types come from literals and adopt the other operand's.
struct ValueType {
    DataType dtype = DataType::i32;
    bool weak = false;
};

ValueType combine(ValueType a, ValueType b) {
    if (a.weak && !b.weak) {
        if (kernel::is_floating(a.dtype) && !kernel::is_floating(b.dtype))
            return ValueType{DataType::f64, false};
        return b;
    }
    if (b.weak && !a.weak)
        return combine(b, a);
    const bool fa = kernel::is_floating(a.dtype), fb = kernel::is_floating(b.dtype);
    if (fa != fb)
        return fa ? ValueType{a.dtype, a.weak && b.weak} : ValueType{b.dtype, a.weak && b.weak};
    return kernel::data_type_bytes(a.dtype) >= kernel::data_type_bytes(b.dtype)
               ? ValueType{a.dtype, a.weak && b.weak}
               : ValueType{b.dtype, a.weak && b.weak};
}

__extension__ using wide_int = __int128;

// Rank of an integer matrix (rows of coefficients), by exact fraction-free elimination.
int matrix_rank(std::vector<std::vector<wide_int>> rows) {
    int rank = 0;
    const size_t columns = rows.empty() ? 0 : rows[0].size();
    for (size_t c = 0; c < columns && rank < static_cast<int>(rows.size()); ++c) {
        size_t pivot = static_cast<size_t>(rank);
        while (pivot < rows.size() && rows[pivot][c] == 0)
            ++pivot;
        if (pivot == rows.size())
            continue;
        std::swap(rows[pivot], rows[static_cast<size_t>(rank)]);
        const auto& p = rows[static_cast<size_t>(rank)];
        for (size_t r = static_cast<size_t>(rank) + 1; r < rows.size(); ++r) {
            const wide_int factor = rows[r][c];
            if (factor == 0)
                continue;
            for (size_t k = 0; k < columns; ++k)
                rows[r][k] = rows[r][k] * p[c] - p[k] * factor;
        }
        ++rank;
    }
    return rank;
}

// The C++ binding (isl/cpp.h) holds every isl object here. Text is read by support/isl_support's
// parse_set / parse_map, which turn isl's parser diagnostics into IslError texts. isl
// operations the binding does not export (projecting out dimensions, naming them) are C calls
// on copies, their results managed at once.

std::string to_string(const ::isl::set& set) {
    return isl::to_string(set.get());
}

std::vector<std::string> dim_names(const ::isl::set& set, isl_dim_type type) {
    return isl::dim_names(set.get(), type);
}

::isl::set project_out(const ::isl::set& set, isl_dim_type type, unsigned first, unsigned n) {
    return ::isl::manage(isl_set_project_out(set.copy(), type, first, n));
}

// `set` with every set dimension k whose `keep(k)` is false projected out.
template <class Keep>::isl::set project_out_unless(::isl::set set, size_t dimensions, Keep keep) {
    for (size_t k = dimensions; k-- > 0;)
        if (!keep(k))
            set = project_out(set, isl_dim_set, static_cast<unsigned>(k), 1);
    return set;
}

class Analyzer {
public:
    Analyzer(const KernelSpec& spec, const LaunchConfig& launch, const CountOptions& options) {
        result_.spec = spec;
        result_.launch = launch;
        result_.options = options;
        for (const auto& param : spec.params)
            result_.parameters.push_back(param.name);
        params_text_ = fmt::format("[{}]", fmt::join(result_.parameters, ", "));
    }

    KernelAnalysis run();

private:
    KernelAnalysis result_;
    // The calling thread's context (errors continue, as isl/cpp.h needs): the launch-independent
    // sets (domain, parameters, assumptions) are parsed in it once per thread.
    isl::Context& ctx_ = isl::thread_context().context;
    ::isl::set user_domain_;
    ::isl::set launch_domain_; // the domain in launch variables
    std::string params_text_;
    std::vector<std::string> parallel_variables_;
    std::map<std::string, std::int64_t> builtin_zero_; // builtins of unmapped axes -> 0
    std::set<std::string> thread_indices_;             // user indices mapped to the launch

    // Counted sets, cached by their isl text.
    std::map<std::string, SymbolicCount> cache_;
    // The kernel's assumptions as an isl parameter set (absent when there are none): every
    // counted set is simplified under it (isl gist), which removes cases the assumptions
    // exclude (e.g. a partial tile when the size is a multiple of the tile). Evaluation
    // checks the assumptions (bind), so the counts stay exact where they apply.
    std::optional<::isl::set> context_;
    std::string context_text_; // its isl text

    struct Scope {
        std::set<std::string> indices; // user indices the expression runs over
        const kernel::StatementSpec* statement = nullptr;
        int statement_index = 0;
        // Folded axes (bit a: axis a) whose fold instances share the operation being counted:
        // its operands are the same in each of them, so a thread does it once for them all
        // (fold_dependence).
        unsigned shared_fold_axes = 0;
    };

    // Operation sharing between fold instances (docs/kernel-format.md, "What is counted"): the
    // folded axes (fold > 1) as bits and the arrays the kernel writes.
    unsigned folded_axes_ = 0;
    std::set<std::string> written_arrays_;
    void find_fold_dependences();
    // The folded axes whose fold index the value of `e` depends on: those of the thread-mapped
    // indices and fold builtins (fx fy fz) it names; every folded axis where it reads a private
    // array, a shared one, an array the kernel writes (an earlier instance may have changed
    // it) or an element whose subscript reads memory. The code generator's fold fast path
    // computes a floating-point operation whose operands do not depend on an axis once for
    // that axis's instances (codegen/fold_load_reuse.hpp), and the counts count it so.
    unsigned fold_dependence(const Expr& e) const;
    // The integer divisions and remainders walked so far: an operation holding one is never
    // shared (computed apart from the condition that guards it, it could divide by zero), so
    // they count as depending on every folded axis.
    std::set<const Expr*> integer_divisions_;
    static bool floating_value(const ValueType& type) {
        return !type.weak && kernel::is_floating(type.dtype);
    }
    // `scope` for an operation whose operands have these fold dependences.
    Scope operation_scope(const Scope& scope, unsigned dependence) const {
        Scope shared = scope;
        shared.shared_fold_axes = folded_axes_ & ~dependence;
        return shared;
    }

    struct OperationTotals {
        Granularity granularity = Granularity::subgroup;
        SymbolicCount count;          // in units of granularity
        SymbolicCount work_items;     // per executing work-item
        SymbolicCount instance_count; // count, every fold instance doing its own
        bool shared = false;          // by fold instances, some of them
    };
    std::map<std::pair<DataType, std::string>, OperationTotals> operations_;

    // setup_launch's steps, in order.
    void setup_launch();
    void read_assumptions();
    void read_domain();
    AffineForm index_bound(const std::string& index, bool maximum);
    void declare_launch_variables();
    // A launch variable's range: lower <= name (< upper when bounded).
    struct VariableRange {
        std::string name;
        std::int64_t lower = 0;
        std::optional<std::int64_t> upper;
    };
    void map_global_axis(int axis, std::vector<VariableRange>& constraints);
    void map_local_axis(int axis);
    void map_axis(int axis, std::vector<VariableRange>& constraints);
    void add_sequential_variables();
    void build_launch_domain(const std::vector<VariableRange>& constraints);
    void count_thread_blocks();
    // The points of `raw` (a set of ctx_), simplified under the assumptions; both the set's
    // text and the simplified text are cached, so a count is derived once per distinct set.
    // The same set object (statement_set hands out copies of its cached sets) is found by its
    // address first, without printing it; the entry holds a reference, so the address stays
    // that set's for the whole analysis.
    SymbolicCount count_set(const ::isl::set& raw) {
        if (const auto same = object_cache_.find(raw.get()); same != object_cache_.end())
            return same->second.second;
        const std::string raw_text = to_string(raw);
        SymbolicCount count;
        if (const auto known = raw_cache_.find(raw_text); known != raw_cache_.end()) {
            count = known->second;
        } else {
            count = count_simplified(raw, raw_text);
            raw_cache_.emplace(raw_text, count);
        }
        object_cache_.emplace(raw.get(), std::pair{raw, count});
        return count;
    }
    std::map<std::string, SymbolicCount> raw_cache_;
    std::map<const isl_set*, std::pair<::isl::set, SymbolicCount>> object_cache_;
    // The text of a set, printed once per set object (a statement's accesses share its
    // statement_set; the entry holds a reference, as object_cache_ does).
    const std::string& text_of(const ::isl::set& set) {
        auto [at, added] = texts_.try_emplace(set.get(), set, std::string());
        if (added)
            at->second.second = to_string(set);
        return at->second.second;
    }
    std::map<const isl_set*, std::pair<::isl::set, std::string>> texts_;
    SymbolicCount count_simplified(const ::isl::set& raw, const std::string& raw_text) {
        std::string text = raw_text;
        ::isl::set counted = raw; // the set `text` prints, where this analysis made it
        if (context_) {
            // The simplification of a set's text under these assumptions: the launches of a
            // sweep share about half their sets, and isl's gist is most of a count's cost.
            static support::Memo<std::string> simplified(16384);
            bool simplified_here = false;
            text = simplified.get(context_text_ + '\n' + raw_text, [&] {
                counted = ::isl::manage(isl_set_gist_params(raw.copy(), context_->copy()));
                ctx_.check(counted.get(), "simplifying under the assumptions");
                simplified_here = true;
                return to_string(counted);
            });
            if (!simplified_here)
                counted = ::isl::set();
        }
        auto found = cache_.find(text);
        if (found != cache_.end())
            return found->second;
        // A count not made before derives its closed form from the set in hand, not from a
        // parse of its text (a third of a new set's cost).
        SymbolicCount count = SymbolicCount::of_set(
            text, counted.is_null() ? nullptr : counted.get(), result_.parameters);
        cache_.emplace(text, count);
        return count;
    }
    ::isl::set statement_set(const Scope& scope, bool keep_threads, bool keep_folds_and_blocks);
    ::isl::set compute_statement_set(const Scope& scope, bool keep_threads,
                                     bool keep_folds_and_blocks);
    std::map<std::string, ::isl::set> set_cache_;
    ::isl::set user_set(const Scope& scope);
    SymbolicCount per_subgroup(const Scope& scope);
    SymbolicCount per_work_item(const Scope& scope);
    // `instance_count`: `count` as if every fold instance did its own, where they share some
    // (null: they share none).
    void add_operation(DataType dtype, const std::string& op, Granularity granularity,
                       const SymbolicCount& count, const SymbolicCount& work_items,
                       const SymbolicCount* instance_count = nullptr);
    void add_arith(const Scope& scope, DataType dtype, const std::string& op, int times = 1) {
        const SymbolicCount count = per_subgroup(scope).scaled(times);
        const SymbolicCount work_items = per_work_item(scope).scaled(times);
        if (scope.shared_fold_axes == 0) {
            add_operation(dtype, op, Granularity::subgroup, count, work_items);
            return;
        }
        Scope unshared = scope;
        unshared.shared_fold_axes = 0;
        const SymbolicCount each_instance = per_subgroup(unshared).scaled(times);
        add_operation(dtype, op, Granularity::subgroup, count, work_items, &each_instance);
    }
    void record_barrier(const kernel::StatementSpec& statement, int index);
    Scope statement_scope(const kernel::StatementSpec& statement, int index);
    void record_statement(const kernel::StatementSpec& statement, const Scope& scope);
    void walk_subscripts(const Expr& target, const Scope& scope);
    ValueType walk(const ExprPtr& e, Scope scope);
    ValueType walk_binary(const Expr& e, const Scope& scope);
    ValueType walk_call(const Expr& e, const Scope& scope);
    ValueType walk_reduction(const Expr& e, const Scope& scope);
    void index_arithmetic(const Expr& e, const Scope& scope);
    void record_access(const ExprPtr& ref, const Scope& scope, Direction direction,
                       std::optional<kernel::AtomicKind> atomic);
    bool access_subscripts(const Expr& ref, AccessInfo& access,
                           std::vector<AffineForm>& user) const;
    SymbolicCount footprint_elements(const AccessInfo& access, const Scope& scope,
                                     const std::vector<AffineForm>& user_subscripts,
                                     bool user_space, const ::isl::set& domain);
};

// isl text of an assumption ("n % 16 == 0" -> "(n mod 16) = 0"); nullopt when it has no
// isl form (it is still checked when parameters are evaluated).
std::optional<std::string> assumption_to_isl(const Expr& e) {
    using kernel::BinaryOp;
    switch (e.kind) {
    case ExprKind::integer:
        return std::to_string(e.integer_value);
    case ExprKind::variable:
        return e.name;
    case ExprKind::negate: {
        auto inner = assumption_to_isl(*e.operands[0]);
        return inner ? std::optional<std::string>("-(" + *inner + ")") : std::nullopt;
    }
    case ExprKind::binary: {
        auto a = assumption_to_isl(*e.operands[0]);
        auto b = assumption_to_isl(*e.operands[1]);
        if (!a || !b)
            return std::nullopt;
        switch (e.op) {
        case BinaryOp::add:
            return "(" + *a + " + " + *b + ")";
        case BinaryOp::sub:
            return "(" + *a + " - " + *b + ")";
        case BinaryOp::mul:
            return "(" + *a + " * " + *b + ")";
        case BinaryOp::mod:
            if (e.operands[1]->kind != ExprKind::integer)
                return std::nullopt;
            return "(" + *a + " mod " + *b + ")";
        case BinaryOp::div:
            if (e.operands[1]->kind != ExprKind::integer)
                return std::nullopt;
            return "floor((" + *a + ")/" + *b + ")";
        case BinaryOp::equal:
            return "(" + *a + " = " + *b + ")";
        case BinaryOp::less:
        case BinaryOp::less_equal:
        case BinaryOp::greater:
        case BinaryOp::greater_equal:
            return "(" + *a + " " + kernel::binary_op_symbol(e.op) + " " + *b + ")";
        case BinaryOp::logical_and:
            return "(" + *a + " and " + *b + ")";
        case BinaryOp::logical_or:
            return "(" + *a + " or " + *b + ")";
        default:
            return std::nullopt;
        }
    }
    default:
        return std::nullopt;
    }
}

void Analyzer::setup_launch() {
    read_assumptions();
    read_domain();
    declare_launch_variables();
    std::vector<VariableRange> constraints;
    for (int axis = 0; axis < axis_count; ++axis)
        map_axis(axis, constraints);
    add_sequential_variables();
    build_launch_domain(constraints);
    count_thread_blocks();
}

void Analyzer::read_assumptions() {
    std::vector<std::string> facts;
    for (const auto& assumption : result_.spec.parsed_assumptions)
        if (auto text = assumption_to_isl(*assumption))
            facts.push_back(*text);
    for (const auto& requirement : result_.spec.requirements) // the binding checks them too
        if (auto text = assumption_to_isl(*requirement.parsed))
            facts.push_back(*text);
    if (facts.empty())
        return;
    try {
        context_text_ = fmt::format("{} -> {{ : {} }}", params_text_, fmt::join(facts, " and "));
        context_ = isl::thread_context().parsed_set(context_text_);
    } catch (const isl::IslError&) {
        context_ = std::nullopt; // not expressible in isl: no simplification
    }
}

// The domain with its parameters aligned with the declared order.
void Analyzer::read_domain() {
    const KernelSpec& spec = result_.spec;
    try {
        user_domain_ = isl::thread_context().parsed_set(spec.domain);
    } catch (const isl::IslError& e) {
        throw_input_error("isl rejects the domain of kernel '" + spec.name + "': " + e.what());
    }
    const ::isl::space declared =
        isl::thread_context()
            .parsed_set(result_.parameters.empty() ? "{ : }" : params_text_ + " -> { : }")
            .space();
    user_domain_ = ::isl::manage(isl_set_align_params(user_domain_.copy(), declared.copy()));
    ctx_.check(user_domain_.get(), "aligning the domain's parameters");
}

// The lower or upper bound of an index over the domain, affine in the parameters.
AffineForm Analyzer::index_bound(const std::string& index, bool maximum) {
    const auto& indices = result_.spec.indices;
    const int position =
        static_cast<int>(std::find(indices.begin(), indices.end(), index) - indices.begin());
    const ::isl::pw_aff bound =
        ::isl::manage(maximum ? isl_set_dim_max(user_domain_.copy(), position)
                              : isl_set_dim_min(user_domain_.copy(), position));
    if (auto form = detail::affine_bound(bound, result_.parameters))
        return *form;
    throw_input_error("the " + std::string(maximum ? "upper" : "lower") + " bound of '" + index +
                          "' must be affine in the parameters for a thread "
                          "mapping; isl gives " +
                          (bound.is_null() ? std::string("nothing") : isl::to_string(bound.get())),
                      SourceLocation{result_.spec.file, 0, 0, {}, {}});
}

// Launch variables, outermost first: blocks, threads, folds (z to x); builtins of axes
// without a variable evaluate to 0.
void Analyzer::declare_launch_variables() {
    const auto& t = result_.spec.threads;
    for (int kind = 0; kind < 3; ++kind)
        for (int axis = axis_count - 1; axis >= 0; --axis) {
            const size_t a = static_cast<size_t>(axis);
            const bool global = !t.global[a].empty();
            const bool has_block = global || !t.block[a].empty();
            const bool has_thread = global || !t.local[a].empty();
            const bool has_fold = global && result_.launch.fold[a] > 1;
            const auto k = static_cast<LaunchVariable::Kind>(kind);
            const bool present = (k == LaunchVariable::Kind::block && has_block) ||
                                 (k == LaunchVariable::Kind::thread && has_thread) ||
                                 (k == LaunchVariable::Kind::fold && has_fold);
            if (present) {
                result_.variables.push_back(LaunchVariable{builtin_of(k, axis), k, axis});
                parallel_variables_.push_back(builtin_of(k, axis));
            } else {
                builtin_zero_[builtin_of(k, axis)] = 0;
            }
        }
}

// index = lower bound + bx * block * fold + tx * fold + fx (consecutive placement), or
// lower bound + bx * block * fold + fx * block + tx (strided: block-cyclic).
void Analyzer::map_global_axis(int axis, std::vector<VariableRange>& constraints) {
    const size_t a = static_cast<size_t>(axis);
    const std::string bx = builtin_of(LaunchVariable::Kind::block, axis);
    const std::string tx = builtin_of(LaunchVariable::Kind::thread, axis);
    const std::string fx = builtin_of(LaunchVariable::Kind::fold, axis);
    const std::string& index = result_.spec.threads.global[a];
    AffineForm form = index_bound(index, false);
    const std::int64_t block = result_.launch.block[a], fold = result_.launch.fold[a];
    const bool strided = result_.launch.fold_placement == kernel::FoldPlacement::strided;
    form.add_term(bx, block * fold);
    form.add_term(tx, strided ? 1 : fold);
    if (fold > 1) {
        form.add_term(fx, strided ? block : 1);
        constraints.push_back({fx, 0, fold});
    }
    constraints.push_back({tx, 0, block});
    constraints.push_back({bx, 0, std::nullopt});
    result_.index_forms[index] = form;
    thread_indices_.insert(index);
}

// A local index is threadIdx: constant bounds from 0, and it fixes the block size.
void Analyzer::map_local_axis(int axis) {
    const size_t a = static_cast<size_t>(axis);
    const KernelSpec& spec = result_.spec;
    LaunchConfig& launch = result_.launch;
    const std::string& index = spec.threads.local[a];
    const AffineForm low = index_bound(index, false), high = index_bound(index, true);
    if (!low.is_constant() || !high.is_constant())
        throw_input_error("local index '" + index +
                          "' must have constant bounds "
                          "(it is threadIdx." +
                          kernel::axis_name(axis) + ")");
    if (low.constant != 0)
        throw_input_error("local index '" + index + "' must start at 0 (threadIdx." +
                          kernel::axis_name(axis) + ")");
    const std::int64_t extent = high.constant + 1;
    if (launch.block[a] != extent && launch.block[a] != 1 &&
        launch.block[a] != spec.launch.block[a])
        throw_input_error("kernel '" + spec.name + "' fixes the block size along " +
                          kernel::axis_name(axis) + " to " + std::to_string(extent) +
                          " (local index '" + index + "'); the launch asks for " +
                          std::to_string(launch.block[a]));
    launch.block[a] = extent;
    AffineForm form;
    form.add_term(builtin_of(LaunchVariable::Kind::thread, axis), 1);
    result_.index_forms[index] = form;
    thread_indices_.insert(index);
}

void Analyzer::map_axis(int axis, std::vector<VariableRange>& constraints) {
    const size_t a = static_cast<size_t>(axis);
    const auto& t = result_.spec.threads;
    if (!t.global[a].empty()) {
        map_global_axis(axis, constraints);
        return;
    }
    if (result_.launch.fold[a] != 1)
        throw_input_error(std::string("fold along ") + kernel::axis_name(axis) +
                          " needs an index mapped with threads: " + kernel::axis_name(axis));
    if (!t.local[a].empty())
        map_local_axis(axis);
    else if (result_.launch.block[a] != 1)
        throw_input_error(std::string("block size along ") + kernel::axis_name(axis) +
                          " must be 1: no index is mapped to that axis");
    if (!t.block[a].empty()) {
        AffineForm form;
        form.add_term(builtin_of(LaunchVariable::Kind::block, axis), 1);
        result_.index_forms[t.block[a]] = form;
        thread_indices_.insert(t.block[a]);
    }
}

// Indices not mapped to the launch stay themselves: sequential loop variables.
void Analyzer::add_sequential_variables() {
    for (const auto& index : result_.spec.indices)
        if (!result_.index_forms.count(index)) {
            result_.variables.push_back(
                LaunchVariable{index, LaunchVariable::Kind::sequential, -1});
            AffineForm form;
            form.add_term(index, 1);
            result_.index_forms[index] = form;
        }
}

// The domain in launch variables: its image under the inverse of the launch map.
// Built with isl's constructors rather than parsed from text: the map of every launch differs
// (block and fold sizes are its coefficients), and parsing it was a sixth of an explore.
void Analyzer::build_launch_domain(const std::vector<VariableRange>& constraints) {
    const auto& variables = result_.variables;
    const auto& parameters = result_.parameters;
    const auto& indices = result_.spec.indices;
    isl_ctx* ctx = ctx_.get();
    isl_space* space = isl_space_alloc(ctx, static_cast<unsigned>(parameters.size()),
                                       static_cast<unsigned>(variables.size()),
                                       static_cast<unsigned>(indices.size()));
    for (size_t k = 0; k < parameters.size(); ++k)
        space = isl_space_set_dim_name(space, isl_dim_param, static_cast<unsigned>(k),
                                       parameters[k].c_str());
    for (size_t k = 0; k < variables.size(); ++k)
        space = isl_space_set_dim_name(space, isl_dim_in, static_cast<unsigned>(k),
                                       variables[k].name.c_str());
    const auto position = [](const auto& names, const std::string& name, auto key) {
        for (size_t k = 0; k < names.size(); ++k)
            if (key(names[k]) == name)
                return static_cast<int>(k);
        return -1;
    };
    const auto variable_name = [](const LaunchVariable& v) -> const std::string& { return v.name; };
    const auto same = [](const std::string& s) -> const std::string& { return s; };
    isl_local_space* on_variables =
        isl_local_space_from_space(isl_space_domain(isl_space_copy(space)));
    isl_aff_list* outputs = isl_aff_list_alloc(ctx, static_cast<int>(indices.size()));
    for (const auto& index : indices) {
        const AffineForm& form = result_.index_forms[index];
        isl_aff* aff = isl_aff_zero_on_domain(isl_local_space_copy(on_variables));
        aff = isl_aff_set_constant_val(aff, isl_val_int_from_si(ctx, form.constant));
        for (const auto& [name, c] : form.coefficients) {
            if (const int v = position(variables, name, variable_name); v >= 0)
                aff = isl_aff_set_coefficient_val(aff, isl_dim_in, v, isl_val_int_from_si(ctx, c));
            else if (const int p = position(parameters, name, same); p >= 0)
                aff =
                    isl_aff_set_coefficient_val(aff, isl_dim_param, p, isl_val_int_from_si(ctx, c));
            else
                KERNCAST_CHECK(false, "the launch map names '" + name +
                                          "', neither a launch variable nor a parameter");
        }
        outputs = isl_aff_list_add(outputs, aff);
    }
    isl_map* map = isl_map_from_multi_aff(isl_multi_aff_from_aff_list(space, outputs));
    isl_basic_set* ranges = isl_basic_set_universe(isl_local_space_get_space(on_variables));
    for (const auto& range : constraints) {
        const int v = position(variables, range.name, variable_name);
        KERNCAST_CHECK(v >= 0, "a launch range of an unknown variable " + range.name);
        isl_constraint* low = isl_constraint_alloc_inequality(isl_local_space_copy(on_variables));
        low = isl_constraint_set_coefficient_si(low, isl_dim_set, v, 1);
        low = isl_constraint_set_constant_val(low, isl_val_int_from_si(ctx, -range.lower));
        ranges = isl_basic_set_add_constraint(ranges, low);
        if (range.upper) {
            isl_constraint* high =
                isl_constraint_alloc_inequality(isl_local_space_copy(on_variables));
            high = isl_constraint_set_coefficient_si(high, isl_dim_set, v, -1);
            high =
                isl_constraint_set_constant_val(high, isl_val_int_from_si(ctx, *range.upper - 1));
            ranges = isl_basic_set_add_constraint(ranges, high);
        }
    }
    isl_local_space_free(on_variables);
    map = isl_map_intersect_domain(map, isl_set_from_basic_set(ranges));
    KERNCAST_CHECK(map != nullptr, "isl could not build the launch map");
    launch_domain_ = ::isl::manage(isl_set_apply(user_domain_.copy(), isl_map_reverse(map)));
    ctx_.check(launch_domain_.get(), "mapping the domain to the launch");
    for (size_t k = 0; k < variables.size(); ++k)
        launch_domain_ = ::isl::manage(isl_set_set_dim_name(launch_domain_.copy(), isl_dim_set,
                                                            static_cast<unsigned>(k),
                                                            variables[k].name.c_str()));
}

// Threads and sub-groups per block; thread blocks with work: the domain projected onto the
// block variables.
void Analyzer::count_thread_blocks() {
    const LaunchConfig& launch = result_.launch;
    result_.threads_per_block = launch.block[0] * launch.block[1] * launch.block[2];
    const std::int64_t s = result_.options.subgroup_size;
    KERNCAST_CHECK(s > 0, "sub-group size must be positive");
    result_.subgroups_per_block = (result_.threads_per_block + s - 1) / s;
    const auto& variables = result_.variables;
    const ::isl::set blocks = project_out_unless(launch_domain_, variables.size(), [&](size_t k) {
        return variables[k].kind == LaunchVariable::Kind::block;
    });
    result_.thread_blocks = count_set(blocks);
}

// The scope's set in launch variables: parallel variables (threads optional) plus the
// sequential indices in scope, intersected with the statement's where-condition.
::isl::set Analyzer::statement_set(const Scope& scope, bool keep_threads,
                                   bool keep_folds_and_blocks) {
    std::string key = (keep_threads ? "T" : "t") + std::string(keep_folds_and_blocks ? "B" : "b");
    if (scope.shared_fold_axes != 0)
        key += "f" + std::to_string(scope.shared_fold_axes);
    if (scope.statement && scope.statement->condition)
        key += "s" + std::to_string(scope.statement_index);
    for (const auto& index : scope.indices)
        key += " " + index;
    auto cached = set_cache_.find(key);
    if (cached != set_cache_.end())
        return cached->second;
    ::isl::set computed = compute_statement_set(scope, keep_threads, keep_folds_and_blocks);
    set_cache_.emplace(key, computed);
    return computed;
}

::isl::set Analyzer::compute_statement_set(const Scope& scope, bool keep_threads,
                                           bool keep_folds_and_blocks) {
    ::isl::set set = launch_domain_;
    const auto& variables = result_.variables;
    if (scope.statement && scope.statement->condition) {
        std::map<std::string, AffineForm> forms = result_.index_forms;
        for (const auto& [name, zero] : builtin_zero_)
            forms[name] = AffineForm{};
        std::vector<std::string> names;
        for (const auto& v : variables)
            names.push_back(v.name);
        const std::string text =
            params_text_ + " -> { [" + fmt::format("{}", fmt::join(names, ", ")) +
            "] : " + condition_to_isl(*scope.statement->condition, forms) + " }";
        ::isl::set condition;
        try {
            condition = isl::parse_set(ctx_, text);
        } catch (const isl::IslError& e) {
            throw_input_error("isl rejects the where-condition '" +
                                  scope.statement->condition_text + "': " + e.what(),
                              scope.statement->where);
        }
        set = ::isl::manage(isl_set_intersect(set.copy(), condition.copy()));
    }
    return project_out_unless(set, variables.size(), [&](size_t k) {
        const LaunchVariable& v = variables[k];
        switch (v.kind) {
        case LaunchVariable::Kind::thread:
            return keep_threads;
        case LaunchVariable::Kind::sequential:
            return keep_folds_and_blocks && scope.indices.count(v.name) > 0;
        case LaunchVariable::Kind::fold:
            return keep_folds_and_blocks && (scope.shared_fold_axes >> v.axis & 1u) == 0;
        default:
            return keep_folds_and_blocks;
        }
    });
}

// The scope's set in the user's indices (used for per-work-item counts, which have closed
// forms more often there; the launch mapping is a bijection on domain points).
::isl::set Analyzer::user_set(const Scope& scope) {
    const auto& indices = result_.spec.indices;
    return project_out_unless(user_domain_, indices.size(), [&](size_t k) {
        return scope.indices.count(indices[k]) > 0 || thread_indices_.count(indices[k]) > 0;
    });
}

SymbolicCount Analyzer::per_subgroup(const Scope& scope) {
    return count_set(statement_set(scope, false, true)).scaled(result_.subgroups_per_block);
}

SymbolicCount Analyzer::per_work_item(const Scope& scope) {
    // (The user's indices cannot drop a fold index: the launch's variables can.)
    if ((scope.statement && scope.statement->condition) || scope.shared_fold_axes != 0)
        return count_set(statement_set(scope, true, true));
    return count_set(user_set(scope));
}

void Analyzer::add_operation(DataType dtype, const std::string& op, Granularity granularity,
                             const SymbolicCount& count, const SymbolicCount& work_items,
                             const SymbolicCount* instance_count) {
    auto& slot = operations_[{dtype, op}];
    slot.granularity = granularity;
    slot.count = slot.count + count;
    slot.work_items = slot.work_items + work_items;
    slot.instance_count = slot.instance_count + (instance_count ? *instance_count : count);
    slot.shared = slot.shared || instance_count != nullptr;
}

void Analyzer::index_arithmetic(const Expr& e, const Scope& scope) {
    if (e.kind == ExprKind::binary) {
        if (e.op == kernel::BinaryOp::add || e.op == kernel::BinaryOp::sub)
            add_arith(scope, DataType::i32, "add");
        else if (e.op == kernel::BinaryOp::mul)
            add_arith(scope, DataType::i32, "mul");
        else if (e.op == kernel::BinaryOp::div)
            add_arith(scope, DataType::i32, "div");
    }
    if (e.kind == ExprKind::array_ref)
        return; // an indirect subscript's own reference is handled by walk()
    for (const auto& operand : e.operands)
        index_arithmetic(*operand, scope);
}

bool reads_array(const Expr& e) {
    if (e.kind == ExprKind::array_ref)
        return true;
    return std::any_of(e.operands.begin(), e.operands.end(),
                       [](const ExprPtr& o) { return reads_array(*o); });
}

// The reference's subscripts as affine forms in the user's indices (`user`) and in launch
// variables (access.subscripts); both empty when a subscript reads an array (indirect).
// Returns whether a subscript names a builtin (tx, bx, ...).
bool Analyzer::access_subscripts(const Expr& ref, AccessInfo& access,
                                 std::vector<AffineForm>& user) const {
    std::map<std::string, AffineForm> forms = result_.index_forms;
    for (const auto& [name, zero] : builtin_zero_)
        forms[name] = AffineForm{};
    bool uses_builtins = false;
    for (const auto& subscript : ref.operands) {
        if (reads_array(*subscript)) {
            access.indirect = true;
            continue;
        }
        const AffineForm user_form = kernel::to_affine(*subscript);
        for (const auto& [name, c] : user_form.coefficients)
            if (kernel::is_builtin_name(name))
                uses_builtins = true;
        user.push_back(user_form);
        access.subscripts.push_back(substitute(user_form, forms));
    }
    if (access.indirect)
        access.subscripts.clear();
    return uses_builtins;
}

// Granularity (counting-cases.md): shared per sub-group; global/constant per work-item
// unless uniform along thread x; atomics per work-item.
Granularity access_granularity(const AccessInfo& access) {
    bool uniform_x = !access.indirect;
    for (const auto& s : access.subscripts)
        if (s.coefficient("tx") != 0)
            uniform_x = false;
    if (access.direction == Direction::atomic)
        return Granularity::work_item;
    if (access.space == MemorySpace::shared)
        return Granularity::subgroup;
    return uniform_x ? Granularity::subgroup : Granularity::work_item;
}

// Whole-launch element footprint of a direct access: the image of its domain under the
// subscripts. An injective subscript map (full column rank in the scope's indices) touches
// as many distinct elements as it has executions: no image needed.
SymbolicCount Analyzer::footprint_elements(const AccessInfo& access, const Scope& scope,
                                           const std::vector<AffineForm>& user_subscripts,
                                           bool user_space, const ::isl::set& domain) {
    if (user_space) {
        std::vector<std::string> scope_indices;
        for (const auto& index : result_.spec.indices)
            if (scope.indices.count(index) || thread_indices_.count(index))
                scope_indices.push_back(index);
        std::vector<std::vector<wide_int>> rows;
        for (const auto& form : user_subscripts) {
            std::vector<wide_int> row;
            for (const auto& index : scope_indices)
                row.push_back(form.coefficient(index));
            rows.push_back(row);
        }
        if (matrix_rank(rows) == static_cast<int>(scope_indices.size()))
            return access.count_per_work_item;
    }
    const ::isl::set source = user_space ? user_set(scope) : domain;
    const std::vector<std::string> names =
        user_space ? dim_names(source, isl_dim_set) : access.domain_variables;
    std::vector<std::string> outputs;
    for (const auto& s : user_space ? user_subscripts : access.subscripts)
        outputs.push_back(s.to_string());
    const std::string map_text = fmt::format("{} -> {{ [{}] -> [{}] }}", params_text_,
                                             fmt::join(names, ", "), fmt::join(outputs, ", "));
    const ::isl::map map = isl::parse_map(ctx_, map_text);
    ::isl::set image = ::isl::manage(isl_set_apply(source.copy(), map.copy()));
    ctx_.check(image.get(), "computing a footprint");
    image = ::isl::manage(isl_set_coalesce(image.copy()));
    return count_set(image);
}

void Analyzer::record_access(const ExprPtr& ref, const Scope& scope, Direction direction,
                             std::optional<kernel::AtomicKind> atomic) {
    const ArrayDecl* array = result_.spec.find_array(ref->name);
    KERNCAST_CHECK(array != nullptr, "validated array missing: " + ref->name);
    if (array->space == MemorySpace::private_)
        return; // registers
    AccessInfo access;
    access.statement = scope.statement_index;
    access.array = array->name;
    access.tag = ref->tag;
    access.space = array->space;
    access.dtype = array->dtype;
    access.direction = direction;
    access.atomic = atomic;
    access.text = kernel::to_string(*ref);
    std::vector<AffineForm> user_subscripts;
    const bool uses_builtins = access_subscripts(*ref, access, user_subscripts);
    access.granularity = access_granularity(access);
    access.count_per_work_item = per_work_item(scope);
    access.count = access.granularity == Granularity::subgroup ? per_subgroup(scope)
                                                               : access.count_per_work_item;

    // Domain in launch variables (for addresses and footprints).
    const ::isl::set domain = statement_set(scope, true, true);
    access.domain = text_of(domain);
    access.domain_variables = dim_names(domain, isl_dim_set);
    // A staging statement's load (analysis/shared_staging.hpp) reaches the union of the
    // blocks' tiles, which the staging states as a set.
    if (scope.statement && !scope.statement->staged_elements.empty() &&
        access.space != MemorySpace::shared) {
        access.footprint_elements =
            count_set(isl::parse_set(ctx_, scope.statement->staged_elements));
    } else if (!access.indirect && access.space != MemorySpace::shared) {
        // (A shared array is each block's own: its launch-wide elements mean nothing.)
        const bool user_space = !uses_builtins && !(scope.statement && scope.statement->condition);
        access.footprint_elements =
            footprint_elements(access, scope, user_subscripts, user_space, domain);
    }
    result_.accesses.push_back(std::move(access));
}

ValueType Analyzer::walk(const ExprPtr& ptr, Scope scope) {
    const Expr& e = *ptr;
    switch (e.kind) {
    case ExprKind::integer:
        return ValueType{DataType::i32, true};
    case ExprKind::real:
        return ValueType{DataType::f64, true};
    case ExprKind::variable: {
        if (const ArrayDecl* array = result_.spec.find_array(e.name)) {
            auto ref = std::make_shared<Expr>(e);
            ref->kind = ExprKind::array_ref;
            record_access(ref, scope, Direction::load, std::nullopt);
            return ValueType{array->dtype, false};
        }
        return ValueType{DataType::i32, false};
    }
    case ExprKind::array_ref: {
        const ArrayDecl* array = result_.spec.find_array(e.name);
        walk_subscripts(e, scope);
        record_access(ptr, scope, Direction::load, std::nullopt);
        return ValueType{array->dtype, false};
    }
    case ExprKind::negate: // a factor of -1 is free (counting-cases.md, case 1)
        return walk(e.operands[0], scope);
    case ExprKind::logical_not:
        walk(e.operands[0], scope);
        return ValueType{DataType::i32, false};
    case ExprKind::conditional: {
        walk(e.operands[0], scope);
        return combine(walk(e.operands[1], scope), walk(e.operands[2], scope));
    }
    case ExprKind::binary:
        return walk_binary(e, scope);
    case ExprKind::call:
        return walk_call(e, scope);
    case ExprKind::reduction:
        return walk_reduction(e, scope);
    }
    return ValueType{};
}

ValueType Analyzer::walk_binary(const Expr& e, const Scope& scope) {
    const ValueType a = walk(e.operands[0], scope);
    const ValueType b = walk(e.operands[1], scope);
    const ValueType type = combine(a, b);
    // The folded axes whose instances share this floating-point operation (fold_dependence).
    const unsigned dependence = fold_dependence(e);
    const Scope op = floating_value(type) ? operation_scope(scope, dependence) : scope;
    using kernel::BinaryOp;
    switch (e.op) {
    case BinaryOp::add:
    case BinaryOp::sub:
        add_arith(op, type.dtype, "add");
        // madd: an add or subtract with a product operand can be one fused multiply-add, unless
        // fold instances share the product but not the sum (the product is then computed once
        // for them, apart from the adds).
        for (const ExprPtr& operand : e.operands)
            if (operand->kind == ExprKind::binary && operand->op == BinaryOp::mul &&
                (!floating_value(type) ||
                 (folded_axes_ & fold_dependence(*operand)) == (folded_axes_ & dependence))) {
                add_arith(op, type.dtype, "madd");
                break;
            }
        return type;
    case BinaryOp::mul:
        add_arith(op, type.dtype, "mul");
        return type;
    case BinaryOp::div:
        add_arith(op, type.dtype, "div");
        if (!kernel::is_floating(type.dtype))
            integer_divisions_.insert(&e);
        return type;
    case BinaryOp::mod:
        add_arith(scope, type.dtype, "mod");
        if (!kernel::is_floating(type.dtype))
            integer_divisions_.insert(&e);
        return type;
    case BinaryOp::logical_and:
    case BinaryOp::logical_or:
        return ValueType{DataType::i32, false};
    default: // comparisons
        add_arith(scope, type.dtype, "cmp");
        return ValueType{DataType::i32, false};
    }
}

// A built-in call counts as its table entry's operation class (builtin_functions.hpp).
ValueType Analyzer::walk_call(const Expr& e, const Scope& scope) {
    ValueType type{DataType::i32, true};
    bool first = true;
    for (size_t k = 0; k < e.operands.size(); ++k) {
        const ValueType t = walk(e.operands[k], scope);
        if (e.name == "select" && k == 0)
            continue;
        type = first ? t : combine(type, t);
        first = false;
    }
    const kernel::BuiltinFunction* function = kernel::find_builtin_function(e.name);
    if (function && function->counted_as.empty())
        return type; // select: no operation
    const std::string operation = function ? std::string(function->counted_as) : e.name;
    const Scope op = floating_value(type) ? operation_scope(scope, fold_dependence(e)) : scope;
    if (function && function->counts_per_extra_argument())
        add_arith(op, type.dtype, operation,
                  std::max<int>(1, static_cast<int>(e.operands.size()) - 1));
    else
        add_arith(op, type.dtype, "func:" + operation);
    if (type.weak)
        type = ValueType{kernel::is_floating(type.dtype) ? DataType::f64 : DataType::i32, false};
    return type;
}

ValueType Analyzer::walk_reduction(const Expr& e, const Scope& scope) {
    Scope inner = scope;
    for (const auto& index : e.reduction_indices)
        inner.indices.insert(index);
    const ExprPtr& body = e.operands[0];
    const ValueType type = walk(body, inner);
    const bool product = body->kind == ExprKind::binary && body->op == kernel::BinaryOp::mul;
    // (Each fold instance accumulates its own: never shared.)
    if (e.name == "sum") {
        // n terms are accumulated with n adds (loopy; counting-cases.md case 2).
        add_arith(inner, type.dtype, "add");
        if (product)
            add_arith(inner, type.dtype, "madd");
    } else {
        add_arith(inner, type.dtype, "mul");
    }
    return type;
}

unsigned Analyzer::fold_dependence(const Expr& e) const {
    if (folded_axes_ == 0)
        return 0;
    const auto element_of_changing_array = [&](const ArrayDecl& array) {
        return array.space == MemorySpace::private_ || written_arrays_.count(array.name) > 0 ||
               (array.space != MemorySpace::global && array.space != MemorySpace::constant);
    };
    if (e.kind == ExprKind::variable) {
        if (const ArrayDecl* array = result_.spec.find_array(e.name))
            return element_of_changing_array(*array) ? folded_axes_ : 0;
        unsigned dependence = 0;
        if (const auto form = result_.index_forms.find(e.name); form != result_.index_forms.end())
            for (const auto& v : result_.variables)
                if (v.kind == LaunchVariable::Kind::fold && form->second.coefficient(v.name) != 0)
                    dependence |= 1u << v.axis;
        for (int axis = 0; axis < axis_count; ++axis)
            if (e.name == builtin_of(LaunchVariable::Kind::fold, axis))
                dependence |= folded_axes_ & (1u << axis);
        return dependence;
    }
    if (integer_divisions_.count(&e))
        return folded_axes_;
    if (e.kind == ExprKind::array_ref) {
        const ArrayDecl* array = result_.spec.find_array(e.name);
        if (!array || element_of_changing_array(*array) ||
            std::any_of(e.operands.begin(), e.operands.end(),
                        [](const ExprPtr& s) { return reads_array(*s); }))
            return folded_axes_;
    }
    unsigned dependence = 0;
    for (const auto& operand : e.operands)
        dependence |= fold_dependence(*operand);
    return dependence;
}

void Analyzer::find_fold_dependences() {
    for (int axis = 0; axis < axis_count; ++axis)
        if (result_.launch.fold[static_cast<size_t>(axis)] > 1)
            folded_axes_ |= 1u << axis;
    for (const auto& statement : result_.spec.statements)
        if (statement.kind != StatementKind::barrier)
            written_arrays_.insert(statement.parsed.target->name);
}

// Per work-item: the trip count of the barrier's enclosing sequential loops.
void Analyzer::record_barrier(const kernel::StatementSpec& statement, int index) {
    std::set<std::string> loops;
    for (const auto& name : statement.within)
        if (!thread_indices_.count(name))
            loops.insert(name);
    const auto& indices = result_.spec.indices;
    const ::isl::set set = project_out_unless(
        user_domain_, indices.size(), [&](size_t k) { return loops.count(indices[k]) > 0; });
    result_.barriers.push_back(BarrierInfo{index, count_set(set)});
}

// The indices a compute statement runs over: `within`, the thread-mapped ones and those its
// operands and condition use outside reductions.
Analyzer::Scope Analyzer::statement_scope(const kernel::StatementSpec& statement, int index) {
    const KernelSpec& spec = result_.spec;
    const std::set<std::string> all_indices(spec.indices.begin(), spec.indices.end());
    Scope scope;
    scope.statement = &statement;
    scope.statement_index = index;
    scope.indices.insert(statement.within.begin(), statement.within.end());
    scope.indices.insert(thread_indices_.begin(), thread_indices_.end());
    const kernel::Statement& parsed = statement.parsed;
    std::vector<std::string> names;
    kernel::collect_variables(*parsed.target, names);
    if (parsed.compare)
        kernel::collect_variables(*parsed.compare, names);
    if (parsed.value)
        kernel::collect_variables(*parsed.value, names);
    if (statement.condition)
        kernel::collect_variables(*statement.condition, names);
    for (const auto& name : names)
        if (all_indices.count(name))
            scope.indices.insert(name);
    return scope;
}

// Array references inside the subscripts of a reference (indirect addressing) are loads.
void Analyzer::walk_subscripts(const Expr& target, const Scope& scope) {
    for (const auto& subscript : target.operands) {
        if (result_.options.count_index_arithmetic)
            index_arithmetic(*subscript, scope);
        std::function<void(const ExprPtr&)> inner = [&](const ExprPtr& x) {
            if (x->kind == ExprKind::array_ref) {
                walk(x, scope);
                return;
            }
            for (const auto& o : x->operands)
                inner(o);
        };
        inner(subscript);
    }
}

void Analyzer::record_statement(const kernel::StatementSpec& statement, const Scope& scope) {
    const kernel::Statement& parsed = statement.parsed;
    const ArrayDecl* target = result_.spec.find_array(parsed.target->name);
    ValueType value_type{target->dtype, false};
    // atomic_cas's compare operand is an operand like the value: its reads and operations
    // count once per point of the statement's domain (docs/kernel-format.md).
    if (parsed.compare)
        walk(parsed.compare, scope);
    if (parsed.value)
        value_type = walk(parsed.value, scope);
    walk_subscripts(*parsed.target, scope);
    const ValueType target_type{target->dtype, false};
    if (parsed.atomic) {
        const SymbolicCount executions = per_work_item(scope);
        add_operation(target->dtype,
                      std::string("atomic:") + kernel::atomic_kind_name(*parsed.atomic),
                      Granularity::work_item, executions, executions);
        record_access(parsed.target, scope, Direction::atomic, parsed.atomic);
        return;
    }
    if (parsed.op != kernel::AssignOp::assign) {
        record_access(parsed.target, scope, Direction::load, std::nullopt);
        const ValueType type = combine(target_type, value_type);
        // (Each fold instance updates its own element: never shared.)
        switch (parsed.op) {
        case kernel::AssignOp::add_assign:
        case kernel::AssignOp::sub_assign:
            add_arith(scope, type.dtype, "add");
            if (parsed.value->kind == ExprKind::binary && parsed.value->op == kernel::BinaryOp::mul)
                add_arith(scope, type.dtype, "madd");
            break;
        case kernel::AssignOp::mul_assign:
            add_arith(scope, type.dtype, "mul");
            break;
        default:
            add_arith(scope, type.dtype, "div");
        }
    }
    record_access(parsed.target, scope, Direction::store, std::nullopt);
}

KernelAnalysis Analyzer::run() {
    const KernelSpec& spec = result_.spec;
    setup_launch();
    find_fold_dependences();
    for (size_t s = 0; s < spec.statements.size(); ++s) {
        const auto& statement = spec.statements[s];
        if (statement.kind == StatementKind::barrier)
            record_barrier(statement, static_cast<int>(s));
        else
            record_statement(statement, statement_scope(statement, static_cast<int>(s)));
    }
    for (auto& [key, value] : operations_)
        result_.operations.push_back(OperationCount{key.first, key.second, value.granularity,
                                                    value.count, value.work_items,
                                                    value.instance_count, value.shared});
    return std::move(result_);
}

} // namespace

KernelAnalysis analyze(const KernelSpec& spec, const LaunchConfig& launch,
                       const CountOptions& options) {
    for (int axis = 0; axis < axis_count; ++axis)
        if (launch.block[static_cast<size_t>(axis)] < 1 ||
            launch.fold[static_cast<size_t>(axis)] < 1)
            throw_input_error("block and fold sizes must be positive");
    if (kernel::has_staged_arrays(spec))
        return analyze(stage_in_shared_memory(spec, launch), launch, options);
    Analyzer analyzer(spec, launch, options);
    try {
        return analyzer.run();
    } catch (const Error& e) {
        // A launch the kernel cannot take, a set isl rejects: name the kernel file.
        if (e.kind() != ErrorKind::input || !e.where().file.empty() || spec.file.empty())
            throw;
        throw_input_error(e.message(), SourceLocation{spec.file, 0, 0, {}, {}}, e.notes());
    }
}

KernelAnalysis analyze(const KernelSpec& spec, const CountOptions& options) {
    return analyze(spec, spec.launch, options);
}

static void check_fold_within_domain(const kernel::KernelSpec& spec,
                                     const kernel::LaunchConfig& launch,
                                     const kernel::ParameterOverrides& named);

KernelAnalysis analyze(const kernel::BoundKernel& bound, const CountOptions& options) {
    return analyze(bound.spec(), bound.launch(), options);
}

void check_fold_within_domain(const kernel::BoundKernel& bound) {
    check_fold_within_domain(bound.spec(), bound.launch(), bound.named_values());
}

// The values each thread-mapped global index takes along each axis (-1: no such index, or isl
// cannot count them), at the named parameter values: a function of the kernel's domain, its
// mapping and the values alone, which every launch of an explore shares.
static std::array<std::int64_t, kernel::axis_count>
mapped_index_extents(const kernel::KernelSpec& spec, const kernel::ParameterOverrides& named) {
    std::array<std::int64_t, kernel::axis_count> extents;
    extents.fill(-1);
    isl::Context ctx;
    ::isl::set domain;
    try {
        domain = isl::parse_set(ctx, spec.domain);
    } catch (const isl::IslError&) {
        return extents; // rejected with its position when the file was read
    }
    const auto names = dim_names(domain, isl_dim_param);
    for (size_t k = 0; k < names.size(); ++k)
        for (const auto& [name, value] : named)
            if (name == names[k])
                domain = ::isl::manage(isl_set_fix_val(domain.copy(), isl_dim_param,
                                                       static_cast<unsigned>(k),
                                                       isl_val_int_from_si(ctx.get(), value)));
    const auto indices = dim_names(domain, isl_dim_set);
    for (int axis = 0; axis < kernel::axis_count; ++axis) {
        const std::string& index = spec.threads.global[static_cast<size_t>(axis)];
        const auto at = std::find(indices.begin(), indices.end(), index);
        if (index.empty() || at == indices.end())
            continue;
        const auto position = static_cast<size_t>(at - indices.begin());
        const ::isl::set along = project_out(
            project_out_unless(domain, indices.size(), [&](size_t k) { return k == position; }),
            isl_dim_param, 0, static_cast<unsigned>(names.size()));
        try {
            extents[static_cast<size_t>(axis)] = isl::count_points(ctx, along.get());
        } catch (const isl::IslError&) {
        }
    }
    return extents;
}

static void check_fold_within_domain(const kernel::KernelSpec& spec,
                                     const kernel::LaunchConfig& launch,
                                     const kernel::ParameterOverrides& named) {
    if (launch.fold[0] * launch.fold[1] * launch.fold[2] <= 1)
        return;
    static support::Memo<std::array<std::int64_t, kernel::axis_count>> memo;
    std::string key = spec.domain;
    for (const auto& index : spec.threads.global)
        key += '\0' + index;
    for (const auto& [name, value] : named)
        key += '\0' + name + '=' + std::to_string(value);
    const auto extents = memo.get(key, [&] { return mapped_index_extents(spec, named); });
    for (int axis = 0; axis < kernel::axis_count; ++axis) {
        const std::int64_t fold = launch.fold[static_cast<size_t>(axis)];
        const std::int64_t extent = extents[static_cast<size_t>(axis)];
        if (fold > 1 && extent >= 0 && fold > extent)
            throw_input_error(detail::fold_larger_than_domain(
                                  axis, fold, spec.threads.global[static_cast<size_t>(axis)],
                                  std::to_string(extent)),
                              SourceLocation{spec.file, 0, 0, {}, {}});
    }
}

kernel::BoundKernel bind(const KernelAnalysis& analysis,
                         const kernel::ParameterOverrides& overrides) {
    kernel::BoundKernel bound =
        kernel::BoundKernel::bind(analysis.spec, analysis.launch, overrides);
    check_shared_arrays(analysis, bound);
    check_launch_semantics(analysis, bound);
    check_global_bounds(analysis, bound);
    return bound;
}

ByteAddress byte_address(const KernelAnalysis& analysis, const AccessInfo& access,
                         const std::vector<std::int64_t>& params) {
    KERNCAST_CHECK(!access.indirect, "an indirect access has no affine address");
    const ArrayDecl* array = analysis.spec.find_array(access.array);
    KERNCAST_CHECK(array != nullptr, "unknown array " + access.array);
    auto lookup = [&](const std::string& name) -> std::optional<std::int64_t> {
        for (size_t k = 0; k < analysis.parameters.size(); ++k)
            if (analysis.parameters[k] == name)
                return params[k];
        return std::nullopt;
    };
    // Every step checked: an offset or index constant near 2^62 would otherwise wrap into a
    // plausible small address (a silent wrong count).
    const auto overflow = [&]() {
        throw_input_error("the byte address of '" + access.text + "' (array '" + array->name +
                              "') exceeds the 64-bit integer range at these parameter values",
                          analysis.spec.statements.at(static_cast<size_t>(access.statement)).where);
    };
    const auto mul = [&](std::int64_t a, std::int64_t b) {
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a, b, &r))
            overflow();
        return r;
    };
    const auto add = [&](std::int64_t a, std::int64_t b) {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a, b, &r))
            overflow();
        return r;
    };
    // Row-major strides of each dimension in elements.
    const size_t rank = array->shape.size();
    std::vector<std::int64_t> stride(rank, 1);
    try {
        for (size_t k = rank; k-- > 1;)
            stride[k - 1] = mul(stride[k], kernel::evaluate_integer(*array->shape[k], lookup));
    } catch (const kernel::ExpressionError& e) {
        throw_input_error("cannot evaluate the shape of '" + array->name + "': " + e.what(),
                          array->where);
    }
    const std::int64_t element_bytes = kernel::data_type_bytes(array->dtype);
    ByteAddress address;
    try {
        address.constant = array->offset ? kernel::evaluate_integer(*array->offset, lookup) : 0;
    } catch (const kernel::ExpressionError& e) {
        throw_input_error("cannot evaluate the offset of '" + array->name + "': " + e.what(),
                          array->where);
    }
    for (size_t k = 0; k < rank; ++k) {
        const AffineForm& s = access.subscripts[k];
        std::int64_t constant = s.constant;
        for (const auto& [name, c] : s.coefficients) {
            if (auto value = lookup(name))
                constant = add(constant, mul(c, *value));
            else
                address.coefficients[name] = add(address.coefficients[name], mul(c, stride[k]));
        }
        address.constant = add(address.constant, mul(constant, stride[k]));
    }
    address.constant = mul(address.constant, element_bytes);
    for (auto& [name, c] : address.coefficients)
        c = mul(c, element_bytes);
    std::erase_if(address.coefficients, [](const auto& entry) { return entry.second == 0; });
    return address;
}

AccessStrides access_strides(const KernelAnalysis& analysis, const AccessInfo& access,
                             const std::vector<std::int64_t>& params) {
    AccessStrides strides;
    if (access.indirect)
        return strides;
    const ByteAddress address = byte_address(analysis, access, params);
    const std::int64_t element_bytes = kernel::data_type_bytes(access.dtype);
    for (const auto& v : analysis.variables) {
        auto found = address.coefficients.find(v.name);
        const std::int64_t elements =
            found == address.coefficients.end() ? 0 : found->second / element_bytes;
        switch (v.kind) {
        case LaunchVariable::Kind::block:
            strides.block[static_cast<size_t>(v.axis)] = elements;
            break;
        case LaunchVariable::Kind::thread:
            strides.thread[static_cast<size_t>(v.axis)] = elements;
            break;
        case LaunchVariable::Kind::fold:
            strides.fold[static_cast<size_t>(v.axis)] = elements;
            break;
        case LaunchVariable::Kind::sequential:
            strides.sequential[v.name] = elements;
            break;
        }
    }
    return strides;
}

} // namespace kerncast::analysis
