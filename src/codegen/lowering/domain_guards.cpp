// The kernel domain at fixed parameters through isl's C++ binding (isl/cpp.h): value semantics,
// ::isl::exception on failure, turned into kerncast::isl::IslError with the text
// "<what the lowering was doing>: <isl's message>" that callers have always seen.
#include "domain_guards.hpp"

#include "../../support/isl_support.hpp"
#include "../expr_build.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <isl/cpp.h>
#include <map>
#include <regex>

namespace kerncast::codegen::lowering {

using kernel::BinaryOp;
using kernel::ExprPtr;
using namespace detail;

namespace {

// isl's message without the "file:line: " of isl's own source that the binding puts first.
std::string isl_message(const ::isl::exception& error) {
    static const std::regex source_position("^[^:]*:[0-9]+: ");
    return std::regex_replace(error.what(), source_position, "",
                              std::regex_constants::format_first_only);
}

// Runs `step`, turning isl's exceptions into IslError("<what>: <isl's message>").
template <class Step> auto isl_step(const char* what, Step step) {
    try {
        return step();
    } catch (const ::isl::exception& error) {
        throw kerncast::isl::IslError(std::string(what) + ": " + isl_message(error));
    }
}

std::int64_t to_int64(const ::isl::val& value) {
    return kerncast::isl::to_int64(value.get());
}

// isl AST expression -> kernel-language expression (integer `/` is floor division and `%` is
// non-negative in the kernel language, which covers isl's fdiv_q, pdiv_q, pdiv_r, zdiv_r).
ExprPtr from_isl_operation(const ::isl::ast_expr_op& op);

ExprPtr from_isl(const ::isl::ast_expr& expr) {
    if (expr.isa<::isl::ast_expr_int>())
        return make_integer(to_int64(expr.as<::isl::ast_expr_int>().val()));
    if (expr.isa<::isl::ast_expr_id>())
        return make_variable(expr.as<::isl::ast_expr_id>().id().name());
    if (!expr.isa<::isl::ast_expr_op>())
        throw kerncast::isl::IslError("unexpected isl AST expression");
    return from_isl_operation(expr.as<::isl::ast_expr_op>());
}

ExprPtr from_isl_operation(const ::isl::ast_expr_op& op) {
    std::vector<ExprPtr> args;
    for (unsigned k = 0; k < op.n_arg(); ++k)
        args.push_back(from_isl(op.arg(static_cast<int>(k))));
    auto fold = [&](auto combine) {
        ExprPtr result = args.at(0);
        for (size_t k = 1; k < args.size(); ++k)
            result = combine(result, args[k]);
        return result;
    };
    auto binary = [&](BinaryOp binary_op) {
        return fold([&](ExprPtr a, ExprPtr b) { return make_binary(binary_op, a, b); });
    };
    auto call = [&](const char* name) {
        return fold([&](ExprPtr a, ExprPtr b) { return make_call(name, {a, b}); });
    };
    if (op.isa<::isl::ast_expr_op_and>() || op.isa<::isl::ast_expr_op_and_then>())
        return binary(BinaryOp::logical_and);
    if (op.isa<::isl::ast_expr_op_or>() || op.isa<::isl::ast_expr_op_or_else>())
        return binary(BinaryOp::logical_or);
    if (op.isa<::isl::ast_expr_op_max>())
        return call("max");
    if (op.isa<::isl::ast_expr_op_min>())
        return call("min");
    if (op.isa<::isl::ast_expr_op_minus>())
        return make_negate(args.at(0));
    if (op.isa<::isl::ast_expr_op_add>())
        return binary(BinaryOp::add);
    if (op.isa<::isl::ast_expr_op_sub>())
        return binary(BinaryOp::sub);
    if (op.isa<::isl::ast_expr_op_mul>())
        return binary(BinaryOp::mul);
    if (op.isa<::isl::ast_expr_op_div>() || op.isa<::isl::ast_expr_op_fdiv_q>() ||
        op.isa<::isl::ast_expr_op_pdiv_q>())
        return binary(BinaryOp::div);
    if (op.isa<::isl::ast_expr_op_pdiv_r>() || op.isa<::isl::ast_expr_op_zdiv_r>())
        return binary(BinaryOp::mod);
    if (op.isa<::isl::ast_expr_op_cond>() || op.isa<::isl::ast_expr_op_select>())
        return make_conditional(args.at(0), args.at(1), args.at(2));
    if (op.isa<::isl::ast_expr_op_eq>())
        return binary(BinaryOp::equal);
    if (op.isa<::isl::ast_expr_op_le>())
        return binary(BinaryOp::less_equal);
    if (op.isa<::isl::ast_expr_op_lt>())
        return binary(BinaryOp::less);
    if (op.isa<::isl::ast_expr_op_ge>())
        return binary(BinaryOp::greater_equal);
    if (op.isa<::isl::ast_expr_op_gt>())
        return binary(BinaryOp::greater);
    throw kerncast::isl::IslError("unexpected isl AST operation");
}

// Set dimension `position` projected out (the binding has no positional projection; this calls
// isl's C function on a copy).
::isl::set project_out_dim(const ::isl::set& set, unsigned position) {
    return ::isl::manage(isl_set_project_out(set.copy(), isl_dim_set, position, 1));
}

} // namespace

struct DomainGuards::State {
    kerncast::isl::Context ctx; // sets ISL_ON_ERROR_CONTINUE, as the binding needs
    std::vector<std::string> indices;
    ::isl::set domain;
    bool empty = false;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> known;

    ::isl::set read(const std::string& text) { return ::isl::set(::isl::ctx(ctx.get()), text); }

    // The domain with only the indices of `keep` left (in domain order).
    ::isl::set project_onto(const std::set<std::string>& keep) const {
        ::isl::set set = domain;
        for (size_t k = indices.size(); k-- > 0;)
            if (!keep.count(indices[k]))
                set = project_out_dim(set, static_cast<unsigned>(k));
        return set;
    }
};

DomainGuards::DomainGuards(const kernel::KernelSpec& spec,
                           const std::vector<std::pair<std::string, std::int64_t>>& params)
    : state_(std::make_unique<State>()) {
    state_->indices = spec.indices;
    isl_step("fixing the kernel parameters", [&] {
        // The kernel reader has parsed this text already (and reported its errors).
        ::isl::set domain = state_->read(spec.domain);
        std::vector<std::string> names, values;
        for (const auto& [name, value] : params) {
            names.push_back(name);
            values.push_back(fmt::format("{} = {}", name, value));
        }
        if (!names.empty())
            domain = domain.intersect_params(state_->read(fmt::format(
                "[{}] -> {{ : {} }}", fmt::join(names, ", "), fmt::join(values, " and "))));
        state_->domain = domain.project_out_all_params();
        state_->empty = state_->domain.is_empty();
    });
}

DomainGuards::~DomainGuards() = default;

bool DomainGuards::empty() const {
    return state_->empty;
}

std::pair<std::int64_t, std::int64_t> DomainGuards::range(const std::string& index) {
    return isl_step("reading a bound", [&] {
        const ::isl::set set = state_->project_onto({index});
        return std::pair{to_int64(set.dim_min_val(0)), to_int64(set.dim_max_val(0))};
    });
}

void DomainGuards::know(const std::string& index, std::int64_t lower, std::int64_t upper) {
    state_->known[index] = {lower, upper};
}

ExprPtr DomainGuards::guard(const std::set<std::string>& keep) {
    return isl_step("simplifying a guard", [&]() -> ExprPtr {
        const ::isl::ctx ctx(state_->ctx.get());
        // The kept indices become parameters named after them.
        std::vector<std::string> kept;
        for (const auto& index : state_->indices)
            if (keep.count(index))
                kept.push_back(index);
        ::isl::id_list ids(ctx, static_cast<int>(kept.size()));
        for (const auto& name : kept)
            ids = ids.add(::isl::id(ctx, name));
        ::isl::set set = state_->project_onto(keep);
        set = set.bind(::isl::multi_id(set.space(), ids));
        // The context: the known ranges first (in name order), then the other kept indices.
        std::vector<std::string> params, facts;
        for (const auto& index : keep)
            if (auto it = state_->known.find(index); it != state_->known.end()) {
                params.push_back(index);
                facts.push_back(
                    fmt::format("{} <= {} <= {}", it->second.first, index, it->second.second));
            }
        for (const auto& index : kept)
            if (!state_->known.count(index))
                params.push_back(index);
        const ::isl::set context = state_->read(fmt::format(
            "[{}] -> {{ : {} }}", fmt::join(params, ", "),
            facts.empty() ? std::string("true") : fmt::format("{}", fmt::join(facts, " and "))));
        set = set.gist(context);
        // "Plainly" universe (no constraints left): the binding has no plain_is_universe.
        if (isl_set_plain_is_universe(set.get()) == isl_bool_true)
            return nullptr;
        if (set.is_empty())
            return make_integer(0);
        return from_isl(::isl::ast_build::from_context(context).expr_from(set));
    });
}

} // namespace kerncast::codegen::lowering
