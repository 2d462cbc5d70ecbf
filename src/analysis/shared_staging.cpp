#include "kerncast/analysis/shared_staging.hpp"

#include "../support/isl_support.hpp"
#include "domain_bounds.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/staged_arrays.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <memory>
#include <optional>

namespace kerncast::analysis {

namespace {

using kernel::AffineForm;
using kernel::ArrayDecl;
using kernel::axis_count;
using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using kernel::KernelSpec;
using kernel::LaunchConfig;
using kernel::StatementKind;
using kernel::StatementSpec;

// threadIdx ('t') or the fold index ('f') along `axis`.
const char* launch_name(char kind, int axis) {
    static const char* names[2][3] = {{"tx", "ty", "tz"}, {"fx", "fy", "fz"}};
    return names[kind == 't' ? 0 : 1][axis];
}

AffineForm minus(AffineForm a, const AffineForm& b) {
    a += b.scaled(-1);
    return a;
}

// `form` as an operand of a binary operator: a name alone, anything else in parentheses
// (`(nx - 8) % 32`, not `nx - 8 % 32`).
std::string operand_text(const AffineForm& form) {
    const bool name = form.constant == 0 && form.coefficients.size() == 1 &&
                      form.coefficients.begin()->second == 1;
    return name ? form.to_string() : "(" + form.to_string() + ")";
}

AffineForm constant_form(std::int64_t value) {
    AffineForm form;
    form.constant = value;
    return form;
}

// Every reference to `name` in `e`.
void collect_reads(const Expr& e, const std::string& name, std::vector<const Expr*>& reads) {
    if (e.kind == ExprKind::array_ref && e.name == name)
        reads.push_back(&e);
    for (const ExprPtr& operand : e.operands)
        if (operand)
            collect_reads(*operand, name, reads);
}

struct StagedArray {
    std::string shared;           // the tile's name
    std::vector<AffineForm> lows; // per dimension: block 0's first element
    // per dimension: the coefficient of each axis's thread-mapped index in every read
    std::vector<std::array<std::int64_t, kernel::axis_count>> moves;
};

class Stager {
public:
    Stager(const KernelSpec& spec, const LaunchConfig& launch)
        : spec_(spec), launch_(launch), domain_(isl::thread_context().parsed_set(spec.domain)),
          params_(isl::dim_names(domain_, isl_dim_param)) {
        for (const std::string& name : spec.indices)
            taken_.push_back(name);
        for (const auto& param : spec.params)
            taken_.push_back(param.name);
        for (const auto& array : spec.arrays)
            taken_.push_back(array.name);
    }

    KernelSpec run() {
        KernelSpec result = spec_;
        result.launch = launch_;
        std::vector<StatementSpec> staging;
        bool checked_blocks = false;
        for (ArrayDecl& array : result.arrays) {
            if (!array.stage_in_shared)
                continue;
            array.stage_in_shared = false;
            if (reads_of(array).empty())
                continue; // declared, never read: nothing to stage
            if (!checked_blocks)
                check_whole_blocks(array, result);
            checked_blocks = true;
            staging.push_back(stage(array));
        }
        if (staging.empty())
            return result;
        result.arrays.insert(result.arrays.end(), tiles_.begin(), tiles_.end());
        StatementSpec barrier;
        barrier.kind = StatementKind::barrier;
        barrier.text = "barrier";
        barrier.where = staging.front().where;
        staging.push_back(barrier);
        for (const StatementSpec& statement : spec_.statements)
            staging.push_back(bounded(rewritten(statement)));
        result.statements = std::move(staging);
        result.domain = domain_text();
        if (!grid_domain_.is_null()) // the domain now reaches past the file's points
            result.points_domain = spec_.domain;
        result.indices.insert(result.indices.end(), loops_.begin(), loops_.end());
        return result;
    }

private:
    [[noreturn]] void refuse(const ArrayDecl& array, const std::string& why) const {
        throw_input_error(fmt::format("cannot stage '{}' in shared memory at block {}x{}x{}, "
                                      "fold {}: {}",
                                      array.name, launch_.block[0], launch_.block[1],
                                      launch_.block[2], kernel::fold_text(launch_), why),
                          array.stage_where);
    }

    int position(const std::string& index) const {
        const auto at = std::find(spec_.indices.begin(), spec_.indices.end(), index);
        return static_cast<int>(at - spec_.indices.begin());
    }

    AffineForm bound(const ArrayDecl& array, const std::string& index, bool maximum) const {
        if (auto form = detail::index_bound(domain_, position(index), maximum))
            return *form;
        refuse(array, "the " + std::string(maximum ? "upper" : "lower") + " bound of '" + index +
                          "' over the domain is not one affine expression in the parameters");
    }

    // Points one block covers along `axis`.
    std::int64_t block_points(int axis) const {
        const size_t a = static_cast<size_t>(axis);
        return launch_.block[a] * launch_.fold[a];
    }

    int axis_of(const std::string& index) const {
        for (int axis = 0; axis < axis_count; ++axis)
            if (spec_.threads.global[static_cast<size_t>(axis)] == index)
                return axis;
        return -1;
    }

    std::string unique(const std::string& base) {
        std::string name = base;
        for (int k = 2; std::find(taken_.begin(), taken_.end(), name) != taken_.end(); ++k)
            name = base + "_" + std::to_string(k);
        taken_.push_back(name);
        return name;
    }

    // Every thread of every block must run the staging, or the tile's elements a missing
    // thread would load stay unloaded: the thread-mapped indices must span a box; along an
    // axis its blocks do not tile (at the parameters' defaults for a parametric extent) the
    // domain is extended to whole blocks (whole_blocks_domain); a parametric extent the blocks
    // tile at the defaults becomes a requirement of the staged kernel, checked at binding.
    // Keeps each thread-mapped index's bounds (lower_, upper_).
    void check_whole_blocks(const ArrayDecl& array, KernelSpec& result) {
        std::vector<std::string> constraints;
        for (int axis = 0; axis < axis_count; ++axis) {
            const std::string& index = spec_.threads.global[static_cast<size_t>(axis)];
            if (index.empty())
                continue;
            const AffineForm low = bound(array, index, false), high = bound(array, index, true);
            lower_[static_cast<size_t>(axis)] = low;
            upper_[static_cast<size_t>(axis)] = high;
            constraints.push_back(low.to_string() + " <= " + index + " <= " + high.to_string());
            const std::int64_t points = block_points(axis);
            const AffineForm extent = minus(high, low) += constant_form(1);
            if (points == 1)
                continue;
            const std::string why = fmt::format(
                "along {} a block covers {} points (block {} x fold {}), which divide the "
                "number of values of '{}' ({}) at the parameters' defaults, so kerncast stages "
                "the tile for whole blocks only",
                kernel::axis_name(axis), points, launch_.block[static_cast<size_t>(axis)],
                launch_.fold[static_cast<size_t>(axis)], index,
                extent.is_constant() ? std::to_string(extent.constant) : extent.to_string());
            // Blocks that do not tile the axis (at the parameters' defaults where the extent is
            // a parameter): the domain is extended to whole blocks (whole_blocks_domain).
            if ((extent.is_constant() ? extent.constant : at_defaults(extent)) % points != 0) {
                partial_[static_cast<size_t>(axis)] = true;
                require_fold_within(array, axis, extent, result);
                continue;
            }
            if (extent.is_constant())
                continue;
            const std::string text =
                operand_text(extent) + " % " + std::to_string(points) + " == 0";
            result.requirements.push_back(
                {text, kernel::parse_expression(text),
                 "staging '" + array.name + "' in shared memory: " + why});
        }
        ::isl::set threads = domain_;
        for (int k = static_cast<int>(spec_.indices.size()) - 1; k >= 0; --k)
            if (axis_of(spec_.indices[static_cast<size_t>(k)]) < 0)
                threads = ::isl::manage(isl_set_project_out(threads.release(), isl_dim_set,
                                                            static_cast<unsigned>(k), 1));
        std::vector<std::string> ordered; // the projection keeps the domain's order
        for (const std::string& index : spec_.indices)
            if (axis_of(index) >= 0)
                ordered.push_back(index);
        const ::isl::set box =
            isl::parse_set(isl::thread_context().context,
                           fmt::format("[{}] -> {{ [{}] : {} }}", fmt::join(params_, ", "),
                                       fmt::join(ordered, ", "), fmt::join(constraints, " and ")));
        // Compared where the domain is not empty (its parameters' own constraints).
        if (!isl::checked("staging",
                          [&] { return threads.is_equal(box.intersect_params(domain_.params())); }))
            refuse(array, fmt::format("the domain's thread-mapped indices ({}) do not span a "
                                      "box: threads of a block would lie outside it and not load "
                                      "their part of the tile",
                                      fmt::join(ordered, ", ")));
        if (std::find(partial_.begin(), partial_.end(), true) != partial_.end())
            whole_blocks_domain(array);
    }

    // A fold larger than the domain along `axis` is refused (check_fold_within_domain), which
    // the staged domain, extended to whole blocks, would no longer show: the staging refuses it
    // (a parametric extent: a requirement of the staged kernel).
    void require_fold_within(const ArrayDecl& array, int axis, const AffineForm& extent,
                             KernelSpec& result) const {
        const std::int64_t fold = launch_.fold[static_cast<size_t>(axis)];
        if (fold == 1)
            return;
        const std::string& index = spec_.threads.global[static_cast<size_t>(axis)];
        if (extent.is_constant()) {
            if (fold > extent.constant)
                throw_input_error(detail::fold_larger_than_domain(axis, fold, index,
                                                                  std::to_string(extent.constant)),
                                  array.stage_where);
            return;
        }
        const std::string text = operand_text(extent) + " >= " + std::to_string(fold);
        result.requirements.push_back(
            {text, kernel::parse_expression(text),
             detail::fold_larger_than_domain(axis, fold, index, extent.to_string())});
    }

    // The value of `form` (in the parameters) at the parameters' defaults.
    std::int64_t at_defaults(const AffineForm& form) const {
        std::int64_t value = form.constant;
        for (const auto& [name, c] : form.coefficients)
            if (const kernel::Parameter* param = spec_.find_param(name))
                value += c * param->default_value;
        return value;
    }

    // Along an axis the blocks do not tile, the last block's threads beyond the domain must
    // still load their part of its tile: the staged kernel's domain takes the thread-mapped
    // index over whole blocks (`grid_domain_`), and every statement of the kernel file is
    // guarded by the index's own upper bound (bounded()). That needs the domain to be the box
    // of its thread-mapped indices times what its other indices range over.
    void whole_blocks_domain(const ArrayDecl& array) {
        ::isl::set rest = domain_;
        for (int k = static_cast<int>(spec_.indices.size()) - 1; k >= 0; --k) {
            const std::string& index = spec_.indices[static_cast<size_t>(k)];
            if (axis_of(index) < 0)
                continue;
            const unsigned position = static_cast<unsigned>(k);
            rest = ::isl::manage(isl_set_project_out(rest.release(), isl_dim_set, position, 1));
            rest = ::isl::manage(isl_set_insert_dims(rest.release(), isl_dim_set, position, 1));
            rest = ::isl::manage(
                isl_set_set_dim_name(rest.release(), isl_dim_set, position, index.c_str()));
        }
        std::vector<std::string> box, grid;
        for (int axis = 0; axis < axis_count; ++axis) {
            const size_t a = static_cast<size_t>(axis);
            const std::string& index = spec_.threads.global[a];
            if (index.empty())
                continue;
            const std::string low = lower_[a]->to_string(), high = upper_[a]->to_string();
            box.push_back(low + " <= " + index + " <= " + high);
            if (!partial_[a]) {
                grid.push_back(box.back());
                continue;
            }
            const std::int64_t points = block_points(axis);
            const AffineForm extent = minus(*upper_[a], *lower_[a]) += constant_form(1);
            grid.push_back(
                extent.is_constant()
                    ? fmt::format("{} <= {} <= {}", low, index,
                                  (AffineForm(*lower_[a]) += constant_form(
                                       (extent.constant + points - 1) / points * points - 1))
                                      .to_string())
                    : fmt::format("{0} <= {1} and {1} - ({0}) < {2}*floor(({3} + {4})/{2})", low,
                                  index, points, extent.to_string(), points - 1));
        }
        const auto full = [&](const std::vector<std::string>& constraints) {
            return isl::parse_set(isl::thread_context().context,
                                  fmt::format("[{}] -> {{ [{}] : {} }}", fmt::join(params_, ", "),
                                              fmt::join(spec_.indices, ", "),
                                              fmt::join(constraints, " and ")));
        };
        if (!isl::checked("staging", [&] { return domain_.is_equal(rest.intersect(full(box))); }))
            refuse(array, "its blocks do not tile the domain, and the domain's thread-mapped "
                          "indices bound its other indices, so the last block's threads beyond "
                          "it cannot be given the tile's loads");
        grid_domain_ = rest.intersect(full(grid));
    }

    // `statement` of the kernel file guarded by the upper bound of each thread-mapped index
    // the staged domain extends (whole_blocks_domain).
    StatementSpec bounded(StatementSpec statement) const {
        if (statement.kind != StatementKind::compute)
            return statement;
        std::vector<std::string> guards;
        if (statement.condition)
            guards.push_back("(" + statement.condition_text + ")");
        for (int axis = 0; axis < axis_count; ++axis)
            if (partial_[static_cast<size_t>(axis)])
                guards.push_back(spec_.threads.global[static_cast<size_t>(axis)] +
                                 " <= " + upper_[static_cast<size_t>(axis)]->to_string());
        if (guards.size() == (statement.condition ? 1u : 0u))
            return statement;
        statement.guard_is_points_domain = !statement.condition;
        statement.condition_text = fmt::format("{}", fmt::join(guards, " && "));
        statement.condition = kernel::parse_expression(statement.condition_text);
        return statement;
    }

    // The reads of `array` in every statement.
    std::vector<const Expr*> reads_of(const ArrayDecl& array) const {
        std::vector<const Expr*> reads;
        for (const StatementSpec& statement : spec_.statements)
            if (statement.kind == StatementKind::compute)
                for (const ExprPtr& e :
                     {statement.parsed.target, statement.parsed.value, statement.parsed.compare})
                    if (e)
                        collect_reads(*e, array.name, reads);
        return reads;
    }

    // The range of subscript `s` over block 0's points and the sequential indices' ranges.
    std::pair<AffineForm, AffineForm> range_of(const ArrayDecl& array, const AffineForm& s) const {
        AffineForm low = constant_form(s.constant), high = constant_form(s.constant);
        for (const auto& [name, c] : s.coefficients) {
            if (!spec_.is_index(name)) { // a parameter
                low.add_term(name, c);
                high.add_term(name, c);
                continue;
            }
            const int axis = axis_of(name);
            AffineForm first =
                axis >= 0 ? *lower_[static_cast<size_t>(axis)] : bound(array, name, false);
            const AffineForm last = axis >= 0
                                        ? AffineForm(first) += constant_form(block_points(axis) - 1)
                                        : bound(array, name, true);
            low += (c > 0 ? first : last).scaled(c);
            high += (c > 0 ? last : first).scaled(c);
        }
        return {low, high};
    }

    // The lower (or upper) of two range ends, which must differ by a constant.
    AffineForm extreme(const ArrayDecl& array, const AffineForm& a, const AffineForm& b, bool lower,
                       size_t dimension) const {
        const AffineForm difference = minus(a, b);
        if (!difference.is_constant())
            refuse(array, fmt::format("along dimension {} its reads span ranges whose ends "
                                      "differ by '{}', which is not a constant",
                                      dimension, difference.to_string()));
        return (difference.constant <= 0) == lower ? a : b;
    }

    StatementSpec stage(const ArrayDecl& array) {
        const std::vector<const Expr*> reads = reads_of(array);
        const size_t rank = array.shape.size();
        StagedArray staged;
        staged.shared = unique(array.name + "_shared");
        ArrayDecl tile;
        tile.name = staged.shared;
        tile.dtype = array.dtype;
        tile.space = kernel::MemorySpace::shared;
        tile.where = array.stage_where;
        std::vector<AffineForm> extents;
        for (size_t d = 0; d < rank; ++d) {
            std::optional<AffineForm> low, high;
            std::array<std::int64_t, axis_count> moves{};
            for (size_t r = 0; r < reads.size(); ++r) {
                const AffineForm s = kernel::to_affine(*reads[r]->operands[d]);
                for (int axis = 0; axis < axis_count; ++axis) {
                    const std::string& index = spec_.threads.global[static_cast<size_t>(axis)];
                    const std::int64_t c = index.empty() ? 0 : s.coefficient(index);
                    if (r > 0 && c != moves[static_cast<size_t>(axis)])
                        refuse(array, fmt::format("its reads '{}' and '{}' move differently "
                                                  "with the block along dimension {}",
                                                  kernel::to_string(*reads[0]),
                                                  kernel::to_string(*reads[r]), d));
                    moves[static_cast<size_t>(axis)] = c;
                }
                const auto [first, last] = range_of(array, s);
                low = low ? extreme(array, *low, first, true, d) : first;
                high = high ? extreme(array, *high, last, false, d) : last;
            }
            staged.lows.push_back(*low);
            staged.moves.push_back(moves);
            extents.push_back(minus(*high, *low) += constant_form(1));
            tile.shape.push_back(kernel::parse_expression(extents.back().to_string()));
        }
        tiles_.push_back(tile);
        StatementSpec statement = staging_statement(array, staged, extents);
        staged_.emplace(array.name, std::move(staged));
        return statement;
    }

    // Which thread axes spread over each tile dimension: x the innermost, y the next, z the
    // next; the outermost dimension takes every axis left (a 1-D tile: all of them).
    std::vector<std::vector<int>> thread_axes(size_t rank) const {
        std::vector<int> active;
        for (int axis = 0; axis < axis_count; ++axis)
            if (launch_.block[static_cast<size_t>(axis)] > 1)
                active.push_back(axis);
        std::vector<std::vector<int>> axes(rank);
        size_t next = 0;
        for (size_t d = rank; d-- > 0 && next < active.size();)
            do
                axes[d].push_back(active[next++]);
            while (d == 0 && next < active.size());
        return axes;
    }

    // Thread-mapped index `axis` of a thread of block 0 (its lower bound, threadIdx and, with
    // `fold`, the fold index placed as the launch places them).
    AffineForm place_in_block(int axis, bool fold) const {
        const size_t a = static_cast<size_t>(axis);
        const bool strided = launch_.fold_placement == kernel::FoldPlacement::strided;
        AffineForm place = *lower_[a];
        place.add_term(launch_name('t', axis), strided ? 1 : launch_.fold[a]);
        if (fold && launch_.fold[a] > 1)
            place.add_term(launch_name('f', axis), strided ? launch_.block[a] : 1);
        return place;
    }

    // The element of the array that tile element `element` (along dimension `d`) holds: the
    // block's first element plus `element`, the block's first element written through the
    // thread-mapped indices (`y - ty`, in the first fold instance, where the staging runs)
    // as the hand-written tiles do (`input[y + 16*ly, ...]`), not through blockIdx.
    AffineForm source_subscript(const StagedArray& staged, size_t d,
                                const AffineForm& element) const {
        AffineForm source = staged.lows[d];
        for (int axis = 0; axis < axis_count; ++axis) {
            const size_t a = static_cast<size_t>(axis);
            const std::string& index = spec_.threads.global[a];
            const std::int64_t c = staged.moves[d][a];
            if (c == 0)
                continue;
            source.add_term(index, c);
            source += place_in_block(axis, false).scaled(-c);
        }
        return source += element;
    }

    // Where a `where` guards a read of `array`, the tile's box (the reads' ranges, guards
    // aside) may reach past the array (`a[x - 1]` where `x >= 1`): the staging is clipped to
    // the array's extent along dimension `d`, when that is affine in the parameters. Unguarded
    // reads stay inside the array wherever the bounds check accepts the kernel, and so does
    // their box: no clip.
    std::optional<AffineForm> clipped_extent(const ArrayDecl& array, size_t d) const {
        bool guarded = false;
        for (const StatementSpec& statement : spec_.statements) {
            std::vector<const Expr*> reads;
            if (statement.kind == StatementKind::compute && statement.condition)
                for (const ExprPtr& e : {statement.parsed.value, statement.parsed.compare})
                    if (e)
                        collect_reads(*e, array.name, reads);
            guarded = guarded || !reads.empty();
        }
        const bool partial = std::find(partial_.begin(), partial_.end(), true) != partial_.end();
        if (!guarded && !partial) // a partial block's tile may reach past the array too
            return std::nullopt;
        try {
            return kernel::to_affine(*array.shape[d]);
        } catch (const kernel::ExpressionError&) {
            return std::nullopt; // not affine: the bounds check refuses a staging outside it
        }
    }

    StatementSpec staging_statement(const ArrayDecl& array, const StagedArray& staged,
                                    const std::vector<AffineForm>& extents) {
        const size_t rank = extents.size();
        const std::vector<std::vector<int>> axes = thread_axes(rank);
        std::vector<std::string> tile_subscripts, source_subscripts, guards, within;
        for (size_t d = 0; d < rank; ++d) {
            AffineForm element;
            std::int64_t threads = 1;
            for (int axis : axes[d]) {
                element.add_term(launch_name('t', axis), threads);
                threads *= launch_.block[static_cast<size_t>(axis)];
            }
            const AffineForm& extent = extents[d];
            const bool fits = extent.is_constant() && extent.constant <= threads;
            if (!fits) {
                const std::string loop = unique(array.name + "_l" + std::to_string(d));
                loops_.push_back(loop);
                loop_bounds_.push_back(
                    fmt::format("0 <= {0} and {1}{0} <= {2}", loop,
                                threads == 1 ? std::string() : std::to_string(threads) + "*",
                                minus(extent, constant_form(1)).to_string()));
                within.push_back(loop);
                element.add_term(loop, threads);
            }
            const bool exact = extent.is_constant() && extent.constant % threads == 0;
            if (threads > 1 && !exact)
                guards.push_back(element.to_string() + " < " + extent.to_string());
            tile_subscripts.push_back(element.to_string());
            const AffineForm source = source_subscript(staged, d, element);
            source_subscripts.push_back(source.to_string());
            if (const auto extent_of_array = clipped_extent(array, d))
                guards.push_back("0 <= " + source.to_string() + " && " + source.to_string() +
                                 " < " + extent_of_array->to_string());
        }
        for (int axis = 0; axis < axis_count; ++axis)
            if (launch_.fold[static_cast<size_t>(axis)] > 1)
                guards.push_back(std::string(launch_name('f', axis)) + " == 0");
        StatementSpec statement;
        statement.id = "stage_" + array.name;
        statement.text =
            fmt::format("{}[{}] = {}[{}]", staged.shared, fmt::join(tile_subscripts, ", "),
                        array.name, fmt::join(source_subscripts, ", "));
        statement.parsed = kernel::parse_statement(statement.text);
        statement.within = within;
        if (!guards.empty()) {
            statement.condition_text = fmt::format("{}", fmt::join(guards, " && "));
            statement.condition = kernel::parse_expression(statement.condition_text);
        }
        statement.where = array.stage_where;
        statement.staged_elements = tiles_union(array, staged, extents);
        for (size_t d = 0; d < rank; ++d) {
            kernel::TileDimension tile{staged.lows[d], {}, extents[d], clipped_extent(array, d)};
            for (int axis = 0; axis < axis_count; ++axis)
                tile.moves[static_cast<size_t>(axis)] =
                    staged.moves[d][static_cast<size_t>(axis)] * block_points(axis);
            statement.staged_tile.push_back(std::move(tile));
        }
        return statement;
    }

    // The elements of the array the blocks' tiles hold, over the launch: block b's tile along
    // dimension d starts at low_d + sum_a c_da * (block points)_a * b_a; the blocks tile each
    // axis (check_whole_blocks), so b_a runs over the axis's extent / (block points)_a.
    // The block count is ceil(extent / block points): the blocks' last start lies below the
    // extent. A partial block's tile is clipped to the array, as its staging is.
    std::string tiles_union(const ArrayDecl& array, const StagedArray& staged,
                            const std::vector<AffineForm>& extents) {
        std::vector<std::string> elements, blocks, within, constraints;
        for (size_t d = 0; d < extents.size(); ++d)
            elements.push_back("e" + std::to_string(d));
        for (int axis = 0; axis < axis_count; ++axis) {
            const std::string& index = spec_.threads.global[static_cast<size_t>(axis)];
            if (index.empty())
                continue;
            const std::string b = "b" + std::to_string(axis);
            blocks.push_back(b);
            const size_t a = static_cast<size_t>(axis);
            const AffineForm last_start = minus(*upper_[a], *lower_[a]);
            constraints.push_back(fmt::format("0 <= {} and {}*{} <= {}", b, block_points(axis), b,
                                              last_start.to_string()));
        }
        for (size_t d = 0; d < extents.size(); ++d) {
            const std::string t = "t" + std::to_string(d);
            within.push_back(t);
            AffineForm start = staged.lows[d];
            for (int axis = 0; axis < axis_count; ++axis)
                if (const std::int64_t c = staged.moves[d][static_cast<size_t>(axis)]; c != 0)
                    start.add_term("b" + std::to_string(axis), c * block_points(axis));
            constraints.push_back(fmt::format("e{0} = {1} + {2} and 0 <= {2} < {3}", d,
                                              start.to_string(), t, extents[d].to_string()));
            if (const auto extent_of_array = clipped_extent(array, d))
                constraints.push_back(
                    fmt::format("0 <= e{0} < {1}", d, extent_of_array->to_string()));
        }
        std::vector<std::string> params;
        for (const auto& param : spec_.params)
            params.push_back(param.name);
        std::vector<std::string> existentials = blocks;
        existentials.insert(existentials.end(), within.begin(), within.end());
        return fmt::format("[{}] -> {{ [{}] : exists {} : {} }}", fmt::join(params, ", "),
                           fmt::join(elements, ", "), fmt::join(existentials, ", "),
                           fmt::join(constraints, " and "));
    }

    // A read's subscript `s` in the tile: `s` less the block's first element, with each
    // thread-mapped index as its place in the block (threadIdx and fold index: the hand-
    // written tiles' `ty + i`), less block 0's first element `low`.
    AffineForm tile_subscript(AffineForm s, const AffineForm& low) const {
        for (int axis = 0; axis < axis_count; ++axis) {
            const size_t a = static_cast<size_t>(axis);
            const std::string& index = spec_.threads.global[a];
            const std::int64_t c = index.empty() ? 0 : s.coefficient(index);
            if (c == 0)
                continue;
            s.add_term(index, -c);
            s += place_in_block(axis, true).scaled(c);
        }
        return minus(s, low);
    }

    // `e` with every read of a staged array reading its tile instead.
    ExprPtr rewrite(const ExprPtr& e) const {
        return kernel::replace_subexpressions(e, [&](const Expr& node) -> ExprPtr {
            if (node.kind != ExprKind::array_ref)
                return nullptr;
            const auto staged = staged_.find(node.name);
            if (staged == staged_.end())
                return nullptr;
            auto read = std::make_shared<Expr>(node);
            read->name = staged->second.shared;
            for (size_t d = 0; d < read->operands.size(); ++d)
                read->operands[d] = kernel::parse_expression(
                    tile_subscript(kernel::to_affine(*node.operands[d]), staged->second.lows[d])
                        .to_string());
            return read;
        });
    }

    StatementSpec rewritten(const StatementSpec& statement) const {
        if (statement.kind != StatementKind::compute)
            return statement;
        kernel::Statement parsed = statement.parsed;
        parsed.value = rewrite(parsed.value);
        parsed.compare = rewrite(parsed.compare);
        if (parsed.value == statement.parsed.value && parsed.compare == statement.parsed.compare)
            return statement;
        StatementSpec result = statement;
        result.text = kernel::to_string(parsed);
        result.parsed = kernel::parse_statement(result.text);
        return result;
    }

    // The domain with the staging loops, each over its own range.
    std::string domain_text() const {
        const ::isl::set& base = grid_domain_.is_null() ? domain_ : grid_domain_;
        if (loops_.empty())
            return grid_domain_.is_null() ? spec_.domain : isl::to_string(base);
        const size_t count = spec_.indices.size();
        ::isl::set domain = ::isl::manage(
            isl_set_add_dims(base.copy(), isl_dim_set, static_cast<unsigned>(loops_.size())));
        for (size_t k = 0; k < loops_.size(); ++k)
            domain = ::isl::manage(isl_set_set_dim_name(domain.release(), isl_dim_set,
                                                        static_cast<unsigned>(count + k),
                                                        loops_[k].c_str()));
        std::vector<std::string> indices = spec_.indices;
        indices.insert(indices.end(), loops_.begin(), loops_.end());
        std::vector<std::string> params = params_;
        for (const auto& param : spec_.params)
            if (std::find(params.begin(), params.end(), param.name) == params.end())
                params.push_back(param.name);
        ::isl::set bounds =
            isl::parse_set(isl::thread_context().context,
                           fmt::format("[{}] -> {{ [{}] : {} }}", fmt::join(params, ", "),
                                       fmt::join(indices, ", "), fmt::join(loop_bounds_, " and ")));
        domain =
            ::isl::manage(isl_set_align_params(domain.release(), bounds.get_space().release()));
        return isl::to_string(domain.intersect(bounds));
    }

    const KernelSpec& spec_;
    const LaunchConfig launch_;
    ::isl::set domain_;
    std::vector<std::string> params_; // the domain's parameters, in its order
    // Each thread-mapped index's bounds over the domain, by axis (check_whole_blocks).
    std::array<std::optional<AffineForm>, axis_count> lower_, upper_;
    std::array<bool, axis_count> partial_{}; // axes whose blocks do not tile the domain
    ::isl::set grid_domain_;         // the domain over whole blocks (whole_blocks_domain), or null
    std::vector<std::string> taken_; // names in use
    std::vector<ArrayDecl> tiles_;
    std::vector<std::string> loops_, loop_bounds_;
    std::map<std::string, StagedArray> staged_;
};

} // namespace

KernelSpec stage_in_shared_memory(const KernelSpec& spec, const LaunchConfig& launch) {
    if (!kernel::has_staged_arrays(spec))
        return spec;
    try {
        return Stager(spec, launch).run();
    } catch (const isl::IslError& e) {
        throw_input_error("kernel '" + spec.name + "': cannot stage its arrays in shared " +
                              "memory: " + e.what(),
                          SourceLocation{spec.file, 0, 0, {}, {}});
    } catch (const ::isl::exception& e) {
        throw_input_error("kernel '" + spec.name + "': cannot stage its arrays in shared " +
                              "memory: " + isl::message_of(e),
                          SourceLocation{spec.file, 0, 0, {}, {}});
    }
}

KernelSpec staging_judged_at(const KernelSpec& spec, const kernel::ParameterOverrides& values) {
    if (values.empty() || !kernel::has_staged_arrays(spec))
        return spec;
    KernelSpec judged = spec;
    for (const auto& [name, value] : values)
        for (kernel::Parameter& param : judged.params)
            if (param.name == name)
                param.default_value = value;
    return judged;
}

} // namespace kerncast::analysis
