#include "kerncast/analysis/shared_arrays.hpp"

#include "../support/isl_support.hpp"
#include "access_elements.hpp"
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>
#include <set>

namespace kerncast::analysis {

namespace {

// The iterations of each access in block 0 (sets over its domain variables), computed once per
// domain: a statement's accesses share it (the staged reads of a tile are most of a staged
// kernel's accesses).
class BlockIterations {
public:
    BlockIterations(isl::Context& ctx, const KernelAnalysis& analysis,
                    const kernel::BoundKernel& bound)
        : ctx_(ctx), analysis_(analysis), bound_(bound), block_(whole_block(analysis)) {}

    const ::isl::set& of(const AccessInfo& access) {
        const std::string key =
            access.domain + '|' + fmt::format("{}", fmt::join(access.domain_variables, ","));
        auto at = by_domain_.find(key);
        if (at == by_domain_.end())
            at = by_domain_
                     .emplace(key, detail::group_domain(ctx_, analysis_, access, bound_.values(),
                                                        block_))
                     .first;
        return at->second;
    }

private:
    isl::Context& ctx_;
    const KernelAnalysis& analysis_;
    const kernel::BoundKernel& bound_;
    const ThreadGroup block_;
    std::map<std::string, ::isl::set> by_domain_;
};

// "launch block 1x1x1 cannot run kernel 'k': in block 0, " + what + " (a tile written ...)".
// When the launch is the kernel file's own, the kernel itself is wrong and no other block size
// is suggested.
[[noreturn]] void refuse(const KernelAnalysis& analysis, const std::string& what) {
    const kernel::KernelSpec& spec = analysis.spec;
    const auto& block = analysis.launch.block;
    const auto& file_block = spec.launch.block;
    const std::string hint =
        block == file_block
            ? std::string("the kernel file's own block size")
            : fmt::format("a tile written for another block size? the kernel file's launch is "
                          "block {}x{}x{}",
                          file_block[0], file_block[1], file_block[2]);
    throw_input_error(fmt::format("launch block {}x{}x{} cannot run kernel '{}': in block 0, {} "
                                  "({})",
                                  block[0], block[1], block[2], spec.name, what, hint),
                      SourceLocation{spec.file, 0, 0, {}, {}});
}

// Whether a barrier statement lies between statements `first` and `second` (first < second).
bool barrier_between(const kernel::KernelSpec& spec, int first, int second) {
    for (int k = first + 1; k < second; ++k)
        if (spec.statements[static_cast<size_t>(k)].kind == kernel::StatementKind::barrier)
            return true;
    return false;
}

// The launch variables both accesses run over whose values must agree for two of their
// executions to fall in one barrier phase: the sequential loops a barrier sits in (another
// iteration is after that barrier), and the fold indices when the kernel has a barrier (the
// generated code separates fold instances with one, docs/codegen.md, Folding).
std::vector<std::string> phase_variables(const KernelAnalysis& analysis, const AccessInfo& a,
                                         const AccessInfo& b) {
    std::set<std::string> barrier_loops;
    bool any_barrier = false;
    for (const kernel::StatementSpec& statement : analysis.spec.statements)
        if (statement.kind == kernel::StatementKind::barrier) {
            any_barrier = true;
            barrier_loops.insert(statement.within.begin(), statement.within.end());
        }
    std::vector<std::string> shared;
    for (const LaunchVariable& v : analysis.variables) {
        const bool in_both =
            std::count(a.domain_variables.begin(), a.domain_variables.end(), v.name) &&
            std::count(b.domain_variables.begin(), b.domain_variables.end(), v.name);
        if (in_both &&
            ((v.kind == LaunchVariable::Kind::sequential && barrier_loops.count(v.name)) ||
             (v.kind == LaunchVariable::Kind::fold && any_barrier)))
            shared.push_back(v.name);
    }
    return shared;
}

// Threads (tx, ty, tz) of one execution, from a sample point of the pair relation: "(0, 1, 0)".
std::string thread_of(const KernelAnalysis& analysis, const AccessInfo& access,
                      const ::isl::point& point, int first_coordinate) {
    std::vector<std::int64_t> thread{0, 0, 0};
    for (size_t k = 0; k < access.domain_variables.size(); ++k)
        for (const LaunchVariable& v : analysis.variables)
            if (v.name == access.domain_variables[k] && v.kind == LaunchVariable::Kind::thread)
                thread[static_cast<size_t>(v.axis)] =
                    isl::to_int64(isl::coordinate(point, first_coordinate + static_cast<int>(k)));
    return fmt::format("({})", fmt::join(thread, ", "));
}

// Whether every thread computes the same value in `e`: numbers and parameters only.
bool thread_invariant(const kernel::Expr& e, const kernel::KernelSpec& spec) {
    if (e.kind == kernel::ExprKind::array_ref || e.kind == kernel::ExprKind::reduction)
        return false;
    if (e.kind == kernel::ExprKind::variable &&
        std::none_of(spec.params.begin(), spec.params.end(),
                     [&](const kernel::Parameter& p) { return p.name == e.name; }))
        return false;
    for (const kernel::ExprPtr& operand : e.operands)
        if (operand && !thread_invariant(*operand, spec))
            return false;
    return true;
}

// A plain assignment of a value every thread computes alike (`flag[0] = 1`): threads that
// write it together leave the same value whatever their order, so it is no race.
bool stores_one_value(const KernelAnalysis& analysis, const AccessInfo& access) {
    const kernel::StatementSpec& statement =
        analysis.spec.statements[static_cast<size_t>(access.statement)];
    return statement.parsed.op == kernel::AssignOp::assign && !statement.parsed.atomic &&
           statement.parsed.value && thread_invariant(*statement.parsed.value, analysis.spec);
}

// Two plain stores to one shared element by different threads of block 0 in one barrier phase
// (no barrier between them): which value stays depends on the order the threads run in, a
// write-write race. Atomics are not races; executions in different phases are ordered.
// `iterations[k]`: block 0's iterations of accesses[k].
void check_write_races(isl::Context& ctx, const KernelAnalysis& analysis,
                       const kernel::BoundKernel& bound,
                       const std::vector<const AccessInfo*>& accesses,
                       const std::vector<::isl::set>& iterations) {
    for (size_t i = 0; i < accesses.size(); ++i)
        for (size_t j = i; j < accesses.size(); ++j) {
            const AccessInfo& a = *accesses[i];
            const AccessInfo& b = *accesses[j];
            if (a.direction != Direction::store || b.direction != Direction::store)
                continue;
            if (stores_one_value(analysis, a) && stores_one_value(analysis, b) &&
                a.statement == b.statement)
                continue;
            const int first = std::min(a.statement, b.statement);
            const int second = std::max(a.statement, b.statement);
            if (barrier_between(analysis.spec, first, second))
                continue;
            std::vector<std::string> a_names, b_names, conditions, other_thread;
            for (const std::string& v : a.domain_variables)
                a_names.push_back("a_" + v);
            for (const std::string& v : b.domain_variables)
                b_names.push_back("b_" + v);
            for (size_t d = 0; d < a.subscripts.size(); ++d)
                conditions.push_back(detail::affine_text(a.subscripts[d], bound, "a_") + " = " +
                                     detail::affine_text(b.subscripts[d], bound, "b_"));
            for (const std::string& v : phase_variables(analysis, a, b))
                conditions.push_back("a_" + v + " = b_" + v);
            for (const LaunchVariable& v : analysis.variables)
                if (v.kind == LaunchVariable::Kind::thread)
                    other_thread.push_back(fmt::format("a_{0} < b_{0} or a_{0} > b_{0}", v.name));
            if (other_thread.empty())
                continue; // one thread a block
            conditions.push_back("(" + fmt::format("{}", fmt::join(other_thread, " or ")) + ")");
            const ::isl::map pairs = isl::parse_map(
                ctx, fmt::format("{{ [{}] -> [{}] : {} }}", fmt::join(a_names, ", "),
                                 fmt::join(b_names, ", "), fmt::join(conditions, " and ")));
            const ::isl::set racing = isl::checked("shared-memory write pairs", [&] {
                return pairs.intersect_domain(iterations[i]).intersect_range(iterations[j]).wrap();
            });
            if (racing.is_empty())
                continue;
            const ::isl::point point = racing.lexmin().sample_point();
            const ::isl::set a_first =
                isl::checked("a racing write", [&] { return ::isl::set(point).unwrap().domain(); });
            const std::string element =
                detail::first_point(a_first.apply(detail::element_map(ctx, a, bound)));
            refuse(analysis,
                   fmt::format("threads (tx, ty, tz) = {} and {} both write {}[{}] in one barrier "
                               "phase ('{}' and '{}'): a write-write race on shared memory",
                               thread_of(analysis, a, point, 0),
                               thread_of(analysis, b, point, static_cast<int>(a_names.size())),
                               a.array, element, a.text, b.text));
        }
}

void check_shared_array(const KernelAnalysis& analysis, const kernel::BoundKernel& bound,
                        const kernel::ArrayDecl& array) {
    std::vector<const AccessInfo*> accesses;
    for (const AccessInfo& access : analysis.accesses) {
        if (access.array != array.name)
            continue;
        if (access.indirect)
            return; // a data-dependent subscript: no footprint to check
        accesses.push_back(&access);
    }
    if (accesses.empty())
        return;
    isl::Context ctx;
    const std::vector<std::int64_t>& extents = bound.extents(array.name);
    const ::isl::set box = detail::extents_box(ctx, extents);
    std::vector<::isl::set> iterations, elements; // of accesses[k] in block 0
    std::optional<::isl::set> written, read;
    BlockIterations block_iterations(ctx, analysis, bound);
    for (const AccessInfo* access : accesses) {
        iterations.push_back(block_iterations.of(*access));
        elements.push_back(detail::touched_elements(iterations.back(), ctx, *access, bound));
        const ::isl::set outside = elements.back().subtract(box);
        if (!outside.is_empty())
            refuse(analysis, fmt::format("'{}' reaches {}[{}] outside the shared array's extents "
                                         "[{}]",
                                         access->text, array.name, detail::first_point(outside),
                                         fmt::join(extents, ", ")));
        if (access->direction != Direction::load) // stores and atomics write
            written = written ? written->unite(elements.back()) : elements.back();
        if (access->direction != Direction::store) // loads and atomics read
            read = read ? read->unite(elements.back()) : elements.back();
    }
    check_write_races(ctx, analysis, bound, accesses, iterations);
    if (!read)
        return;
    const ::isl::set unwritten = written ? read->subtract(*written) : *read;
    if (unwritten.is_empty())
        return;
    const std::string element = detail::first_point(unwritten);
    const ::isl::set single = isl::parse_set(ctx, "{ [" + element + "] }");
    for (size_t k = 0; k < accesses.size(); ++k)
        if (accesses[k]->direction != Direction::store && !elements[k].intersect(single).is_empty())
            refuse(analysis, fmt::format("'{}' reads {}[{}] of shared memory, which no statement "
                                         "of the block writes",
                                         accesses[k]->text, array.name, element));
}

} // namespace

void check_shared_arrays(const KernelAnalysis& analysis, const kernel::BoundKernel& bound) {
    for (const kernel::ArrayDecl& array : analysis.spec.arrays) {
        if (array.space != kernel::MemorySpace::shared || array.shape.empty())
            continue;
        try {
            check_shared_array(analysis, bound, array);
        } catch (const isl::IslError&) {
            // An array whose sets isl cannot form (the reader and the analysis reported what
            // they could) is not checked rather than stopping the command.
        } catch (const ::isl::exception&) {
            // The same, raised by the binding outside isl::checked.
        }
    }
}

} // namespace kerncast::analysis
