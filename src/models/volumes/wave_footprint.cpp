#include "kerncast/models/volumes/wave_footprint.hpp"

#include "../../support/isl_support.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <isl/ilp.h>

namespace kerncast::models {

std::int64_t BlockBox::blocks() const {
    std::int64_t n = 1;
    for (size_t a = 0; a < 3; ++a)
        n *= std::max<std::int64_t>(0, end[a] - first[a]);
    return n;
}

std::vector<BlockBox> block_boxes(std::int64_t first, std::int64_t end, const kernel::Dim3& grid) {
    const std::int64_t row = grid[0], plane = grid[0] * grid[1];
    first = std::max<std::int64_t>(first, 0);
    end = std::min(end, plane * grid[2]);
    std::vector<BlockBox> boxes;
    auto position = [&](std::int64_t id) {
        return kernel::Dim3{id % row, (id / row) % grid[1], id / plane};
    };
    while (first < end) {
        const kernel::Dim3 at = position(first);
        BlockBox box;
        if (at[0] != 0 || end - first < row) { // partial row
            const std::int64_t stop = std::min(end, first + (row - at[0]));
            box.first = at;
            box.end = {at[0] + (stop - first), at[1] + 1, at[2] + 1};
            first = stop;
        } else if (at[1] != 0 || end - first < plane) { // whole rows inside one plane
            const std::int64_t rows = std::min((end - first) / row, grid[1] - at[1]);
            box.first = at;
            box.end = {row, at[1] + rows, at[2] + 1};
            first += rows * row;
        } else { // whole planes
            const std::int64_t planes = (end - first) / plane;
            box.first = at;
            box.end = {row, grid[1], at[2] + planes};
            first += planes * plane;
        }
        boxes.push_back(box);
    }
    return boxes;
}

namespace {

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : separator) + item;
    return text;
}

isl::Set fix_parameters(isl::Set set, const std::vector<std::string>& names,
                        const std::vector<std::int64_t>& values) {
    const auto params = isl::dim_names(set.get(), isl_dim_param);
    for (size_t k = 0; k < params.size(); ++k) {
        auto at = std::find(names.begin(), names.end(), params[k]);
        KERNCAST_CHECK(at != names.end(), "unknown parameter " + params[k]);
        isl_val* value = isl_val_int_from_si(isl_set_get_ctx(set.get()),
                                             values[static_cast<size_t>(at - names.begin())]);
        set.reset(isl_set_fix_val(set.release(), isl_dim_param, static_cast<unsigned>(k), value));
    }
    set.reset(
        isl_set_project_out(set.release(), isl_dim_param, 0, static_cast<unsigned>(params.size())));
    return set;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

using Range = std::pair<std::int64_t, std::int64_t>; // inclusive

std::int64_t merged_length(std::vector<Range>& intervals) {
    std::sort(intervals.begin(), intervals.end());
    std::int64_t total = 0, start = intervals[0].first, stop = intervals[0].second;
    for (const auto& r : intervals) {
        if (r.first > stop + 1) {
            total += stop - start + 1;
            start = r.first;
            stop = r.second;
        } else {
            stop = std::max(stop, r.second);
        }
    }
    return total + stop - start + 1;
}

// Sum of leaf(cross-section) over all points of the outer dimensions of a union of boxes:
// sweep the first dimension over the boundaries of the boxes, recurse on the rest for the
// boxes covering each slab; the last dimension's intervals go to `leaf`.
template <class Leaf>
std::int64_t sweep(const std::vector<const std::vector<Range>*>& boxes, size_t dim,
                   const Leaf& leaf) {
    if (boxes.empty())
        return 0;
    const size_t dims = boxes.front()->size();
    if (dim + 1 == dims) {
        std::vector<Range> intervals;
        intervals.reserve(boxes.size());
        for (const auto* box : boxes)
            intervals.push_back((*box)[dim]);
        return leaf(intervals);
    }
    std::vector<std::int64_t> cuts;
    cuts.reserve(2 * boxes.size());
    for (const auto* box : boxes) {
        cuts.push_back((*box)[dim].first);
        cuts.push_back((*box)[dim].second + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::int64_t total = 0, previous_value = 0;
    std::vector<const std::vector<Range>*> covering, previous;
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        covering.clear();
        for (const auto* box : boxes)
            if ((*box)[dim].first <= cuts[k] && cuts[k] <= (*box)[dim].second)
                covering.push_back(box);
        // Consecutive slabs covered by the same boxes have the same cross-section.
        const std::int64_t value =
            covering == previous ? previous_value : sweep(covering, dim + 1, leaf);
        total += value * (cuts[k + 1] - cuts[k]);
        std::swap(previous, covering);
        previous_value = value;
    }
    return total;
}

template <class Leaf>
std::int64_t sweep(const std::vector<std::vector<Range>>& boxes, const Leaf& leaf) {
    std::vector<const std::vector<Range>*> pointers;
    pointers.reserve(boxes.size());
    for (const auto& box : boxes)
        pointers.push_back(&box);
    return sweep(pointers, 0, leaf);
}

// Exact number of integer points in a union of boxes.
std::int64_t union_volume(const std::vector<std::vector<Range>>& boxes) {
    return sweep(boxes, [](std::vector<Range>& intervals) { return merged_length(intervals); });
}

// Granules of `granule_bytes` that a union of element boxes (last dimension in elements of
// `element_bytes`) covers only partly.
std::int64_t partial_granules(const std::vector<std::vector<Range>>& element_boxes,
                              std::int64_t element_bytes, std::int64_t granule_bytes) {
    return sweep(element_boxes, [&](std::vector<Range>& intervals) {
        std::sort(intervals.begin(), intervals.end());
        std::vector<Range> merged;
        for (const auto& r : intervals)
            if (!merged.empty() && r.first <= merged.back().second + 1)
                merged.back().second = std::max(merged.back().second, r.second);
            else
                merged.push_back(r);
        std::vector<Range> touched;
        std::int64_t full = 0;
        for (const auto& [a, b] : merged) {
            touched.push_back({floor_div(a * element_bytes, granule_bytes),
                               floor_div(b * element_bytes, granule_bytes)});
            const std::int64_t first_full = -floor_div(-a * element_bytes, granule_bytes); // ceil
            const std::int64_t end_full = floor_div((b + 1) * element_bytes, granule_bytes);
            full += std::max<std::int64_t>(0, end_full - first_full);
        }
        return merged_length(touched) - full;
    });
}

} // namespace

struct WaveFootprints::State {
    struct Access {
        size_t array = 0;
        bool store = false;
        std::vector<std::string> variables;          // the access's domain variables
        std::array<std::string, 3> block_variable{}; // "" when the access has none on that axis
        isl::Set domain;                             // over `variables`, parameters fixed
        isl::Map elements;                           // variables -> element address tuple
    };
    mutable isl::Context ctx;
    std::vector<ArrayLayout> arrays;
    std::vector<Access> accesses;
    kernel::Dim3 grid{1, 1, 1};
    isl::Set points_domain; // mapped indices only
    std::array<std::string, 3> mapped_index{};
    std::array<std::string, 3> block_index{}; // explicit block indices (no global mapping)
    std::array<std::int64_t, 3> lower{0, 0, 0};
    std::array<std::int64_t, 3> block_span{1, 1, 1}; // points of one block along each axis

    // Fast path: when the domain is a box over the mapped indices and every subscript of an
    // array is +-index + constant with each axis used at most once, every block box maps to
    // a box of addresses and footprints are unions of boxes, counted exactly without isl.
    struct DimMap {
        int axis = -1; // -1: constant subscript
        std::int64_t sign = 1;
        std::int64_t constant = 0;
    };
    struct BoxAccess {
        size_t array = 0;
        bool store = false;
        std::vector<DimMap> dims;
    };
    bool domain_is_box = false;
    std::array<std::int64_t, 3> domain_low{0, 0, 0}, domain_high{0, 0, 0}; // inclusive
    std::vector<BoxAccess> box_accesses;
    std::vector<bool> array_uses_boxes;
    bool use_boxes = true;

    using Box = std::vector<std::pair<std::int64_t, std::int64_t>>; // inclusive ranges

    std::vector<Box> granule_boxes(size_t array, const std::vector<BlockBox>& blocks,
                                   std::int64_t granule_bytes, AccessFilter filter) const {
        std::vector<Box> boxes;
        const ArrayLayout& layout = arrays[array];
        for (const auto& block : blocks) {
            std::array<std::pair<std::int64_t, std::int64_t>, 3> index{};
            bool empty = false;
            for (size_t a = 0; a < 3; ++a) {
                if (mapped_index[a].empty())
                    continue;
                index[a] = {std::max(domain_low[a], lower[a] + block.first[a] * block_span[a]),
                            std::min(domain_high[a], lower[a] + block.end[a] * block_span[a] - 1)};
                empty = empty || index[a].first > index[a].second;
            }
            if (empty)
                continue;
            for (const auto& access : box_accesses) {
                if (access.array != array || (filter == AccessFilter::loads && access.store) ||
                    (filter == AccessFilter::stores && !access.store))
                    continue;
                Box box;
                for (size_t k = 0; k < access.dims.size(); ++k) {
                    const DimMap& d = access.dims[k];
                    std::pair<std::int64_t, std::int64_t> range{d.constant, d.constant};
                    if (d.axis >= 0) {
                        const auto& r = index[static_cast<size_t>(d.axis)];
                        range = d.sign > 0 ? std::pair{d.constant + r.first, d.constant + r.second}
                                           : std::pair{d.constant - r.second, d.constant - r.first};
                    }
                    box.push_back(range);
                }
                const std::int64_t eb = layout.element_bytes;
                auto to_granules = [&](std::int64_t first, std::int64_t last) {
                    return std::pair{
                        floor_div(eb * (first + layout.offset_elements), granule_bytes),
                        floor_div(eb * (last + layout.offset_elements), granule_bytes)};
                };
                if (layout.space == AddressSpace::rows || box.size() == 1) {
                    box.back() = to_granules(box.back().first, box.back().second);
                    boxes.push_back(std::move(box));
                    continue;
                }
                // Linear addresses: one interval per row of the outer dimensions.
                const size_t n = box.size();
                std::vector<std::int64_t> stride(n, 1);
                for (size_t k = n - 1; k-- > 0;)
                    stride[k] = stride[k + 1] * layout.shape[k + 1];
                std::vector<std::int64_t> at(n - 1);
                for (size_t k = 0; k + 1 < n; ++k)
                    at[k] = box[k].first;
                while (true) {
                    std::int64_t row = 0;
                    for (size_t k = 0; k + 1 < n; ++k)
                        row += at[k] * stride[k];
                    boxes.push_back(
                        Box{to_granules(row + box[n - 1].first, row + box[n - 1].second)});
                    size_t k = n - 1;
                    while (k-- > 0) {
                        if (++at[k] <= box[k].second)
                            break;
                        at[k] = box[k].first;
                    }
                    if (k == static_cast<size_t>(-1))
                        break;
                }
            }
        }
        return boxes;
    }

    isl::Set restrict_to(const Access& access, const std::vector<BlockBox>& blocks) const {
        std::vector<std::string> pieces;
        for (const auto& box : blocks) {
            std::vector<std::string> constraints;
            for (size_t a = 0; a < 3; ++a)
                if (!access.block_variable[a].empty())
                    constraints.push_back(std::to_string(box.first[a]) +
                                          " <= " + access.block_variable[a] + " < " +
                                          std::to_string(box.end[a]));
            pieces.push_back(constraints.empty() ? "true" : "(" + join(constraints, " and ") + ")");
        }
        if (pieces.empty())
            pieces.push_back("false");
        isl::Set box = isl::read_set(ctx, "{ [" + join(access.variables) +
                                              "] : " + join(pieces, " or ") + " }");
        isl::Set result(isl_set_intersect(isl_set_copy(access.domain.get()), box.release()));
        return ctx.check(std::move(result), "restricting an access to thread blocks");
    }

    // Element addresses of `array` touched by the blocks.
    isl::Set element_set(size_t array, const std::vector<BlockBox>& blocks,
                         AccessFilter filter) const {
        isl::Set all;
        for (const auto& access : accesses) {
            if (access.array != array || (filter == AccessFilter::loads && access.store) ||
                (filter == AccessFilter::stores && !access.store))
                continue;
            isl::Set image(isl_set_apply(restrict_to(access, blocks).release(),
                                         isl_map_copy(access.elements.get())));
            ctx.check(image.get(), "computing the addresses of an access");
            all.reset(all ? isl_set_union(all.release(), image.release()) : image.release());
        }
        if (!all)
            return isl::read_set(ctx, "{ [" + dims(array, "e") + "] : false }");
        all.reset(isl_set_coalesce(all.release()));
        return all;
    }

    std::string dims(size_t array, const char* prefix) const {
        const size_t n = arrays[array].space == AddressSpace::rows ? arrays[array].shape.size() : 1;
        std::vector<std::string> names;
        for (size_t k = 0; k < n; ++k)
            names.push_back(prefix + std::to_string(k));
        return join(names);
    }

    isl::Map granule_map(size_t array, std::int64_t granule_bytes) const {
        const size_t n = arrays[array].space == AddressSpace::rows ? arrays[array].shape.size() : 1;
        std::vector<std::string> in, out;
        for (size_t k = 0; k < n; ++k) {
            in.push_back("e" + std::to_string(k));
            out.push_back(k + 1 < n
                              ? in.back()
                              : "floor((" + std::to_string(arrays[array].element_bytes) + "*" +
                                    in.back() + ")/" + std::to_string(granule_bytes) + ")");
        }
        return isl::read_map(ctx, "{ [" + join(in) + "] -> [" + join(out) + "] }");
    }

    isl::Set granule_set(size_t array, const std::vector<BlockBox>& blocks,
                         std::int64_t granule_bytes, AccessFilter filter) const {
        isl::Set granules(isl_set_apply(element_set(array, blocks, filter).release(),
                                        granule_map(array, granule_bytes).release()));
        ctx.check(granules.get(), "computing granules");
        granules.reset(isl_set_coalesce(granules.release()));
        return granules;
    }
};

WaveFootprints::WaveFootprints(const analysis::KernelAnalysis& analysis,
                               const std::vector<std::int64_t>& params,
                               std::int64_t row_alignment_bytes, bool force_linear, bool force_isl)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    const kernel::KernelSpec& spec = analysis.spec;
    auto lookup = [&](const std::string& name) -> std::optional<std::int64_t> {
        auto at = std::find(analysis.parameters.begin(), analysis.parameters.end(), name);
        if (at == analysis.parameters.end())
            return std::nullopt;
        return params[static_cast<size_t>(at - analysis.parameters.begin())];
    };
    struct Candidate {
        size_t array;
        bool store;
        const analysis::AccessInfo* access;
    };
    std::vector<Candidate> box_candidates;
    for (const auto& access : analysis.accesses) {
        if (access.indirect || access.space != kernel::MemorySpace::global)
            continue;
        const kernel::ArrayDecl* decl = spec.find_array(access.array);
        KERNCAST_CHECK(decl != nullptr, "access to an undeclared array " + access.array);
        auto known = std::find_if(s.arrays.begin(), s.arrays.end(),
                                  [&](const ArrayLayout& a) { return a.name == access.array; });
        if (known == s.arrays.end()) {
            ArrayLayout layout;
            layout.name = access.array;
            layout.element_bytes = kernel::data_type_bytes(decl->dtype);
            for (const auto& extent : decl->shape)
                layout.shape.push_back(kernel::evaluate_integer(*extent, lookup));
            if (decl->offset)
                layout.offset_elements = kernel::evaluate_integer(*decl->offset, lookup);
            const bool aligned_rows =
                layout.shape.size() >= 2 &&
                (layout.shape.back() * layout.element_bytes) % row_alignment_bytes == 0;
            layout.space =
                aligned_rows && !force_linear ? AddressSpace::rows : AddressSpace::linear;
            s.arrays.push_back(layout);
            known = s.arrays.end() - 1;
        }
        const size_t array = static_cast<size_t>(known - s.arrays.begin());
        const bool store = access.direction != analysis::Direction::load;
        (store ? known->stored : known->loaded) = true;

        box_candidates.push_back({array, store, &access});
    }

    // Points and grid from the kernel's domain over the thread-mapped indices.
    isl::Set domain =
        fix_parameters(isl::read_set(s.ctx, spec.domain), analysis.parameters, params);
    const auto indices = isl::dim_names(domain.get(), isl_dim_set);
    for (size_t k = indices.size(); k-- > 0;) {
        bool mapped = false;
        for (size_t a = 0; a < 3; ++a)
            mapped = mapped || spec.threads.global[a] == indices[k] ||
                     spec.threads.block[a] == indices[k] || spec.threads.local[a] == indices[k];
        if (!mapped)
            domain.reset(
                isl_set_project_out(domain.release(), isl_dim_set, static_cast<unsigned>(k), 1));
    }
    const auto kept = isl::dim_names(domain.get(), isl_dim_set);
    for (size_t a = 0; a < 3; ++a) {
        const std::string& index = spec.threads.global[a];
        if (index.empty() && !spec.threads.block[a].empty()) {
            // Explicit block index (blocks: {x: bj}): the grid is its range.
            s.block_index[a] = spec.threads.block[a];
            const int position = static_cast<int>(
                std::find(kept.begin(), kept.end(), s.block_index[a]) - kept.begin());
            isl::Val maximum(isl_set_dim_max_val(isl_set_copy(domain.get()), position));
            s.grid[a] = std::max<std::int64_t>(1, isl::to_int64(maximum.get()) + 1);
        }
        if (index.empty())
            continue;
        auto form = analysis.index_forms.find(index);
        KERNCAST_CHECK(form != analysis.index_forms.end(), "no index form for " + index);
        s.mapped_index[a] = index;
        s.lower[a] = form->second.constant;
        for (const auto& [name, c] : form->second.coefficients)
            if (auto value = lookup(name))
                s.lower[a] += c * *value;
        s.block_span[a] = analysis.launch.block[a] * analysis.launch.fold[a];
        const int position =
            static_cast<int>(std::find(kept.begin(), kept.end(), index) - kept.begin());
        isl::Val maximum(isl_set_dim_max_val(isl_set_copy(domain.get()), position));
        const std::int64_t top = isl::to_int64(maximum.get());
        s.grid[a] = std::max<std::int64_t>(1, (top - s.lower[a]) / s.block_span[a] + 1);
        isl::Val minimum(isl_set_dim_min_val(isl_set_copy(domain.get()), position));
        s.domain_low[a] = isl::to_int64(minimum.get());
        s.domain_high[a] = top;
    }
    s.points_domain = std::move(domain);

    // Fast path eligibility (see State::granule_boxes): the domain equals its bounding box.
    std::vector<std::string> bounds;
    for (const auto& name : kept)
        for (size_t a = 0; a < 3; ++a)
            if (s.mapped_index[a] == name)
                bounds.push_back(std::to_string(s.domain_low[a]) + " <= " + name +
                                 " <= " + std::to_string(s.domain_high[a]));
    if (!kept.empty() && bounds.size() == kept.size()) {
        isl::Set box =
            isl::read_set(s.ctx, "{ [" + join(kept) + "] : " + join(bounds, " and ") + " }");
        s.domain_is_box = isl_set_is_equal(box.get(), s.points_domain.get()) == isl_bool_true;
    }
    s.array_uses_boxes.assign(s.arrays.size(), s.domain_is_box && !force_isl);
    for (const auto& candidate : box_candidates) {
        if (!s.array_uses_boxes[candidate.array])
            continue;
        const analysis::AccessInfo& access = *candidate.access;
        const auto& statement = spec.statements[static_cast<size_t>(access.statement)];
        bool ok = !statement.condition && statement.within.empty() && !access.subscripts.empty();
        State::BoxAccess box{candidate.array, candidate.store, {}};
        std::array<bool, 3> used{false, false, false};
        for (const auto& form : access.subscripts) {
            State::DimMap dim;
            dim.constant = form.constant;
            std::array<std::int64_t, 3> block_c{0, 0, 0}, thread_c{0, 0, 0}, fold_c{0, 0, 0};
            for (const auto& [name, c] : form.coefficients) {
                if (auto value = lookup(name)) {
                    dim.constant += c * *value;
                    continue;
                }
                // (a plain reference: clang 14 cannot capture a structured binding)
                const std::string& variable_name = name;
                auto variable =
                    std::find_if(analysis.variables.begin(), analysis.variables.end(),
                                 [&](const auto& v) { return v.name == variable_name; });
                if (variable == analysis.variables.end() || variable->axis < 0 ||
                    (dim.axis >= 0 && dim.axis != variable->axis)) {
                    ok = false;
                    break;
                }
                dim.axis = variable->axis;
                const size_t a = static_cast<size_t>(variable->axis);
                (variable->kind == analysis::LaunchVariable::Kind::block    ? block_c
                 : variable->kind == analysis::LaunchVariable::Kind::thread ? thread_c
                                                                            : fold_c)[a] = c;
            }
            if (!ok)
                break;
            if (dim.axis >= 0) {
                const size_t a = static_cast<size_t>(dim.axis);
                const std::int64_t B = analysis.launch.block[a], F = analysis.launch.fold[a];
                const std::int64_t sign = block_c[a] / (B * F);
                ok = !s.mapped_index[a].empty() && !used[a] && (sign == 1 || sign == -1) &&
                     block_c[a] == sign * B * F && (B == 1 || thread_c[a] == sign * F) &&
                     (F == 1 || fold_c[a] == sign);
                used[a] = true;
                dim.sign = sign;
                dim.constant -= sign * s.lower[a]; // subscript = sign * (index - lower) + constant
            }
            box.dims.push_back(dim);
        }
        if (ok)
            s.box_accesses.push_back(std::move(box));
        else
            s.array_uses_boxes[candidate.array] = false;
    }

    // isl sets for the arrays that are not unions of boxes.
    for (const auto& candidate : box_candidates) {
        if (s.array_uses_boxes[candidate.array])
            continue;
        const analysis::AccessInfo& access = *candidate.access;
        const size_t array = candidate.array;
        const bool store = candidate.store;
        const auto known = s.arrays.begin() + static_cast<std::ptrdiff_t>(array);
        State::Access a;
        a.array = array;
        a.store = store;
        a.variables = access.domain_variables;
        for (const auto& v : analysis.variables)
            if (v.kind == analysis::LaunchVariable::Kind::block &&
                std::find(a.variables.begin(), a.variables.end(), v.name) != a.variables.end())
                a.block_variable[static_cast<size_t>(v.axis)] = v.name;
        a.domain = fix_parameters(isl::read_set(s.ctx, access.domain), analysis.parameters, params);
        // Subscripts at fixed parameters, in launch variables.
        std::vector<std::string> subscripts;
        for (const auto& form : access.subscripts) {
            kernel::AffineForm numeric;
            numeric.constant = form.constant;
            for (const auto& [name, c] : form.coefficients) {
                if (auto value = lookup(name))
                    numeric.constant += c * *value;
                else
                    numeric.add_term(name, c);
            }
            subscripts.push_back(numeric.to_string());
        }
        const ArrayLayout& layout = *known;
        std::vector<std::string> out;
        const std::string offset = std::to_string(layout.offset_elements);
        if (layout.space == AddressSpace::rows) {
            for (size_t k = 0; k < subscripts.size(); ++k)
                out.push_back(k + 1 < subscripts.size() ? subscripts[k]
                                                        : "(" + subscripts[k] + ") + " + offset);
        } else {
            std::string linear = offset;
            std::int64_t stride = 1;
            for (size_t k = subscripts.size(); k-- > 0;) {
                linear += " + " + std::to_string(stride) + "*(" + subscripts[k] + ")";
                stride *= layout.shape[k];
            }
            out.push_back(linear);
        }
        a.elements = isl::read_map(s.ctx, "{ [" + join(a.variables) + "] -> [" + join(out) + "] }");
        s.accesses.push_back(std::move(a));
    }
}

WaveFootprints::~WaveFootprints() = default;

const std::vector<ArrayLayout>& WaveFootprints::arrays() const {
    return state_->arrays;
}
const kernel::Dim3& WaveFootprints::grid() const {
    return state_->grid;
}
bool WaveFootprints::counts_boxes(size_t array) const {
    return state_->array_uses_boxes[array];
}

std::int64_t WaveFootprints::points(const std::vector<BlockBox>& blocks) const {
    const State& s = *state_;
    if (s.domain_is_box) { // block boxes are disjoint: sum the clipped index boxes
        std::int64_t total = 0;
        for (const auto& box : blocks) {
            std::int64_t points = 1;
            for (size_t a = 0; a < 3; ++a)
                if (!s.mapped_index[a].empty())
                    points *= std::max<std::int64_t>(
                        0,
                        std::min(s.domain_high[a], s.lower[a] + box.end[a] * s.block_span[a] - 1) -
                            std::max(s.domain_low[a], s.lower[a] + box.first[a] * s.block_span[a]) +
                            1);
            total += points;
        }
        return total;
    }
    const auto names = isl::dim_names(s.points_domain.get(), isl_dim_set);
    std::vector<std::string> pieces;
    for (const auto& box : blocks) {
        std::vector<std::string> constraints;
        for (size_t a = 0; a < 3; ++a)
            if (!s.block_index[a].empty())
                constraints.push_back(std::to_string(box.first[a]) + " <= " + s.block_index[a] +
                                      " < " + std::to_string(box.end[a]));
        for (size_t a = 0; a < 3; ++a)
            if (!s.mapped_index[a].empty())
                constraints.push_back(std::to_string(s.lower[a] + box.first[a] * s.block_span[a]) +
                                      " <= " + s.mapped_index[a] + " < " +
                                      std::to_string(s.lower[a] + box.end[a] * s.block_span[a]));
        pieces.push_back(constraints.empty() ? "true" : "(" + join(constraints, " and ") + ")");
    }
    if (pieces.empty())
        return 0;
    isl::Set box = isl::read_set(s.ctx, "{ [" + join(names) + "] : " + join(pieces, " or ") + " }");
    isl::Set inside(isl_set_intersect(isl_set_copy(s.points_domain.get()), box.release()));
    return isl::count_points(s.ctx, s.ctx.check(inside.get(), "restricting the domain"));
}

std::int64_t WaveFootprints::count(size_t array, const std::vector<BlockBox>& blocks,
                                   std::int64_t granule_bytes, AccessFilter filter) const {
    if (state_->array_uses_boxes[array]) {
        const auto boxes = state_->granule_boxes(array, blocks, granule_bytes, filter);
        return union_volume(boxes);
    }
    isl::Set granules = state_->granule_set(array, blocks, granule_bytes, filter);
    return isl::count_points(state_->ctx, granules.get());
}

std::int64_t WaveFootprints::count_shared(size_t array, const std::vector<BlockBox>& first,
                                          const std::vector<BlockBox>& second,
                                          std::int64_t granule_bytes, AccessFilter filter) const {
    if (first.empty() || second.empty())
        return 0;
    if (state_->array_uses_boxes[array]) {
        // |A n B| = |A| + |B| - |A u B|
        auto a = state_->granule_boxes(array, first, granule_bytes, filter);
        auto b = state_->granule_boxes(array, second, granule_bytes, filter);
        const std::int64_t only_a = union_volume(a), only_b = union_volume(b);
        a.insert(a.end(), b.begin(), b.end());
        return only_a + only_b - union_volume(a);
    }
    isl::Set a = state_->granule_set(array, first, granule_bytes, filter);
    isl::Set b = state_->granule_set(array, second, granule_bytes, filter);
    isl::Set both(isl_set_intersect(a.release(), b.release()));
    both.reset(isl_set_coalesce(both.release()));
    return isl::count_points(state_->ctx, state_->ctx.check(both.get(), "intersecting footprints"));
}

std::int64_t WaveFootprints::partial_store_granules(size_t array,
                                                    const std::vector<BlockBox>& blocks,
                                                    std::int64_t granule_bytes) const {
    const State& s = *state_;
    if (s.array_uses_boxes[array]) {
        const std::int64_t element_bytes = s.arrays[array].element_bytes;
        return partial_granules(s.granule_boxes(array, blocks, element_bytes, AccessFilter::stores),
                                element_bytes, granule_bytes);
    }
    isl::Set written = s.element_set(array, blocks, AccessFilter::stores);
    isl::Map to_granule = s.granule_map(array, granule_bytes);
    isl::Set granules(isl_set_apply(isl_set_copy(written.get()), isl_map_copy(to_granule.get())));
    // Every element of a touched granule, minus the written ones: what is missing.
    isl::Set span(
        isl_set_apply(granules.release(), isl_map_reverse(isl_map_copy(to_granule.get()))));
    isl::Set missing(isl_set_subtract(span.release(), written.release()));
    isl::Set partial(isl_set_apply(missing.release(), to_granule.release()));
    partial.reset(isl_set_coalesce(partial.release()));
    return isl::count_points(s.ctx,
                             s.ctx.check(partial.get(), "computing partly written granules"));
}

} // namespace kerncast::models
