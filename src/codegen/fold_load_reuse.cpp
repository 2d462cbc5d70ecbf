// Register reuse of a folded thread's global loads (fold_load_reuse.hpp).
#include "fold_load_reuse.hpp"

#include "expr_build.hpp"
#include "expression_types.hpp"
#include "kerncast/kernel/builtin_functions.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace kerncast::codegen::detail {

using kernel::AffineForm;
using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;

namespace {

const char* const axis_letters = "xyz";

std::string fold_symbol(int axis) {
    return std::string("f") + axis_letters[axis];
}

// The form with the fold indices at `fold_index`.
AffineForm at_fold_index(const AffineForm& form,
                         const std::array<std::int64_t, kernel::axis_count>& fold_index) {
    AffineForm result;
    result.constant = form.constant;
    for (const auto& [symbol, coefficient] : form.coefficients) {
        bool folded = false;
        for (int a = 0; a < kernel::axis_count; ++a)
            if (symbol == fold_symbol(a)) {
                result.constant += coefficient * fold_index[static_cast<size_t>(a)];
                folded = true;
            }
        if (!folded)
            result.add_term(symbol, coefficient);
    }
    return result;
}

bool depends_on_fold(const AffineForm& form, const kernel::LaunchConfig& launch) {
    for (int a = 0; a < kernel::axis_count; ++a)
        if (launch.fold[static_cast<size_t>(a)] > 1 && form.coefficient(fold_symbol(a)) != 0)
            return true;
    return false;
}

// What one fold instance's names stand for.
struct InstanceNames {
    std::map<std::string, std::string> renamed;          // thread index -> fast-path name
    std::map<std::string, std::string> arrays;           // private scalar -> its copy (interleaved)
    std::map<std::string, AffineForm> thread_index_form; // thread index -> form at the instance
    std::array<std::int64_t, kernel::axis_count> fold_index{0, 0, 0};
};

// `expr` with the instance's names: thread indices renamed, fold indices as numbers.
ExprPtr rename(const ExprPtr& expr, const InstanceNames& names) {
    if (!expr)
        return expr;
    if (expr->kind == ExprKind::variable) {
        for (int a = 0; a < kernel::axis_count; ++a)
            if (expr->name == fold_symbol(a))
                return make_integer(names.fold_index[static_cast<size_t>(a)]);
        if (const auto at = names.renamed.find(expr->name); at != names.renamed.end())
            return make_variable(at->second);
        if (const auto at = names.arrays.find(expr->name); at != names.arrays.end())
            return make_variable(at->second);
        return expr;
    }
    const auto array =
        expr->kind == ExprKind::array_ref ? names.arrays.find(expr->name) : names.arrays.end();
    if (expr->operands.empty() && array == names.arrays.end())
        return expr;
    auto copy = std::make_shared<Expr>(*expr);
    if (array != names.arrays.end())
        copy->name = array->second;
    for (auto& operand : copy->operands)
        operand = rename(operand, names);
    return copy;
}

class Planner {
public:
    explicit Planner(const Schedule& schedule) : schedule_(schedule) {
        for (const auto& [name, value] : schedule.parameters)
            parameters_[name] = value;
        for (int a = 0; a < kernel::axis_count; ++a)
            if (schedule.launch.fold[static_cast<size_t>(a)] > 1)
                folded_axes_ |= 1u << a;
        for (const auto& t : schedule.thread_indices)
            for (int a = 0; a < kernel::axis_count; ++a)
                if (t.form.coefficient(fold_symbol(a)) != 0)
                    thread_index_dependence_[t.index] |= folded_axes_ & (1u << a);
    }

    // A reusable array's element at one instance: its key (array and subscripts as affine
    // forms in the launch indices), or "" when the element cannot be named statically.
    std::string key(const Expr& reference, const InstanceNames& names) const {
        const ArrayStorage* array = schedule_.find_array(reference.name);
        if (!array || array->written ||
            (array->decl.space != kernel::MemorySpace::global &&
             array->decl.space != kernel::MemorySpace::constant))
            return "";
        std::string text = reference.name + "[";
        for (const auto& subscript : reference.operands) {
            AffineForm form;
            try {
                form = kernel::to_affine(*subscript, parameters_);
            } catch (const kernel::ExpressionError&) {
                return "";
            }
            AffineForm launch_form;
            launch_form.constant = form.constant;
            for (const auto& [symbol, coefficient] : form.coefficients) {
                if (const auto at = names.thread_index_form.find(symbol);
                    at != names.thread_index_form.end()) {
                    launch_form += at->second.scaled(coefficient);
                    continue;
                }
                bool fold = false;
                for (int a = 0; a < kernel::axis_count; ++a)
                    if (symbol == fold_symbol(a)) {
                        launch_form.constant +=
                            coefficient * names.fold_index[static_cast<size_t>(a)];
                        fold = true;
                    }
                if (fold)
                    continue;
                if (!open_loops_.count(symbol))
                    return ""; // a private scalar or another name whose value may change
                launch_form.add_term(symbol, coefficient); // one iteration's element
            }
            text += launch_form.to_string() + ";";
        }
        return text + "]";
    }

    // The folded axes whose fold index the value of `expr` depends on at these names: those of
    // the fold-dependent thread indices and fold indices it names; every folded axis where it
    // reads a private array or an element that is not reused (a written or shared array, a
    // subscript that is not affine). Mirrors the analysis's fold_dependence.
    unsigned fold_dependence(const Expr& expr, const InstanceNames& names) const {
        const bool element = expr.kind == ExprKind::array_ref ||
                             (expr.kind == ExprKind::variable && schedule_.find_array(expr.name));
        if (element)
            return key(expr, names).empty() ? folded_axes_ : subscript_dependence(expr);
        if (expr.kind == ExprKind::variable)
            return name_dependence(expr.name);
        // An integer division or remainder is never part of a shared value: computed apart
        // from the condition that guards it, it could divide by zero.
        if (expr.kind == ExprKind::binary &&
            (expr.op == kernel::BinaryOp::div || expr.op == kernel::BinaryOp::mod) &&
            type_of(schedule_, expr).is_integer())
            return folded_axes_;
        unsigned dependence = 0;
        for (const auto& operand : expr.operands)
            dependence |= fold_dependence(*operand, names);
        return dependence;
    }

    // `expr` with the instance's names and each reusable element as its local; new elements
    // are appended to `plan.loads` and their indices to `first`. A floating-point operation
    // that more fold instances share than the value it is part of (`shared_axes`: the folded
    // axes along which that value does not change) becomes a shared value's local; new ones
    // are appended to `plan.values` and their indices to `first_values`.
    ExprPtr substitute(const ExprPtr& expr, const InstanceNames& names, FoldLoadReuse& plan,
                       std::vector<size_t>& first, std::vector<size_t>& first_values,
                       unsigned shared_axes = 0) {
        if (!expr)
            return expr;
        const bool element = expr->kind == ExprKind::array_ref ||
                             (expr->kind == ExprKind::variable && schedule_.find_array(expr->name));
        if (element) {
            if (const std::string k = key(*expr, names); !k.empty()) {
                auto [at, inserted] = locals_.emplace(k, plan.loads.size());
                if (inserted && !scoped_keys_.empty())
                    scoped_keys_.back().push_back(k);
                if (inserted) {
                    ReusedLoad load;
                    load.name = "kc_" + expr->name + "_" + std::to_string(plan.loads.size());
                    load.array = expr->name;
                    load.reference = rename(expr, names);
                    plan.loads.push_back(std::move(load));
                    first.push_back(at->second);
                }
                ++plan.loop_loads;
                return make_variable(plan.loads[at->second].name);
            }
        }
        if (expr->kind == ExprKind::variable)
            return rename(expr, names);
        const auto array =
            expr->kind == ExprKind::array_ref ? names.arrays.find(expr->name) : names.arrays.end();
        if (expr->operands.empty() && array == names.arrays.end())
            return expr;
        std::optional<kernel::DataType> shared_type;
        unsigned axes = shared_axes;
        if (folded_axes_ != 0 && shareable_operation(*expr)) {
            const ValueType type = type_of(schedule_, *expr);
            axes = folded_axes_ & ~fold_dependence(*expr, names);
            if (!type.literal && kernel::is_floating(type.dtype) && axes != 0 &&
                axes != shared_axes)
                shared_type = type.dtype;
            else
                axes = shared_axes;
        }
        auto copy = std::make_shared<Expr>(*expr);
        if (array != names.arrays.end())
            copy->name = array->second;
        for (auto& operand : copy->operands)
            operand = substitute(operand, names, plan, first, first_values, axes);
        if (!shared_type)
            return copy;
        const std::string k = "=" + kernel::to_string(*copy);
        auto [at, inserted] = locals_.emplace(k, plan.values.size());
        if (inserted) {
            if (!scoped_keys_.empty())
                scoped_keys_.back().push_back(k);
            plan.values.push_back(
                {"kc_v_" + std::to_string(plan.values.size()), *shared_type, copy});
            first_values.push_back(at->second);
        }
        ++plan.value_uses;
        return make_variable(plan.values[at->second].name);
    }

    // A loop's scope: its index may name an element; the loads first made inside it are
    // forgotten when it closes (their locals live in its body).
    void enter_loop(const std::string& index) {
        open_loops_.insert(index);
        scoped_keys_.emplace_back();
    }
    void leave_loop(const std::string& index) {
        for (const std::string& k : scoped_keys_.back())
            locals_.erase(k);
        scoped_keys_.pop_back();
        open_loops_.erase(index);
    }

private:
    // The folded axes a thread index or fold index depends on (none for a loop index or a
    // parameter).
    unsigned name_dependence(const std::string& name) const {
        for (int a = 0; a < kernel::axis_count; ++a)
            if (name == fold_symbol(a))
                return folded_axes_ & (1u << a);
        const auto at = thread_index_dependence_.find(name);
        return at == thread_index_dependence_.end() ? 0 : at->second;
    }
    // A reused element's: its subscripts' (affine, so names only).
    unsigned subscript_dependence(const Expr& expr) const {
        if (expr.kind == ExprKind::variable)
            return name_dependence(expr.name);
        unsigned dependence = 0;
        for (const auto& operand : expr.operands)
            dependence |= subscript_dependence(*operand);
        return dependence;
    }
    // The operations a shared value computes: + - * / and built-in functions (select aside),
    // which read no memory of their own and cannot trap, so computing one outside the
    // condition that guards it (`c && a / b < x`) keeps what the kernel computes.
    static bool shareable_operation(const Expr& expr) {
        if (expr.kind == ExprKind::call)
            return expr.name != "select" && kernel::find_builtin_function(expr.name);
        using kernel::BinaryOp;
        return expr.kind == ExprKind::binary &&
               (expr.op == BinaryOp::add || expr.op == BinaryOp::sub || expr.op == BinaryOp::mul ||
                expr.op == BinaryOp::div);
    }

    const Schedule& schedule_;
    std::map<std::string, std::int64_t> parameters_;
    unsigned folded_axes_ = 0;
    std::map<std::string, unsigned> thread_index_dependence_;
    std::map<std::string, size_t>
        locals_; // key -> index into plan.loads or (key "=...") plan.values
    std::set<std::string> open_loops_;
    std::vector<std::vector<std::string>> scoped_keys_; // per open loop, the keys it added
};

bool reads_memory(const Schedule& schedule, const ExprPtr& expr) {
    if (!expr)
        return false;
    if (expr->kind == ExprKind::array_ref ||
        (expr->kind == ExprKind::variable && schedule.find_array(expr->name)))
        return true;
    for (const auto& operand : expr->operands)
        if (reads_memory(schedule, operand))
            return true;
    return false;
}

void conjuncts(const ExprPtr& expr, std::vector<ExprPtr>& out) {
    if (expr->kind == ExprKind::binary && expr->op == kernel::BinaryOp::logical_and) {
        conjuncts(expr->operands[0], out);
        conjuncts(expr->operands[1], out);
        return;
    }
    out.push_back(expr);
}

} // namespace

namespace {

// Every array and variable name in `expr`.
void collect_names(const ExprPtr& expr, std::set<std::string>& names) {
    if (!expr)
        return;
    if (expr->kind == ExprKind::variable || expr->kind == ExprKind::array_ref)
        names.insert(expr->name);
    for (const auto& operand : expr->operands)
        collect_names(operand, names);
}

// What interleaving the instances of a body with loops needs (fold_load_reuse.hpp): no barrier
// or atomic, guards free of memory and loop indices, no array both written and read but
// through a compound assignment's own target, and only scalar private arrays. Collects the
// private scalars the body names into `privates`.
bool can_interleave(const Schedule& schedule, const std::vector<Step>& steps,
                    std::set<std::string>& loop_indices, std::set<std::string>& written,
                    std::set<std::string>& read, std::set<std::string>& named) {
    for (const Step& step : steps) {
        if (step.kind == StepKind::barrier)
            return false;
        if (step.kind == StepKind::loop) {
            loop_indices.insert(step.index);
            if (!can_interleave(schedule, step.body, loop_indices, written, read, named))
                return false;
            continue;
        }
        const kernel::Statement& statement = step.statement;
        if (statement.atomic || reads_memory(schedule, step.guard))
            return false;
        std::set<std::string> guard_names;
        collect_names(step.guard, guard_names);
        for (const std::string& name : guard_names)
            if (loop_indices.count(name))
                return false;
        written.insert(statement.target->name);
        collect_names(statement.target, named);
        for (const auto& subscript : statement.target->operands)
            collect_names(subscript, read);
        collect_names(statement.value, read);
        collect_names(statement.compare, read);
        collect_names(statement.value, named);
        collect_names(statement.compare, named);
        collect_names(step.guard, named);
    }
    return true;
}

bool has_loop(const std::vector<Step>& steps) {
    return std::any_of(steps.begin(), steps.end(),
                       [](const Step& step) { return step.kind == StepKind::loop; });
}

} // namespace

std::optional<FoldLoadReuse> plan_fold_load_reuse(const Schedule& schedule,
                                                  const std::set<std::string>& used) {
    const auto& fold = schedule.launch.fold;
    const std::int64_t instances = fold[0] * fold[1] * fold[2];
    if (instances < 2 || instances > fold_fast_path_instance_limit)
        return std::nullopt;
    const bool interleave = has_loop(schedule.body);
    std::set<std::string> private_scalars;
    if (interleave) {
        std::set<std::string> loop_indices, written, read, named;
        if (!can_interleave(schedule, schedule.body, loop_indices, written, read, named))
            return std::nullopt;
        for (const std::string& name : written) {
            const ArrayStorage* array = schedule.find_array(name);
            if (array && array->decl.space != kernel::MemorySpace::private_ && read.count(name))
                return std::nullopt; // another instance could read what one writes
        }
        for (const ArrayStorage& array : schedule.arrays)
            if (array.decl.space == kernel::MemorySpace::private_ && named.count(array.decl.name)) {
                if (!array.decl.shape.empty() || array.offset != 0)
                    return std::nullopt; // one copy an instance: scalars only
                private_scalars.insert(array.decl.name);
            }
    } else {
        for (const Step& step : schedule.body)
            if (step.kind != StepKind::compute || reads_memory(schedule, step.guard))
                return std::nullopt; // every guard is evaluated before the first statement runs
    }

    FoldLoadReuse plan;
    std::vector<const ThreadIndex*> per_instance;
    for (const auto& t : schedule.thread_indices) {
        if (!used.count(t.index))
            continue;
        if (depends_on_fold(t.form, schedule.launch))
            per_instance.push_back(&t);
        else
            plan.indices.push_back({t.index, at_fold_index(t.form, {0, 0, 0})});
    }

    // Each instance's names: fold-dependent thread indices (and, interleaved, private
    // scalars) renamed.
    const size_t independent = plan.indices.size();
    std::vector<InstanceNames> names_of;
    std::vector<std::array<std::int64_t, kernel::axis_count>> fold_indices;
    std::int64_t n = 0;
    for (std::int64_t fz = 0; fz < fold[2]; ++fz)
        for (std::int64_t fy = 0; fy < fold[1]; ++fy)
            for (std::int64_t fx = 0; fx < fold[0]; ++fx, ++n) {
                InstanceNames names;
                names.fold_index = {fx, fy, fz};
                for (size_t i = 0; i < independent; ++i)
                    names.thread_index_form[plan.indices[i].name] = plan.indices[i].form;
                for (const ThreadIndex* t : per_instance) {
                    const std::string name = "kc_" + t->index + "_" + std::to_string(n);
                    names.renamed[t->index] = name;
                    const AffineForm form = at_fold_index(t->form, names.fold_index);
                    names.thread_index_form[t->index] = form;
                    plan.indices.push_back({name, form});
                }
                for (const std::string& scalar : private_scalars) {
                    if (n == 0)
                        break; // instance 0 keeps the scalar itself
                    const std::string copy = "kc_" + scalar + "_" + std::to_string(n);
                    names.arrays[scalar] = copy;
                    plan.private_copies.push_back({copy, scalar});
                }
                fold_indices.push_back(names.fold_index);
                names_of.push_back(std::move(names));
            }

    Planner planner(schedule);
    std::set<std::string> printed_conditions;
    // One compute step at one instance: its names, its reused loads, its guard's conjuncts.
    const auto fast_step = [&](const Step& step, const InstanceNames& names) {
        FastPathStep fast;
        fast.step = step;
        fast.step.guard = nullptr;
        kernel::Statement& s = fast.step.statement;
        auto target = std::make_shared<Expr>(*s.target);
        if (const auto copy = names.arrays.find(target->name); copy != names.arrays.end())
            target->name = copy->second;
        for (auto& subscript : target->operands) // e.g. out[idx[i]]
            subscript =
                planner.substitute(subscript, names, plan, fast.first_loads, fast.first_values);
        s.target = target;
        s.compare = planner.substitute(s.compare, names, plan, fast.first_loads, fast.first_values);
        s.value = planner.substitute(s.value, names, plan, fast.first_loads, fast.first_values);
        if (step.guard) {
            std::vector<ExprPtr> parts;
            conjuncts(rename(step.guard, names), parts);
            for (const auto& part : parts)
                if (printed_conditions.insert(kernel::to_string(*part)).second)
                    plan.conditions.push_back(part);
        }
        return fast;
    };
    if (interleave) {
        const std::function<std::vector<InterleavedNode>(const std::vector<Step>&)> tree =
            [&](const std::vector<Step>& steps) {
                std::vector<InterleavedNode> nodes;
                for (const Step& step : steps) {
                    InterleavedNode node;
                    if (step.kind == StepKind::loop) {
                        node.loop = true;
                        node.index = step.index;
                        node.lower = step.lower;
                        node.upper = step.upper;
                        planner.enter_loop(step.index);
                        node.body = tree(step.body);
                        planner.leave_loop(step.index);
                    } else {
                        for (const InstanceNames& names : names_of)
                            node.instances.push_back(fast_step(step, names));
                    }
                    nodes.push_back(std::move(node));
                }
                return nodes;
            };
        plan.interleaved = tree(schedule.body);
    } else {
        for (size_t k = 0; k < names_of.size(); ++k) {
            FastPathInstance instance;
            instance.fold_index = fold_indices[k];
            for (const Step& step : schedule.body)
                instance.steps.push_back(fast_step(step, names_of[k]));
            plan.instances.push_back(std::move(instance));
        }
    }
    if (plan.loop_loads == static_cast<std::int64_t>(plan.loads.size()) &&
        plan.value_uses == static_cast<std::int64_t>(plan.values.size()))
        return std::nullopt; // nothing shared
    return plan;
}

} // namespace kerncast::codegen::detail
