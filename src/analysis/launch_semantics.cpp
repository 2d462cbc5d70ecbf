#include "kerncast/analysis/launch_semantics.hpp"

#include "access_elements.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>
#include <set>

namespace kerncast::analysis {

namespace {

using kernel::Expr;
using kernel::ExprKind;

using kernel::collect_launch_names;

// Each array reference of `e` (by its text, as AccessInfo::text) -> the launch names its
// subscripts use.
void collect_reference_names(const Expr& e, std::map<std::string, std::set<std::string>>& refs) {
    if (e.kind == ExprKind::array_ref) {
        std::set<std::string>& names = refs[kernel::to_string(e)];
        for (const kernel::ExprPtr& subscript : e.operands)
            if (subscript)
                collect_launch_names(*subscript, names);
    }
    for (const kernel::ExprPtr& operand : e.operands)
        if (operand)
            collect_reference_names(*operand, refs);
}

int axis_of(const std::string& launch_name) {
    return launch_name[1] - 'x';
}

std::string launch_text(const kernel::LaunchConfig& launch) {
    return fmt::format("block {}x{}x{}, fold {}", launch.block[0], launch.block[1], launch.block[2],
                       kernel::fold_text(launch));
}

// Whether the fold instances along `axis` differ between the two launches: another fold, or a
// fold over one point placed otherwise.
bool refolded(const kernel::LaunchConfig& a, const kernel::LaunchConfig& b, int axis) {
    const size_t k = static_cast<size_t>(axis);
    return a.fold[k] != b.fold[k] || (a.fold[k] > 1 && a.fold_placement != b.fold_placement);
}

// The relation domain point -> element of `access` over the whole launch, at `bound`'s values:
// a set over the kernel's thread-mapped indices, the sequential indices the access runs over,
// then the subscripts.
::isl::set point_elements(isl::Context& ctx, const KernelAnalysis& analysis,
                          const AccessInfo& access, const kernel::BoundKernel& bound,
                          std::vector<std::string>& index_names) {
    std::vector<std::string> outputs;
    index_names.clear();
    for (const std::string& index : analysis.spec.indices) {
        const auto form = analysis.index_forms.find(index);
        if (form == analysis.index_forms.end())
            continue;
        bool over_access = true;
        for (const auto& [name, c] : form->second.coefficients)
            if (!bound.find_value(name) &&
                std::find(access.domain_variables.begin(), access.domain_variables.end(), name) ==
                    access.domain_variables.end())
                over_access = false;
        if (!over_access || form->second.is_constant())
            continue;
        index_names.push_back(index);
        outputs.push_back(detail::affine_text(form->second, bound));
    }
    for (const kernel::AffineForm& s : access.subscripts)
        outputs.push_back(detail::affine_text(s, bound));
    const ::isl::map map = isl::parse_map(ctx, fmt::format("{{ [{}] -> [{}] }}",
                                                           fmt::join(access.domain_variables, ", "),
                                                           fmt::join(outputs, ", ")));
    const ::isl::set iterations = detail::launch_iterations(ctx, analysis, access, bound.values());
    return isl::checked("points and elements", [&] { return iterations.apply(map); });
}

class LaunchSemantics {
public:
    LaunchSemantics(const KernelAnalysis& analysis, const kernel::BoundKernel& bound)
        : analysis_(analysis), bound_(bound), file_launch_(analysis.spec.launch) {}

    void check() {
        const kernel::KernelSpec& spec = analysis_.spec;
        std::vector<std::vector<const AccessInfo*>> accesses_of(spec.statements.size());
        for (const AccessInfo& access : analysis_.accesses)
            if (access.statement >= 0 && static_cast<size_t>(access.statement) < accesses_of.size())
                accesses_of[static_cast<size_t>(access.statement)].push_back(&access);
        for (size_t k = 0; k < spec.statements.size(); ++k) {
            const kernel::StatementSpec& statement = spec.statements[k];
            if (statement.kind != kernel::StatementKind::compute)
                continue;
            std::set<std::string> guard_names;
            if (statement.condition)
                collect_launch_names(*statement.condition, guard_names);
            std::map<std::string, std::set<std::string>> refs;
            for (const kernel::ExprPtr& e :
                 {statement.parsed.target, statement.parsed.value, statement.parsed.compare})
                if (e)
                    collect_reference_names(*e, refs);
            for (const AccessInfo* each : accesses_of[k]) {
                const AccessInfo& access = *each;
                std::set<std::string> names = guard_names;
                subscript_names_.clear();
                if (const auto ref = refs.find(access.text); ref != refs.end()) {
                    names.insert(ref->second.begin(), ref->second.end());
                    subscript_names_ = ref->second;
                }
                check_access(access, names, statement);
            }
        }
    }

private:
    bool changed(int axis) const {
        const size_t a = static_cast<size_t>(axis);
        if (analysis_.spec.threads.global[a].empty())
            return false; // blocks:/locals: fix the launch along this axis
        return analysis_.launch.block[a] != file_launch_.block[a] ||
               refolded(analysis_.launch, file_launch_, axis);
    }

    void check_access(const AccessInfo& access, const std::set<std::string>& names,
                      const kernel::StatementSpec& statement) {
        std::optional<std::string> changed_name, refolded_name;
        for (const std::string& name : names)
            if (changed(axis_of(name))) {
                changed_name = changed_name ? changed_name : name;
                if (refolded(analysis_.launch, file_launch_, axis_of(name)) && !refolded_name)
                    refolded_name = name;
            }
        if (!changed_name)
            return;
        if (access.space == kernel::MemorySpace::shared) {
            if (refolded_name)
                refuse_shared(access, *refolded_name, statement);
            return; // other block sizes: the shared-array check (shared_arrays.hpp)
        }
        if (access.indirect || (access.space != kernel::MemorySpace::global &&
                                access.space != kernel::MemorySpace::constant))
            return;
        compare_with_file_launch(access, *changed_name, statement);
    }

    [[noreturn]] void refuse_shared(const AccessInfo& access, const std::string& name,
                                    const kernel::StatementSpec& statement) const {
        const size_t a = static_cast<size_t>(axis_of(name));
        throw_input_error(
            fmt::format("launch {} would change what kernel '{}' computes: the shared subscript "
                        "'{}' names '{}', and with fold {} along {} each thread runs {} points "
                        "that reuse the shared elements the kernel file's launch ({}) gives to "
                        "separate threads; kerncast folds a kernel only along axes its shared "
                        "subscripts do not name",
                        launch_text(analysis_.launch), analysis_.spec.name, access.text, name,
                        analysis_.launch.fold[a], kernel::axis_name(axis_of(name)),
                        analysis_.launch.fold[a], launch_text(file_launch_)),
            statement.where);
    }

    void compare_with_file_launch(const AccessInfo& access, const std::string& name,
                                  const kernel::StatementSpec& statement) {
        if (!file_analysis_) {
            try {
                file_analysis_ = analyze(analysis_.spec, file_launch_, analysis_.options);
            } catch (const Error& error) { // nothing to compare with: not provably the same
                throw_input_error(
                    fmt::format("launch {} may change what kernel '{}' computes: '{}' names '{}', "
                                "and the kernel file's own launch ({}), which it would be "
                                "compared with, cannot be analysed: {}",
                                launch_text(analysis_.launch), analysis_.spec.name, access.text,
                                name, launch_text(file_launch_), error.message()),
                    statement.where);
            }
        }
        const AccessInfo* file_access = nullptr;
        for (const AccessInfo& candidate : file_analysis_->accesses)
            if (candidate.statement == access.statement && candidate.text == access.text &&
                candidate.direction == access.direction && !file_access)
                file_access = &candidate;
        if (!file_access)
            return;
        isl::Context ctx;
        std::vector<std::string> indices, file_indices;
        const ::isl::set here = point_elements(ctx, analysis_, access, bound_, indices);
        const ::isl::set there =
            point_elements(ctx, *file_analysis_, *file_access, bound_, file_indices);
        if (indices != file_indices || here.is_equal(there))
            return;
        const ::isl::set only_here = here.subtract(there);
        const bool witness_here = !only_here.is_empty();
        const std::vector<std::string> point =
            split(detail::first_point(witness_here ? only_here : there.subtract(here)));
        std::vector<std::string> assignment;
        for (size_t k = 0; k < indices.size(); ++k)
            assignment.push_back(indices[k] + " = " + point[k]);
        const std::vector<std::string> element(point.begin() + static_cast<long>(indices.size()),
                                               point.end());
        const char* verb = access.direction == Direction::load ? "reads" : "writes";
        const std::string here_text = "this launch";
        const std::string there_text =
            fmt::format("the kernel file's launch ({})", launch_text(file_launch_));
        throw_input_error(
            fmt::format("launch {} would change what kernel '{}' computes: {}, and the point {} "
                        "{} {}[{}] at {} but not at {}; kerncast runs a kernel that names launch "
                        "indices only where each such access reaches the elements it reaches at "
                        "the kernel file's launch",
                        launch_text(analysis_.launch), analysis_.spec.name, who_names(access, name),
                        fmt::join(assignment, ", "), verb, access.array, fmt::join(element, ", "),
                        witness_here ? here_text : there_text,
                        witness_here ? there_text : here_text),
            statement.where);
    }

    static std::vector<std::string> split(const std::string& joined) {
        std::vector<std::string> parts;
        size_t start = 0;
        while (start <= joined.size()) {
            const size_t comma = joined.find(", ", start);
            parts.push_back(joined.substr(start, comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 2;
        }
        return parts;
    }

    // "'b[32*bx + ty]' names 'ty'" or "the `where` of 'amax[0]' names 'tx'".
    std::string who_names(const AccessInfo& access, const std::string& name) const {
        return subscript_names_.count(name)
                   ? fmt::format("'{}' names '{}'", access.text, name)
                   : fmt::format("the `where` of '{}' names '{}'", access.text, name);
    }

    const KernelAnalysis& analysis_;
    const kernel::BoundKernel& bound_;
    std::set<std::string> subscript_names_; // of the access being checked
    const kernel::LaunchConfig file_launch_;
    std::optional<KernelAnalysis> file_analysis_;
};

} // namespace

void check_launch_semantics(const KernelAnalysis& analysis, const kernel::BoundKernel& bound) {
    try {
        LaunchSemantics(analysis, bound).check();
    } catch (const isl::IslError&) {
        // Sets isl cannot form: not checked (as the shared-array check).
    } catch (const ::isl::exception&) {
    }
}

} // namespace kerncast::analysis
