#include "kerncast/analysis/array_bounds.hpp"

#include "access_elements.hpp"
#include "kerncast/error.hpp"
#include "kerncast/sha256.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <mutex>
#include <set>

namespace kerncast::analysis {

namespace {

// What the accesses of one bind share: the statements' domains (every access of a statement
// has its statement's) and the arrays' boxes, parsed once each (parsing dominates the check).
struct Parsed {
    std::map<std::string, ::isl::set> iterations; // by AccessInfo::domain text
    std::map<std::string, ::isl::set> boxes;      // by array
};

void check_access(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                  const kernel::BoundKernel& bound, Parsed& parsed) {
    const std::vector<std::int64_t>& extents = bound.extents(access.array);
    auto domain = parsed.iterations.find(access.domain);
    if (domain == parsed.iterations.end())
        domain = parsed.iterations
                     .emplace(access.domain,
                              detail::launch_iterations(ctx, analysis, access, bound.values()))
                     .first;
    const ::isl::set& iterations = domain->second;
    auto box = parsed.boxes.find(access.array);
    if (box == parsed.boxes.end())
        box = parsed.boxes.emplace(access.array, detail::extents_box(ctx, extents)).first;
    const ::isl::map elements = detail::element_map(ctx, access, bound);
    const ::isl::set outside = isl::checked("array elements outside the extents", [&] {
        return iterations.apply(elements).subtract(box->second);
    });
    if (outside.is_empty())
        return;
    const std::string element = detail::first_point(outside);
    const ::isl::set reaching = isl::checked("iterations reaching outside", [&] {
        return iterations.intersect(
            elements.intersect_range(isl::parse_set(ctx, "{ [" + element + "] }")).domain());
    });
    const std::string iteration =
        detail::iteration_text(analysis, access, bound, reaching.lexmin().sample_point());
    const char* verb = access.direction == Direction::load    ? "reads"
                       : access.direction == Direction::store ? "writes"
                                                              : "updates";
    const kernel::StatementSpec& statement =
        analysis.spec.statements[static_cast<size_t>(access.statement)];
    throw_input_error(
        fmt::format("kernel '{}': '{}' {} {}[{}], outside the array's extents [{}]{}{}; "
                    "kerncast forecasts only kernels whose accesses stay inside their arrays "
                    "(a domain without the halo? extents too small?)",
                    analysis.spec.name, access.text, verb, access.array, element,
                    fmt::join(extents, ", "), iteration.empty() ? "" : " at ", iteration),
        statement.where);
}

// An access of a statement that names no launch index touches the same elements at every launch
// (its points map to threads by the `threads:` formula, which keeps them), so its check holds
// for the kernel and parameter values whatever the block and fold: `explore` binds every
// configuration, and checks those accesses once. The key is a digest of everything that decides
// those elements: the kernel's domain, arrays and statements, and the parameter values.
std::string launch_independent_key(const kernel::KernelSpec& spec,
                                   const kernel::BoundKernel& bound) {
    std::string text = spec.file + '\n' + spec.name + '\n' + spec.domain + '\n';
    for (const kernel::ArrayDecl& array : spec.arrays) {
        text += array.name + ' ' + kernel::memory_space_name(array.space);
        for (const kernel::ExprPtr& extent : array.shape)
            text += ' ' + kernel::to_string(*extent);
        text += '\n';
    }
    for (const kernel::StatementSpec& statement : spec.statements) {
        text += statement.text + " | " + statement.condition_text;
        for (const std::string& index : statement.within)
            text += ' ' + index;
        text += '\n';
    }
    for (const auto& [name, value] : bound.named_values())
        text += name + '=' + std::to_string(value) + '\n';
    return sha256_hex(text);
}

// Keys whose launch-independent accesses stay inside their arrays (bounded; a full set starts
// over).
class CheckedKernels {
public:
    bool contains(const std::string& key) {
        const std::lock_guard<std::mutex> lock(mutex_);
        return keys_.count(key) > 0;
    }
    void insert(const std::string& key) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (keys_.size() >= 4096)
            keys_.clear();
        keys_.insert(key);
    }

private:
    std::mutex mutex_;
    std::set<std::string> keys_;
};

CheckedKernels& checked_kernels() {
    static CheckedKernels kernels;
    return kernels;
}

} // namespace

void check_global_bounds(const KernelAnalysis& analysis, const kernel::BoundKernel& bound) {
    isl::Context ctx;
    Parsed parsed;
    const std::string key = launch_independent_key(analysis.spec, bound);
    const bool independent_checked = checked_kernels().contains(key);
    std::map<int, bool> statement_names_launch; // by statement index
    const auto names_launch = [&](int statement) {
        const auto [at, added] = statement_names_launch.try_emplace(statement, false);
        if (added)
            at->second =
                kernel::names_launch(analysis.spec.statements[static_cast<size_t>(statement)]);
        return at->second;
    };
    for (const AccessInfo& access : analysis.accesses) {
        if (access.indirect || access.subscripts.empty() ||
            (access.space != kernel::MemorySpace::global &&
             access.space != kernel::MemorySpace::constant))
            continue;
        if (independent_checked && !names_launch(access.statement))
            continue;
        try {
            check_access(ctx, analysis, access, bound, parsed);
        } catch (const isl::IslError&) {
            // A set isl cannot form: not checked rather than stopping the command (as the
            // shared-array check).
        } catch (const ::isl::exception&) {
        }
    }
    if (!independent_checked) // every access inside (a refusal throws before this)
        checked_kernels().insert(key);
}

} // namespace kerncast::analysis
