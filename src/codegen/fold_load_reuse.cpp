// Register reuse of a folded thread's global loads (fold_load_reuse.hpp).
#include "fold_load_reuse.hpp"

#include "expr_build.hpp"

#include <map>

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
        return expr;
    }
    if (expr->operands.empty())
        return expr;
    auto copy = std::make_shared<Expr>(*expr);
    for (auto& operand : copy->operands)
        operand = rename(operand, names);
    return copy;
}

class Planner {
public:
    explicit Planner(const Schedule& schedule) : schedule_(schedule) {
        for (const auto& [name, value] : schedule.parameters)
            parameters_[name] = value;
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
                if (!fold)
                    return ""; // a private scalar or another name whose value may change
            }
            text += launch_form.to_string() + ";";
        }
        return text + "]";
    }

    // `expr` with the instance's names and each reusable element as its local; new elements
    // are appended to `plan.loads` and their indices to `first`.
    ExprPtr substitute(const ExprPtr& expr, const InstanceNames& names, FoldLoadReuse& plan,
                       std::vector<size_t>& first) {
        if (!expr)
            return expr;
        const bool element = expr->kind == ExprKind::array_ref ||
                             (expr->kind == ExprKind::variable && schedule_.find_array(expr->name));
        if (element) {
            if (const std::string k = key(*expr, names); !k.empty()) {
                auto [at, inserted] = locals_.emplace(k, plan.loads.size());
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
        if (expr->operands.empty())
            return expr;
        auto copy = std::make_shared<Expr>(*expr);
        for (auto& operand : copy->operands)
            operand = substitute(operand, names, plan, first);
        return copy;
    }

private:
    const Schedule& schedule_;
    std::map<std::string, std::int64_t> parameters_;
    std::map<std::string, size_t> locals_; // key -> index into plan.loads
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

std::optional<FoldLoadReuse> plan_fold_load_reuse(const Schedule& schedule,
                                                  const std::set<std::string>& used) {
    const auto& fold = schedule.launch.fold;
    const std::int64_t instances = fold[0] * fold[1] * fold[2];
    if (instances < 2 || instances > fold_fast_path_instance_limit)
        return std::nullopt;
    for (const Step& step : schedule.body)
        if (step.kind != StepKind::compute || reads_memory(schedule, step.guard))
            return std::nullopt; // every guard is evaluated before the first statement runs

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

    const size_t independent = plan.indices.size();
    Planner planner(schedule);
    std::set<std::string> printed_conditions;
    std::int64_t n = 0;
    for (std::int64_t fz = 0; fz < fold[2]; ++fz)
        for (std::int64_t fy = 0; fy < fold[1]; ++fy)
            for (std::int64_t fx = 0; fx < fold[0]; ++fx, ++n) {
                FastPathInstance instance;
                instance.fold_index = {fx, fy, fz};
                InstanceNames names;
                names.fold_index = instance.fold_index;
                for (size_t i = 0; i < independent; ++i)
                    names.thread_index_form[plan.indices[i].name] = plan.indices[i].form;
                for (const ThreadIndex* t : per_instance) {
                    const std::string name = "kc_" + t->index + "_" + std::to_string(n);
                    names.renamed[t->index] = name;
                    const AffineForm form = at_fold_index(t->form, instance.fold_index);
                    names.thread_index_form[t->index] = form;
                    plan.indices.push_back({name, form});
                }
                for (const Step& step : schedule.body) {
                    FastPathStep fast;
                    fast.step = step;
                    fast.step.guard = nullptr;
                    kernel::Statement& s = fast.step.statement;
                    auto target = std::make_shared<Expr>(*s.target);
                    for (auto& subscript : target->operands) // e.g. out[idx[i]]
                        subscript = planner.substitute(subscript, names, plan, fast.first_loads);
                    s.target = target;
                    s.compare = planner.substitute(s.compare, names, plan, fast.first_loads);
                    s.value = planner.substitute(s.value, names, plan, fast.first_loads);
                    if (step.guard) {
                        std::vector<ExprPtr> parts;
                        conjuncts(rename(step.guard, names), parts);
                        for (const auto& part : parts)
                            if (printed_conditions.insert(kernel::to_string(*part)).second)
                                plan.conditions.push_back(part);
                    }
                    instance.steps.push_back(std::move(fast));
                }
                plan.instances.push_back(std::move(instance));
            }
    if (plan.loop_loads == static_cast<std::int64_t>(plan.loads.size()))
        return std::nullopt; // nothing shared
    return plan;
}

} // namespace kerncast::codegen::detail
