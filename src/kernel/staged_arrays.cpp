#include "kerncast/kernel/staged_arrays.hpp"

#include <functional>

namespace kerncast::kernel {

bool has_staged_arrays(const KernelSpec& spec) {
    for (const ArrayDecl& array : spec.arrays)
        if (array.stage_in_shared)
            return true;
    return false;
}

namespace {

// The first subscript of a reference to `array` in `e` that is not affine in the indices and
// parameters alone (a description of why), or "".
std::string unstageable_read(const KernelSpec& spec, const Expr& e, const ArrayDecl& array) {
    if (e.kind == ExprKind::array_ref && e.name == array.name)
        for (const ExprPtr& subscript : e.operands) {
            std::string problem;
            std::function<void(const Expr&)> scan = [&](const Expr& part) {
                if (!problem.empty())
                    return;
                if (part.kind == ExprKind::array_ref)
                    problem = "reads '" + part.name + "' (an indirect subscript)";
                else if (part.kind == ExprKind::variable && !spec.is_index(part.name) &&
                         !spec.find_param(part.name))
                    problem = "names '" + part.name + "', which is not an index or parameter";
                for (const ExprPtr& operand : part.operands)
                    scan(*operand);
            };
            scan(*subscript);
            if (!problem.empty())
                return "the subscript '" + to_string(*subscript) + "' of '" + to_string(e) + "' " +
                       problem;
        }
    for (const ExprPtr& operand : e.operands)
        if (operand) {
            std::string problem = unstageable_read(spec, *operand, array);
            if (!problem.empty())
                return problem;
        }
    return {};
}

void check_statement(const KernelSpec& spec, const StatementSpec& statement,
                     const ArrayDecl& array) {
    const std::string staged =
        "array '" + array.name + "' is staged in shared memory (stage: " + "shared)";
    if (statement.parsed.target->name == array.name)
        throw_input_error(staged + ", but this statement writes it; only an array the kernel "
                                   "only reads can be staged",
                          statement.where);
    if (names_launch(statement)) {
        std::set<std::string> names;
        for (const ExprPtr& e : {statement.parsed.target, statement.parsed.value,
                                 statement.parsed.compare, statement.condition})
            if (e)
                collect_launch_names(*e, names);
        throw_input_error(staged + ", so the kernel must be written for every launch, but this " +
                              "statement names the launch index '" + *names.begin() +
                              "'; write the staging out by hand for one launch instead " +
                              "(docs/kernel-format.md, \"Staging in shared memory\")",
                          statement.where);
    }
    for (const ExprPtr& e : {statement.parsed.target, statement.parsed.value,
                             statement.parsed.compare, statement.condition}) {
        const std::string problem = e ? unstageable_read(spec, *e, array) : std::string();
        if (!problem.empty())
            throw_input_error(staged + ": " + problem + "; a staged array's subscripts must " +
                                  "be affine in the indices and parameters",
                              statement.where);
    }
}

} // namespace

void check_staged_arrays(const KernelSpec& spec) {
    for (const ArrayDecl& array : spec.arrays) {
        if (!array.stage_in_shared)
            continue;
        for (int axis = 0; axis < axis_count; ++axis)
            if (!spec.threads.block[static_cast<size_t>(axis)].empty() ||
                !spec.threads.local[static_cast<size_t>(axis)].empty())
                throw_input_error("array '" + array.name + "' is staged in shared memory, " +
                                      "which needs the indices mapped with threads: (the " +
                                      "kernel maps " + axis_name(axis) +
                                      " with blocks: or locals:, which fix the block)",
                                  array.stage_where);
        for (const StatementSpec& statement : spec.statements)
            if (statement.kind == StatementKind::compute)
                check_statement(spec, statement, array);
    }
}

} // namespace kerncast::kernel
