// Algorithm 3 of Stevens & Klöckner (sec. 7.1.1) on KernelSpec statements.
#include "kerncast/uipick/work_removal.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_writer.hpp"
#include "kernel_builder.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <set>

namespace kerncast::uipick {

using kernel::ArrayDecl;
using kernel::Expr;
using kernel::ExprKind;
using kernel::KernelSpec;
using kernel::MemorySpace;
using kernel::StatementKind;
using kernel::StatementSpec;

namespace {

bool is_off_chip(const ArrayDecl* array) {
    return array && (array->space == MemorySpace::global || array->space == MemorySpace::constant);
}

struct FoundLoad {
    const Expr* ref = nullptr;
    std::vector<std::string> reduction_indices; // of the reductions around it
};

// Off-chip array references in an expression, with their enclosing reduction indices.
void find_loads(const KernelSpec& spec, const Expr& e, std::vector<std::string>& reductions,
                std::vector<FoundLoad>& found) {
    if (e.kind == ExprKind::array_ref && is_off_chip(spec.find_array(e.name)))
        found.push_back({&e, reductions});
    const size_t depth = reductions.size();
    if (e.kind == ExprKind::reduction)
        reductions.insert(reductions.end(), e.reduction_indices.begin(), e.reduction_indices.end());
    for (const auto& operand : e.operands)
        find_loads(spec, *operand, reductions, found);
    reductions.resize(depth);
}

// Kernel-language text of an isl AST expression (arithmetic only: a sink extent).
std::string ast_text(const ::isl::ast_expr& expr) {
    if (expr.isa<::isl::ast_expr_int>())
        return std::to_string(isl::to_int64(expr.as<::isl::ast_expr_int>().val()));
    if (expr.isa<::isl::ast_expr_id>())
        return expr.as<::isl::ast_expr_id>().id().name();
    if (!expr.isa<::isl::ast_expr_op>())
        throw isl::IslError("unexpected isl AST expression");
    const auto op = expr.as<::isl::ast_expr_op>();
    std::vector<std::string> args;
    for (unsigned k = 0; k < op.n_arg(); ++k) {
        std::string text = "("; // (built in steps: GCC 12 warns falsely on "(" + s + ")")
        text += ast_text(op.arg(static_cast<int>(k)));
        text += ")";
        args.push_back(std::move(text));
    }
    auto fold = [&](const char* symbol) {
        std::string text = args.at(0);
        for (size_t k = 1; k < args.size(); ++k)
            text += std::string(" ") + symbol + " " + args[k];
        return text;
    };
    const isl_ast_expr_op_type type = isl_ast_expr_op_get_type(op.get());
    switch (type) {
    case isl_ast_expr_op_minus:
        return "-" + args.at(0);
    case isl_ast_expr_op_add:
        return fold("+");
    case isl_ast_expr_op_sub:
        return fold("-");
    case isl_ast_expr_op_mul:
        return fold("*");
    case isl_ast_expr_op_div:
    case isl_ast_expr_op_fdiv_q:
    case isl_ast_expr_op_pdiv_q:
        return fold("/"); // the kernel language's integer '/' is floor division
    case isl_ast_expr_op_max:
    case isl_ast_expr_op_min: {
        const char* name = type == isl_ast_expr_op_max ? "max" : "min";
        std::string text = args.at(0);
        for (size_t k = 1; k < args.size(); ++k)
            text = std::string(name) + "(" + text + ", " + args[k] + ")";
        return text;
    }
    default:
        throw isl::IslError("the range is not one expression in the parameters");
    }
}

// Lower bound and extent of each thread-mapped index over the domain, as parameter
// expressions: the sink array's shape and subscripts.
struct IndexRange {
    std::string index, lower, extent;
};

std::string pw_aff_text(const ::isl::pw_aff& value) {
    const ::isl::ast_expr expr = isl::checked("sink extent", [&] {
        const ::isl::pw_aff coalesced = value.coalesce();
        return ::isl::ast_build::from_context(coalesced.domain().params()).expr_from(coalesced);
    });
    return ast_text(expr);
}

IndexRange index_range(const KernelSpec& spec, const std::string& index) {
    isl::Context ctx;
    const ::isl::set domain = isl::parse_set(ctx, spec.domain);
    const int pos = isl_set_find_dim_by_name(domain.get(), isl_dim_set, index.c_str());
    KERNCAST_CHECK(pos >= 0, "index " + index + " not in the domain");
    IndexRange range{index, "", ""};
    try {
        const ::isl::pw_aff low = isl::checked(
            "sink extent", [&] { return ::isl::manage(isl_set_dim_min(domain.copy(), pos)); });
        const ::isl::pw_aff high = isl::checked(
            "sink extent", [&] { return ::isl::manage(isl_set_dim_max(domain.copy(), pos)); });
        const ::isl::pw_aff one = isl::checked("sink extent", [&] {
            const ::isl::set parameters = domain.params();
            return ::isl::manage(
                isl_pw_aff_val_on_domain(parameters.copy(), isl_val_one(ctx.get())));
        });
        range.lower = pw_aff_text(low);
        range.extent = pw_aff_text(high.sub(low).add(one));
    } catch (const isl::IslError& e) {
        throw_input_error("work removal: cannot size the sink array of kernel '" + spec.name +
                              "': the range of thread index '" + index + "' is not one " +
                              "expression in the parameters (" + e.what() + ")",
                          SourceLocation{spec.file, 0, 0, {}, {}});
    }
    return range;
}

// Thread-mapped indices, slowest first: per axis z, y, x the block, local and global index
// (the paper's sink layout gid(1), lid(1), gid(0), lid(0): lid(0) has stride 1).
std::vector<std::string> thread_indices(const KernelSpec& spec) {
    std::vector<std::string> indices;
    for (int axis = kernel::axis_count - 1; axis >= 0; --axis)
        for (const auto* mapping : {&spec.threads.block, &spec.threads.local, &spec.threads.global})
            if (!(*mapping)[static_cast<size_t>(axis)].empty())
                indices.push_back((*mapping)[static_cast<size_t>(axis)]);
    return indices;
}

std::string unique_name(const KernelSpec& spec, const std::string& base) {
    std::string name = base;
    for (int k = 2; spec.find_array(name) || spec.find_param(name) || spec.is_index(name); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

// The sequential indices a new statement must run over to execute as often as `statement`
// (its `within`, the indices it uses outside reductions and in its guard) plus `extra`, in
// domain order.
std::vector<std::string> loops_of(const KernelSpec& spec, const StatementSpec& statement,
                                  const std::vector<std::string>& extra,
                                  const std::vector<std::string>& threads) {
    std::vector<std::string> names = statement.within;
    names.insert(names.end(), extra.begin(), extra.end());
    kernel::collect_variables(*statement.parsed.target, names);
    if (statement.parsed.value)
        kernel::collect_variables(*statement.parsed.value, names);
    if (statement.parsed.compare)
        kernel::collect_variables(*statement.parsed.compare, names);
    if (statement.condition)
        kernel::collect_variables(*statement.condition, names);
    std::vector<std::string> loops;
    for (const auto& index : spec.indices)
        if (std::find(names.begin(), names.end(), index) != names.end() &&
            std::find(threads.begin(), threads.end(), index) == threads.end())
            loops.push_back(index);
    return loops;
}

kernel::DataType read_type(const std::vector<kernel::DataType>& loads,
                           const std::vector<kernel::DataType>& stores) {
    std::optional<kernel::DataType> best;
    for (kernel::DataType type : loads) {
        const bool better = !best || (kernel::is_floating(type) && !kernel::is_floating(*best)) ||
                            (kernel::is_floating(type) == kernel::is_floating(*best) &&
                             kernel::data_type_bytes(type) > kernel::data_type_bytes(*best));
        if (better)
            best = type;
    }
    if (!best && !stores.empty())
        best = stores.front();
    return best.value_or(kernel::DataType::f32);
}

std::string kept_store_text(const kernel::Statement& parsed, const std::string& target,
                            const std::string& read) {
    if (!parsed.atomic)
        return target + " = " + read;
    const std::string kind = kernel::atomic_kind_name(*parsed.atomic);
    if (*parsed.atomic == kernel::AtomicKind::inc)
        return "atomic_inc(" + target + ")";
    if (*parsed.atomic == kernel::AtomicKind::cas)
        return "atomic_cas(" + target + ", " + read + ", " + read + ")";
    return "atomic_" + kind + "(" + target + ", " + read + ")";
}

} // namespace

namespace {

// Every off-chip array name and access tag of the kernel, for the keep check.
std::set<std::string> keepable_names(const KernelSpec& spec) {
    std::set<std::string> names;
    for (const auto& array : spec.arrays)
        if (is_off_chip(&array))
            names.insert(array.name);
    for (const auto& statement : spec.statements) {
        if (statement.kind != StatementKind::compute)
            continue;
        std::vector<std::string> reductions;
        std::vector<FoundLoad> refs;
        find_loads(spec, *statement.parsed.target, reductions, refs);
        if (statement.parsed.value)
            find_loads(spec, *statement.parsed.value, reductions, refs);
        for (const auto& ref : refs)
            if (!ref.ref->tag.empty())
                names.insert(ref.ref->tag);
    }
    return names;
}

// Arrays the statements reference, in the original declaration order.
std::vector<ArrayDecl> referenced_arrays(const KernelSpec& spec,
                                         const std::vector<StatementSpec>& statements) {
    std::set<std::string> used;
    std::function<void(const Expr&)> scan = [&](const Expr& e) {
        if (e.kind == ExprKind::array_ref || e.kind == ExprKind::variable)
            used.insert(e.name);
        for (const auto& operand : e.operands)
            scan(*operand);
    };
    for (const auto& statement : statements)
        if (statement.kind == StatementKind::compute) {
            const kernel::Statement parsed = kernel::parse_statement(statement.text);
            scan(*parsed.target);
            if (parsed.value)
                scan(*parsed.value);
            if (parsed.compare)
                scan(*parsed.compare);
        }
    std::vector<ArrayDecl> arrays;
    for (const auto& array : spec.arrays)
        if (used.count(array.name))
            arrays.push_back(array);
    return arrays;
}

StatementSpec compute_statement(const std::string& id, const std::string& text,
                                const std::vector<std::string>& within,
                                const std::string& condition) {
    StatementSpec statement;
    statement.id = id;
    statement.text = text;
    statement.within = within;
    statement.condition_text = condition;
    return statement;
}

// The sink: one entry per work-item, indexed by the thread-mapped indices minus their lower
// bounds, its extents their ranges.
ArrayDecl sink_array(const KernelSpec& spec, const std::string& name, kernel::DataType dtype) {
    ArrayDecl sink;
    sink.name = name;
    sink.dtype = dtype;
    for (const auto& index : thread_indices(spec))
        sink.shape.push_back(kernel::parse_expression(index_range(spec, index).extent));
    return sink;
}

std::string sink_subscripts(const KernelSpec& spec) {
    std::string subscripts;
    for (const auto& index : thread_indices(spec)) {
        const std::string lower = index_range(spec, index).lower;
        const bool simple = std::all_of(lower.begin(), lower.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
        subscripts += std::string(subscripts.empty() ? "" : ", ") + index;
        if (lower != "0")
            subscripts += simple ? " - " + lower : " - (" + lower + ")";
    }
    return subscripts;
}

} // namespace

KernelSpec remove_work(const KernelSpec& spec, const std::vector<std::string>& keep) {
    const std::set<std::string> keepable = keepable_names(spec);
    for (const auto& name : keep)
        if (!keepable.count(name)) {
            std::string known;
            for (const auto& k : keepable)
                known += (known.empty() ? "" : ", ") + k;
            throw_input_error("work removal: kernel '" + spec.name +
                                  "' has no global or constant array or access tag '" + name + "'",
                              SourceLocation{spec.file, 0, 0, {}, {}},
                              {"arrays and tags it has: " + known});
        }
    auto kept = [&](const Expr& ref) {
        return std::find(keep.begin(), keep.end(), ref.name) != keep.end() ||
               (!ref.tag.empty() && std::find(keep.begin(), keep.end(), ref.tag) != keep.end());
    };
    const std::vector<std::string> threads = thread_indices(spec);
    const std::string read = unique_name(spec, "read_tgt");
    std::vector<StatementSpec> statements;
    std::vector<kernel::DataType> load_types, store_types;
    // Position (in `statements`) of the last kept load and the last kept store.
    size_t last_load = 0, last_store = 0;
    // Algorithm 3: "Insert statement initializing local var. tgt_read = 0".
    statements.push_back(compute_statement("read_init", read + " = 0", {}, ""));
    for (size_t s = 0; s < spec.statements.size(); ++s) {
        const StatementSpec& statement = spec.statements[s];
        if (statement.kind != StatementKind::compute)
            continue; // barriers order on-chip work, which is gone
        std::string label = statement.id;
        if (label.empty())
            label = "s" + std::to_string(s);
        const kernel::Statement& parsed = statement.parsed;
        std::vector<std::string> reductions;
        std::vector<FoundLoad> loads;
        // The loads of S: its value's and compare's off-chip references, the target's
        // subscripts, and the target itself when S reads it (x op= y).
        if (parsed.compare)
            find_loads(spec, *parsed.compare, reductions, loads);
        if (parsed.value)
            find_loads(spec, *parsed.value, reductions, loads);
        for (const auto& subscript : parsed.target->operands)
            find_loads(spec, *subscript, reductions, loads);
        const bool target_off_chip = is_off_chip(spec.find_array(parsed.target->name));
        if (target_off_chip && parsed.op != kernel::AssignOp::assign && !parsed.atomic)
            loads.push_back({parsed.target.get(), {}});
        int count = 0;
        for (const auto& load : loads) {
            if (!kept(*load.ref))
                continue;
            // "Insert statement tgt_read = tgt_read + g_ld" in S's loops.
            statements.push_back(
                compute_statement(label + "_read" + (count ? std::to_string(count) : ""),
                                  read + " = " + read + " + " + kernel::to_string(*load.ref),
                                  loops_of(spec, statement, load.reduction_indices, threads),
                                  statement.condition_text));
            load_types.push_back(spec.find_array(load.ref->name)->dtype);
            last_load = statements.size();
            ++count;
        }
        if (target_off_chip && kept(*parsed.target)) {
            // "Insert statement g_st = tgt_read."
            statements.push_back(compute_statement(
                label + "_store", kept_store_text(parsed, kernel::to_string(*parsed.target), read),
                loops_of(spec, statement, {}, threads), statement.condition_text));
            store_types.push_back(spec.find_array(parsed.target->name)->dtype);
            last_store = statements.size();
        }
    }

    KernelSpec result = spec;
    result.name = spec.name + "_keep";
    for (const auto& name : keep)
        result.name += "_" + name;
    result.description = "work removed from " + spec.name + " (Stevens & Klöckner Algorithm 3)";
    result.file.clear();
    result.arrays = referenced_arrays(spec, statements);
    ArrayDecl read_decl;
    read_decl.name = read;
    read_decl.dtype = read_type(load_types, store_types);
    read_decl.space = MemorySpace::private_;
    result.arrays.push_back(read_decl);
    if (last_store == 0 || last_load > last_store) {
        // "If tgt_read is never written to global memory" (here: not after its last
        // update), "create new global variable tgt_read_dest with one entry per work-item"
        // and store tgt_read into it after everything that modifies it.
        const ArrayDecl sink = sink_array(spec, unique_name(spec, read + "_dest"), read_decl.dtype);
        result.arrays.push_back(sink);
        statements.push_back(compute_statement(
            "sink", sink.name + "[" + sink_subscripts(spec) + "] = " + read, {}, ""));
    }
    result.statements = statements;
    return reparse_generated(kernel::write_kernel_yaml(result), result.name);
}

} // namespace kerncast::uipick
