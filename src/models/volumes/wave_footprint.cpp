#include "kerncast/models/volumes/wave_footprint.hpp"

#include "../../support/isl_support.hpp"
#include "kerncast/error.hpp"
#include "kerncast/support/integer.hpp"
#include "kerncast/support/memo.hpp"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <isl/cpp.h>
#include <limits>
#include <map>
#include <set>
#include <utility>

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

using support::floor_div;

// isl's message in an ::isl::exception ("<isl file>:<line>: <message>"), "" when it has none.
std::string isl_message(const ::isl::exception& error) {
    const std::string text = error.what();
    const size_t colon = text.find(": ");
    return colon == std::string::npos ? std::string() : text.substr(colon + 2);
}

// Runs an isl computation of the C++ binding; a failure becomes the IslError that
// kerncast::isl::Context::check reports ("<what>: <isl's message>"), which callers turn into
// file:line:column messages.
template <class Compute> auto checked(const char* what, Compute&& compute) {
    try {
        return compute();
    } catch (const ::isl::exception& error) {
        const std::string message = isl_message(error);
        throw isl::IslError(message.empty() ? std::string(what)
                                            : std::string(what) + ": " + message);
    }
}

// A kernel's parameter values by name (an IntegerLookup): nullopt for other names.
class ParameterValues {
public:
    ParameterValues(const std::vector<std::string>& names, const std::vector<std::int64_t>& values)
        : names_(names), values_(values) {}
    std::optional<std::int64_t> operator()(const std::string& name) const {
        auto at = std::find(names_.begin(), names_.end(), name);
        if (at == names_.end())
            return std::nullopt;
        return values_[static_cast<size_t>(at - names_.begin())];
    }
    const std::vector<std::int64_t>& values() const { return values_; }

private:
    const std::vector<std::string>& names_;
    const std::vector<std::int64_t>& values_;
};

::isl::set fix_parameters(::isl::set set, const std::vector<std::string>& names,
                          const std::vector<std::int64_t>& values) {
    const auto params = isl::dim_names(set.get(), isl_dim_param);
    for (size_t k = 0; k < params.size(); ++k) {
        auto at = std::find(names.begin(), names.end(), params[k]);
        KERNCAST_CHECK(at != names.end(), "unknown parameter " + params[k]);
        isl_val* value =
            isl_val_int_from_si(set.ctx().get(), values[static_cast<size_t>(at - names.begin())]);
        set = ::isl::manage(
            isl_set_fix_val(set.copy(), isl_dim_param, static_cast<unsigned>(k), value));
    }
    return set.project_out_all_params();
}

using Range = std::pair<std::int64_t, std::int64_t>; // inclusive

// Order of intervals by their start alone (ties in any order).
bool by_start(const Range& a, const Range& b) {
    return a.first < b.first;
}

// Sorts intervals by their start (ties in any order). A wave's footprint has tens of thousands
// of intervals whose starts span a few million granules: a least-significant-digit radix sort
// of start - min(start), 11 bits a pass, takes 2 or 3 passes where std::sort takes log2(n).
// Intervals that come as a few runs already in order (the rows of each box of linear addresses
// are emitted in address order) are merged run by run instead, in log2(runs) linear passes.
void sort_by_start(std::vector<Range>& intervals) {
    if (std::is_sorted(intervals.begin(), intervals.end(), by_start))
        return;
    constexpr size_t small = 512;
    // Runs in order: few for any size (a small union of boxes' rows), many only in large ones.
    const size_t few_runs = intervals.size() < small ? 8 : 64;
    if (intervals.size() < 64) { // merging runs costs more than sorting so few
        std::sort(intervals.begin(), intervals.end(), by_start);
        return;
    }
    if (intervals.size() < small) {
        size_t runs = 1;
        for (size_t i = 1; i < intervals.size() && runs <= few_runs; ++i)
            runs += intervals[i].first < intervals[i - 1].first ? 1 : 0;
        if (runs > few_runs) {
            std::sort(intervals.begin(), intervals.end(), by_start);
            return;
        }
    }
    std::vector<size_t> run_starts{0};
    for (size_t i = 1; i < intervals.size() && run_starts.size() <= few_runs; ++i)
        if (intervals[i].first < intervals[i - 1].first)
            run_starts.push_back(i);
    if (run_starts.size() <= few_runs) {
        run_starts.push_back(intervals.size());
        std::vector<Range> scratch(intervals.size());
        while (run_starts.size() > 2) { // merge neighbouring runs pairwise
            std::vector<size_t> merged_starts;
            for (size_t r = 0; r + 1 < run_starts.size(); r += 2) {
                const size_t first = run_starts[r], middle = run_starts[r + 1];
                const size_t last = r + 2 < run_starts.size() ? run_starts[r + 2] : middle;
                std::merge(intervals.begin() + static_cast<std::ptrdiff_t>(first),
                           intervals.begin() + static_cast<std::ptrdiff_t>(middle),
                           intervals.begin() + static_cast<std::ptrdiff_t>(middle),
                           intervals.begin() + static_cast<std::ptrdiff_t>(last),
                           scratch.begin() + static_cast<std::ptrdiff_t>(first), by_start);
                merged_starts.push_back(first);
            }
            merged_starts.push_back(intervals.size());
            intervals.swap(scratch);
            run_starts.swap(merged_starts);
        }
        return;
    }
    std::int64_t low = intervals[0].first, high = low;
    for (const Range& r : intervals) {
        low = std::min(low, r.first);
        high = std::max(high, r.first);
    }
    const auto span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    constexpr int digit_bits = 11;
    constexpr size_t buckets = size_t{1} << digit_bits;
    std::vector<Range> scratch(intervals.size());
    std::vector<size_t> offsets(buckets);
    for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += digit_bits) {
        auto digit = [&](const Range& r) {
            return static_cast<size_t>(
                ((static_cast<std::uint64_t>(r.first) - static_cast<std::uint64_t>(low)) >> shift) &
                (buckets - 1));
        };
        std::fill(offsets.begin(), offsets.end(), 0);
        for (const Range& r : intervals)
            ++offsets[digit(r)];
        size_t sum = 0;
        for (size_t& o : offsets)
            sum += std::exchange(o, sum);
        for (const Range& r : intervals)
            scratch[offsets[digit(r)]++] = r;
        intervals.swap(scratch);
    }
}

// Points in the union of intervals sorted by start.
std::int64_t merged_length_of_sorted(const std::vector<Range>& intervals) {
    if (intervals.empty())
        return 0;
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

std::int64_t merged_length(std::vector<Range>& intervals) {
    // By start alone: the merge takes the furthest stop of intervals that overlap.
    sort_by_start(intervals);
    return merged_length_of_sorted(intervals);
}

// Boxes of integer points, all of the same dimension, stored flat: box i is
// ranges[i * dims, (i + 1) * dims). A stencil's wave footprint has tens of thousands of them
// (one a row of linear addresses), so they share one allocation.
struct BoxList {
    size_t dims = 0;
    std::vector<Range> ranges;

    size_t size() const { return dims == 0 ? 0 : ranges.size() / dims; }
    const Range* box(size_t i) const { return ranges.data() + i * dims; }
    void append(const BoxList& other) {
        if (other.ranges.empty())
            return;
        KERNCAST_CHECK(dims == 0 || dims == other.dims, "boxes of different dimensions");
        dims = other.dims;
        ranges.insert(ranges.end(), other.ranges.begin(), other.ranges.end());
    }
};

// Sum of leaf(cross-section) over all points of the outer dimensions of a union of boxes:
// sweep the first dimension over the boundaries of the boxes, recurse on the rest for the
// boxes covering each slab; the last dimension's intervals go to `leaf`.
template <class Leaf>
std::int64_t sweep(const std::vector<const Range*>& boxes, size_t dims, size_t dim,
                   const Leaf& leaf) {
    if (boxes.empty())
        return 0;
    if (dim + 1 == dims) {
        std::vector<Range> intervals;
        intervals.reserve(boxes.size());
        for (const Range* box : boxes)
            intervals.push_back(box[dim]);
        return leaf(intervals);
    }
    std::vector<std::int64_t> cuts;
    cuts.reserve(2 * boxes.size());
    for (const Range* box : boxes) {
        cuts.push_back(box[dim].first);
        cuts.push_back(box[dim].second + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::int64_t total = 0, previous_value = 0;
    std::vector<const Range*> covering, previous;
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        covering.clear();
        for (const Range* box : boxes)
            if (box[dim].first <= cuts[k] && cuts[k] <= box[dim].second)
                covering.push_back(box);
        // Consecutive slabs covered by the same boxes have the same cross-section.
        const std::int64_t value =
            covering == previous ? previous_value : sweep(covering, dims, dim + 1, leaf);
        total += value * (cuts[k + 1] - cuts[k]);
        std::swap(previous, covering);
        previous_value = value;
    }
    return total;
}

template <class Leaf> std::int64_t sweep(const BoxList& boxes, const Leaf& leaf) {
    if (boxes.size() == 0)
        return 0;
    if (boxes.dims == 1) { // intervals: straight to the leaf, without the pointer list
        std::vector<Range> intervals = boxes.ranges;
        return leaf(intervals);
    }
    std::vector<const Range*> pointers;
    pointers.reserve(boxes.size());
    for (size_t i = 0; i < boxes.size(); ++i)
        pointers.push_back(boxes.box(i));
    return sweep(pointers, boxes.dims, 0, leaf);
}

// Exact number of integer points in a union of boxes.
std::int64_t union_volume(const BoxList& boxes) {
    return sweep(boxes, [](std::vector<Range>& intervals) { return merged_length(intervals); });
}

// Granules of `granule_bytes` that a union of element boxes (last dimension in elements of
// `element_bytes`) covers only partly.
std::int64_t partial_granules(const BoxList& element_boxes, std::int64_t element_bytes,
                              std::int64_t granule_bytes) {
    return sweep(element_boxes, [&](std::vector<Range>& intervals) {
        sort_by_start(intervals);
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

// Whether box `outer` contains box `inner`, both of `dims` ranges.
bool contains(const Range* outer, const Range* inner, size_t dims) {
    for (size_t k = 0; k < dims; ++k)
        if (inner[k].first < outer[k].first || inner[k].second > outer[k].second)
            return false;
    return true;
}

// Makes `a` the union of boxes a and b (`dims` ranges each) and returns true where that union
// is a box: one holds the other, or they agree in every dimension but one, where they overlap
// or touch.
bool absorb(Range* a, const Range* b, size_t dims) {
    if (contains(a, b, dims))
        return true;
    if (contains(b, a, dims)) {
        std::copy(b, b + dims, a);
        return true;
    }
    size_t differing = dims;
    for (size_t k = 0; k < dims; ++k) {
        if (a[k] == b[k])
            continue;
        if (differing != dims)
            return false; // two dimensions differ
        differing = k;
    }
    Range& r = a[differing];
    const Range& other = b[differing];
    if (other.second + 1 < r.first || r.second + 1 < other.first)
        return false; // apart
    r = {std::min(r.first, other.first), std::max(r.second, other.second)};
    return true;
}

// Replaces the boxes of `boxes` (`dims` ranges each, stored one after another) by fewer boxes
// with the same union, merging while any two make a box; a box merged into an earlier one is
// replaced by the last. A stencil's accesses are shifted copies of one box: the range-2 star's
// 13 become 3 (the x neighbours with the centre, the y and the z neighbours each in one), the
// (2r+1)^2 of a box stencil one, so a footprint enumerates a fraction of the rows. The union,
// and every count made from it, is unchanged.
void merge_boxes(std::vector<Range>& boxes, size_t dims) {
    size_t n = dims == 0 ? 0 : boxes.size() / dims;
    const auto box = [&](size_t i) { return boxes.data() + i * dims; };
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n;) {
                if (absorb(box(i), box(j), dims)) {
                    if (j + 1 < n)
                        std::copy(box(n - 1), box(n), box(j));
                    --n;
                    changed = true;
                } else {
                    ++j;
                }
            }
    }
    boxes.resize(n * dims);
}

// Appends one box of element indices of `layout` to `boxes` as granules of `granule_bytes`:
// the box itself with its last dimension in granules (row space, or one dimension), else one
// interval of linear granules per row of its outer dimensions.
void append_granules(BoxList& boxes, std::vector<Range> box, const FootprintArray& layout,
                     std::int64_t granule_bytes) {
    const std::int64_t eb = layout.element_bytes;
    auto to_granules = [&](std::int64_t first, std::int64_t last) {
        return std::pair{floor_div(eb * (first + layout.offset_elements), granule_bytes),
                         floor_div(eb * (last + layout.offset_elements), granule_bytes)};
    };
    if (layout.space == AddressSpace::rows || box.size() == 1) {
        box.back() = to_granules(box.back().first, box.back().second);
        boxes.dims = box.size();
        boxes.ranges.insert(boxes.ranges.end(), box.begin(), box.end());
        return;
    }
    size_t n = box.size();
    std::vector<std::int64_t> stride(n, 1);
    for (size_t k = n - 1; k-- > 0;)
        stride[k] = stride[k + 1] * layout.shape[k + 1];
    // Inner dimensions the box spans whole are one contiguous run with the next one out: an
    // [h, w, 3] image's pixels of a block of rows are one interval a row, not one per pixel
    // (a layer of thousands of blocks made millions of intervals).
    std::vector<std::int64_t> extent(layout.shape.begin(), layout.shape.end());
    while (n > 1 && box[n - 1].first == 0 && box[n - 1].second == extent[n - 1] - 1) {
        box[n - 2] = {box[n - 2].first * stride[n - 2],
                      box[n - 2].second * stride[n - 2] + stride[n - 2] - 1};
        extent[n - 2] *= stride[n - 2];
        stride[n - 2] = 1;
        --n;
    }
    // Runs along the next dimension out whose gaps are shorter than a granule touch every
    // granule between the first run and the last (an aligned granule fits in no gap): one
    // interval, exactly. Two of an [h, w, 3] image's channels over a block's pixels are one
    // run of sectors a row, not one a pixel.
    while (n > 1) {
        const std::int64_t run = box[n - 1].second - box[n - 1].first + 1;
        if ((stride[n - 2] - run) * eb >= granule_bytes)
            break;
        box[n - 2] = {box[n - 2].first * stride[n - 2] + box[n - 1].first,
                      box[n - 2].second * stride[n - 2] + box[n - 1].second};
        stride[n - 2] = 1;
        --n;
    }
    std::vector<std::int64_t> at(n - 1);
    for (size_t k = 0; k + 1 < n; ++k)
        at[k] = box[k].first;
    boxes.dims = 1;
    while (true) {
        std::int64_t row = 0;
        for (size_t k = 0; k + 1 < n; ++k)
            row += at[k] * stride[k];
        boxes.ranges.push_back(to_granules(row + box[n - 1].first, row + box[n - 1].second));
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

} // namespace

struct WaveFootprints::State {
    struct Access {
        size_t array = 0;
        bool store = false;
        std::vector<std::string> variables;          // the access's domain variables
        std::array<std::string, 3> block_variable{}; // "" when the access has none on that axis
        ::isl::set domain;                           // over `variables`, parameters fixed
        ::isl::map elements;                         // variables -> element address tuple
    };
    mutable isl::Context ctx; // before the sets that live in it
    // Parsed block restrictions by their text, and element sets by array, filter and blocks:
    // each wave's sets are asked for more than once (granule sizes, accesses alike). At most
    // max_cached_sets each (a sweep of waves would otherwise keep every one).
    static constexpr std::size_t max_cached_sets = 256;
    mutable std::map<std::string, ::isl::set> parsed_blocks;
    mutable std::map<std::string, ::isl::set> element_sets;
    std::vector<FootprintArray> arrays;
    std::vector<Access> accesses;
    kernel::Dim3 grid{1, 1, 1};
    ::isl::set points_domain; // mapped indices only
    std::array<std::string, 3> mapped_index{};
    std::array<std::string, 3> block_index{}; // explicit block indices (no global mapping)
    std::array<std::int64_t, 3> lower{0, 0, 0};
    std::array<std::int64_t, 3> block_span{1, 1, 1}; // points of one block along each axis

    // Fast path: when the domain is a box over the mapped indices and every subscript of an
    // array is +-index + constant with each axis used at most once, every block box maps to
    // a box of addresses and footprints are unions of boxes, counted exactly without isl.
    // A subscript may also add one sequential index of unit coefficient whose range is
    // constant (a filter's row in input[y + i, x + j]): the box then widens by that range.
    // A staging statement's load (kernel::TileDimension) reads each block's tile whatever the
    // block's points: along a dimension, blocks first..end-1 of `axis` hold constant +
    // tile_step * [first, end - 1] + [0, tile_extent), clipped to [0, clip_end).
    struct DimMap {
        int axis = -1; // -1: no mapped index (a constant, or a sequential range alone)
        std::int64_t sign = 1;
        std::int64_t constant = 0;
        std::int64_t offset_low = 0, offset_high = 0; // the sequential index's range added
        bool sequential = false;
        bool tile = false;
        std::int64_t tile_step = 0, tile_extent = 0;
        std::int64_t clip_end = std::numeric_limits<std::int64_t>::max();
    };
    struct BoxAccess {
        size_t array = 0;
        bool store = false;
        std::vector<DimMap> dims;
    };
    bool domain_is_box = false;
    std::array<std::int64_t, 3> domain_low{0, 0, 0}, domain_high{0, 0, 0}; // inclusive
    // The range of every sequential index, when the whole domain is a box (the mapped box
    // times these ranges); empty otherwise.
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> sequential_ranges;
    std::vector<BoxAccess> box_accesses;
    std::vector<bool> array_uses_boxes;
    bool use_boxes = true;

    BoxList granule_boxes(size_t array, const std::vector<BlockBox>& blocks,
                          std::int64_t granule_bytes, AccessFilter filter) const {
        BoxList boxes;
        const FootprintArray& layout = arrays[array];
        // The accesses of the array and filter, stably sorted by the values of their constant
        // subscripts (a channel): the boxes of one constant are merged first, then all of them.
        // A greedy merge over all at once can pair channels before the stencil's offsets and be
        // left with pieces that no longer form boxes (hk_linear's 27 loads: 18 pieces, one
        // interval per pixel, instead of one box).
        std::vector<std::pair<std::vector<std::int64_t>, const BoxAccess*>> keyed;
        for (const auto& access : box_accesses) {
            if (access.array != array || (filter == AccessFilter::loads && access.store) ||
                (filter == AccessFilter::stores && !access.store))
                continue;
            std::vector<std::int64_t> constants;
            for (const DimMap& d : access.dims)
                if (d.axis < 0 && !d.sequential)
                    constants.push_back(d.constant);
            keyed.emplace_back(std::move(constants), &access);
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        if (keyed.empty())
            return boxes;
        const size_t dims = keyed.front().second->dims.size();
        KERNCAST_CHECK(dims > 0, "box footprints of a scalar");
        std::vector<Range> group, access_boxes;
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
            // Per access its box, in the order of the values of its constant subscripts.
            access_boxes.clear();
            for (size_t first = 0; first < keyed.size();) {
                size_t end = first;
                group.clear();
                for (; end < keyed.size() && keyed[end].first == keyed[first].first; ++end) {
                    const BoxAccess& access = *keyed[end].second;
                    const size_t start = group.size();
                    for (const DimMap& d : access.dims)
                        group.push_back(d.tile ? tile_range(d, block) : index_range(d, index));
                    // A tile clipped away (no element of the array) is no box.
                    if (std::any_of(group.begin() + static_cast<long>(start), group.end(),
                                    [](const Range& r) { return r.first > r.second; }))
                        group.resize(start);
                }
                merge_boxes(group, dims);
                access_boxes.insert(access_boxes.end(), group.begin(), group.end());
                first = end;
            }
            merge_boxes(access_boxes, dims);
            for (size_t i = 0; i + dims <= access_boxes.size(); i += dims)
                append_granules(
                    boxes,
                    std::vector<Range>(access_boxes.begin() + static_cast<long>(i),
                                       access_boxes.begin() + static_cast<long>(i + dims)),
                    layout, granule_bytes);
        }
        return boxes;
    }

    // A subscript's elements over the mapped indices' ranges `index`.
    static Range index_range(const DimMap& d,
                             const std::array<std::pair<std::int64_t, std::int64_t>, 3>& index) {
        Range range{d.constant, d.constant};
        if (d.axis >= 0) {
            const auto& r = index[static_cast<size_t>(d.axis)];
            range = d.sign > 0 ? Range{d.constant + r.first, d.constant + r.second}
                               : Range{d.constant - r.second, d.constant - r.first};
        }
        range.first += d.offset_low;
        range.second += d.offset_high;
        return range;
    }

    // The union of the tiles of `block`'s blocks along one dimension (first > second: none).
    static Range tile_range(const DimMap& d, const BlockBox& block) {
        const size_t a = static_cast<size_t>(std::max(d.axis, 0));
        const std::int64_t first = d.axis >= 0 ? block.first[a] : 0;
        const std::int64_t last = d.axis >= 0 ? block.end[a] - 1 : 0;
        return {std::max<std::int64_t>(0, d.constant + d.tile_step * first),
                std::min(d.clip_end, d.constant + d.tile_step * last + d.tile_extent) - 1};
    }

    ::isl::set restrict_to(const Access& access, const std::vector<BlockBox>& blocks) const {
        std::vector<std::string> pieces;
        for (const auto& box : blocks) {
            std::vector<std::string> constraints;
            for (size_t a = 0; a < 3; ++a)
                if (!access.block_variable[a].empty())
                    constraints.push_back(std::to_string(box.first[a]) +
                                          " <= " + access.block_variable[a] + " < " +
                                          std::to_string(box.end[a]));
            pieces.push_back(constraints.empty()
                                 ? "true"
                                 : fmt::format("({})", fmt::join(constraints, " and ")));
        }
        if (pieces.empty())
            pieces.push_back("false");
        // Accesses over the same variables share the set (a stencil's loads: one parse for all).
        const std::string text = fmt::format("{{ [{}] : {} }}", fmt::join(access.variables, ", "),
                                             fmt::join(pieces, " or "));
        auto box = parsed_blocks.find(text);
        if (box == parsed_blocks.end()) {
            if (parsed_blocks.size() >= max_cached_sets)
                parsed_blocks.clear();
            box = parsed_blocks.emplace(text, isl::parse_set(ctx, text)).first;
        }
        return checked("restricting an access to thread blocks",
                       [&] { return access.domain.intersect(box->second); });
    }

    // Element addresses of `array` touched by the blocks.
    ::isl::set element_set(size_t array, const std::vector<BlockBox>& blocks,
                           AccessFilter filter) const {
        // The sector and the line granules of one wave ask for the same elements.
        std::string key = fmt::format("{} {}", array, static_cast<int>(filter));
        for (const auto& box : blocks)
            key += fmt::format(" {}:{}", fmt::join(box.first, ","), fmt::join(box.end, ","));
        if (const auto at = element_sets.find(key); at != element_sets.end())
            return at->second;
        if (element_sets.size() >= max_cached_sets)
            element_sets.clear();
        return element_sets.emplace(key, compute_element_set(array, blocks, filter)).first->second;
    }

    ::isl::set compute_element_set(size_t array, const std::vector<BlockBox>& blocks,
                                   AccessFilter filter) const {
        std::optional<::isl::set> all;
        for (const auto& access : accesses) {
            if (access.array != array || (filter == AccessFilter::loads && access.store) ||
                (filter == AccessFilter::stores && !access.store))
                continue;
            const ::isl::set image = checked("computing the addresses of an access", [&] {
                return restrict_to(access, blocks).apply(access.elements);
            });
            all = all ? all->unite(image) : image;
        }
        if (!all)
            return isl::parse_set(ctx, fmt::format("{{ [{}] : false }}", dims(array, "e")));
        return all->coalesce();
    }

    std::string dims(size_t array, const char* prefix) const {
        const size_t n = arrays[array].space == AddressSpace::rows ? arrays[array].shape.size() : 1;
        std::vector<std::string> names;
        for (size_t k = 0; k < n; ++k)
            names.push_back(prefix + std::to_string(k));
        return fmt::format("{}", fmt::join(names, ", "));
    }

    ::isl::map granule_map(size_t array, std::int64_t granule_bytes) const {
        const size_t n = arrays[array].space == AddressSpace::rows ? arrays[array].shape.size() : 1;
        std::vector<std::string> in, out;
        for (size_t k = 0; k < n; ++k) {
            in.push_back("e" + std::to_string(k));
            out.push_back(k + 1 < n
                              ? in.back()
                              : "floor((" + std::to_string(arrays[array].element_bytes) + "*" +
                                    in.back() + ")/" + std::to_string(granule_bytes) + ")");
        }
        return isl::parse_map(
            ctx, fmt::format("{{ [{}] -> [{}] }}", fmt::join(in, ", "), fmt::join(out, ", ")));
    }

    ::isl::set granule_set(size_t array, const std::vector<BlockBox>& blocks,
                           std::int64_t granule_bytes, AccessFilter filter) const {
        const ::isl::set elements = element_set(array, blocks, filter);
        const ::isl::map to_granule = granule_map(array, granule_bytes);
        return checked("computing granules", [&] { return elements.apply(to_granule); }).coalesce();
    }

    // Steps of the constructor (WaveFootprints::WaveFootprints).
    struct Candidate {
        size_t array;
        bool store;
        const analysis::AccessInfo* access;
    };
    std::vector<Candidate> collect_arrays(const analysis::KernelAnalysis& analysis,
                                          const ParameterValues& values,
                                          std::int64_t row_alignment_bytes, bool force_linear);
    void read_domain(const analysis::KernelAnalysis& analysis, const ParameterValues& values);
    std::optional<BoxAccess> box_access(const analysis::KernelAnalysis& analysis,
                                        const ParameterValues& values,
                                        const Candidate& candidate) const;
    std::optional<BoxAccess> tile_access(const kernel::StatementSpec& staging,
                                         const ParameterValues& values,
                                         const Candidate& candidate) const;
    Access isl_access(const analysis::KernelAnalysis& analysis, const ParameterValues& values,
                      const Candidate& candidate);
};

// Every global, directly addressed array of the kernel with its layout at the parameter values;
// one candidate per access.
std::vector<WaveFootprints::State::Candidate>
WaveFootprints::State::collect_arrays(const analysis::KernelAnalysis& analysis,
                                      const ParameterValues& values,
                                      std::int64_t row_alignment_bytes, bool force_linear) {
    std::vector<Candidate> candidates;
    for (const auto& access : analysis.accesses) {
        if (access.indirect || access.space != kernel::MemorySpace::global)
            continue;
        const kernel::ArrayDecl* decl = analysis.spec.find_array(access.array);
        KERNCAST_CHECK(decl != nullptr, "access to an undeclared array " + access.array);
        auto known = std::find_if(arrays.begin(), arrays.end(),
                                  [&](const FootprintArray& a) { return a.name == access.array; });
        if (known == arrays.end()) {
            FootprintArray layout;
            layout.name = access.array;
            layout.element_bytes = kernel::data_type_bytes(decl->dtype);
            for (const auto& extent : decl->shape)
                layout.shape.push_back(kernel::evaluate_integer(*extent, values));
            if (decl->offset)
                layout.offset_elements = kernel::evaluate_integer(*decl->offset, values);
            const bool aligned_rows =
                layout.shape.size() >= 2 &&
                (layout.shape.back() * layout.element_bytes) % row_alignment_bytes == 0;
            layout.space =
                aligned_rows && !force_linear ? AddressSpace::rows : AddressSpace::linear;
            arrays.push_back(layout);
            known = arrays.end() - 1;
        }
        const size_t array = static_cast<size_t>(known - arrays.begin());
        const bool store = access.direction != analysis::Direction::load;
        (store ? known->stored : known->loaded) = true;
        candidates.push_back({array, store, &access});
    }
    return candidates;
}

namespace {

bool thread_mapped(const kernel::KernelSpec& spec, const std::string& index) {
    for (size_t a = 0; a < 3; ++a)
        if (spec.threads.global[a] == index || spec.threads.block[a] == index ||
            spec.threads.local[a] == index)
            return true;
    return false;
}

// The kernel's domain at the parameter values (`full`) and over its thread-mapped indices
// alone (returned), in `ctx`.
::isl::set mapped_points(isl::Context& ctx, const analysis::KernelAnalysis& analysis,
                         const ParameterValues& values, ::isl::set* full) {
    const kernel::KernelSpec& spec = analysis.spec;
    ::isl::set domain = fix_parameters(
        isl::parse_set(ctx, spec.points_domain.empty() ? spec.domain : spec.points_domain),
        analysis.parameters, values.values());
    if (full)
        *full = domain;
    const auto indices = isl::dim_names(domain.get(), isl_dim_set);
    for (size_t k = indices.size(); k-- > 0;)
        if (!thread_mapped(analysis.spec, indices[k]))
            domain = ::isl::manage(
                isl_set_project_out(domain.copy(), isl_dim_set, static_cast<unsigned>(k), 1));
    return domain;
}

// What the footprints read of the domain at the parameter values, whatever the launch.
struct DomainFacts {
    std::array<std::int64_t, 3> low{0, 0, 0}, high{0, 0, 0}; // each global index's range
    std::array<std::int64_t, 3> block_index_max{0, 0, 0};    // explicit block indices'
    bool is_box = false; // the mapped points are their bounding box
    // The whole domain is the mapped box times these ranges of the other indices (else empty).
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> sequential_ranges;
};

// A box of `names` with `bounds`, equal to `set`?
bool equals_box(isl::Context& ctx, const std::vector<std::string>& names,
                const std::vector<std::string>& bounds, const ::isl::set& set) {
    const ::isl::set box = isl::parse_set(
        ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "), fmt::join(bounds, " and ")));
    return box.is_equal(set);
}

DomainFacts domain_facts(const analysis::KernelAnalysis& analysis, const ParameterValues& values) {
    const kernel::KernelSpec& spec = analysis.spec;
    isl::Context ctx;
    ::isl::set full;
    const ::isl::set points = mapped_points(ctx, analysis, values, &full);
    const auto kept = isl::dim_names(points.get(), isl_dim_set);
    auto position = [&](const std::string& index) {
        return static_cast<int>(std::find(kept.begin(), kept.end(), index) - kept.begin());
    };
    DomainFacts facts;
    std::vector<std::string> bounds;
    for (size_t a = 0; a < 3; ++a) {
        const std::string& index = spec.threads.global[a];
        if (index.empty() && !spec.threads.block[a].empty())
            facts.block_index_max[a] =
                isl::to_int64(points.dim_max_val(position(spec.threads.block[a])).get());
        if (index.empty())
            continue;
        facts.high[a] = isl::to_int64(points.dim_max_val(position(index)).get());
        facts.low[a] = isl::to_int64(points.dim_min_val(position(index)).get());
    }
    // Fast path eligibility (see granule_boxes): the domain equals its bounding box.
    for (const auto& name : kept)
        for (size_t a = 0; a < 3; ++a)
            if (spec.threads.global[a] == name)
                bounds.push_back(std::to_string(facts.low[a]) + " <= " + name +
                                 " <= " + std::to_string(facts.high[a]));
    if (!kept.empty() && bounds.size() == kept.size())
        facts.is_box = equals_box(ctx, kept, bounds, points);
    const auto indices = isl::dim_names(full.get(), isl_dim_set);
    if (!facts.is_box || indices.size() == kept.size())
        return facts;
    // The whole domain a box too: each sequential index takes its range at every point.
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> ranges;
    for (size_t k = 0; k < indices.size(); ++k) {
        if (std::find(kept.begin(), kept.end(), indices[k]) != kept.end())
            continue;
        const std::int64_t low = isl::to_int64(full.dim_min_val(static_cast<int>(k)).get());
        const std::int64_t high = isl::to_int64(full.dim_max_val(static_cast<int>(k)).get());
        ranges[indices[k]] = {low, high};
        bounds.push_back(std::to_string(low) + " <= " + indices[k] + " <= " + std::to_string(high));
    }
    if (equals_box(ctx, indices, bounds, full))
        facts.sequential_ranges = std::move(ranges);
    return facts;
}

} // namespace

// Points and grid from the kernel's domain over the thread-mapped indices. The domain's facts
// depend on the kernel and its parameter values alone: every launch of an explore shares them
// (support/memo.hpp); only a domain that is not a box is read into ctx for the isl path.
void WaveFootprints::State::read_domain(const analysis::KernelAnalysis& analysis,
                                        const ParameterValues& values) {
    const kernel::KernelSpec& spec = analysis.spec;
    static support::Memo<DomainFacts> memo;
    std::string key = spec.points_domain.empty() ? spec.domain : spec.points_domain;
    for (size_t a = 0; a < 3; ++a)
        key += '\0' + spec.threads.global[a] + '\0' + spec.threads.block[a] + '\0' +
               spec.threads.local[a];
    for (size_t k = 0; k < analysis.parameters.size() && k < values.values().size(); ++k)
        key += '\0' + analysis.parameters[k] + '=' + std::to_string(values.values()[k]);
    const DomainFacts facts = memo.get(key, [&] { return domain_facts(analysis, values); });
    for (size_t a = 0; a < 3; ++a) {
        const std::string& index = spec.threads.global[a];
        if (index.empty() && !spec.threads.block[a].empty()) {
            // Explicit block index (blocks: {x: bj}): the grid is its range.
            block_index[a] = spec.threads.block[a];
            grid[a] = std::max<std::int64_t>(1, facts.block_index_max[a] + 1);
        }
        if (index.empty())
            continue;
        auto form = analysis.index_forms.find(index);
        KERNCAST_CHECK(form != analysis.index_forms.end(), "no index form for " + index);
        mapped_index[a] = index;
        lower[a] = form->second.constant;
        for (const auto& [name, c] : form->second.coefficients)
            if (auto value = values(name))
                lower[a] += c * *value;
        block_span[a] = analysis.launch.block[a] * analysis.launch.fold[a];
        grid[a] = std::max<std::int64_t>(1, (facts.high[a] - lower[a]) / block_span[a] + 1);
        domain_low[a] = facts.low[a];
        domain_high[a] = facts.high[a];
    }
    domain_is_box = facts.is_box;
    sequential_ranges = facts.sequential_ranges;
    if (!domain_is_box)
        points_domain = mapped_points(ctx, analysis, values, nullptr);
}

// The access as a map from block boxes to address boxes, when every subscript is
// +-(mapped index) + constant with each axis used at most once; nullopt otherwise.
std::optional<WaveFootprints::State::BoxAccess>
WaveFootprints::State::box_access(const analysis::KernelAnalysis& analysis,
                                  const ParameterValues& values, const Candidate& candidate) const {
    const analysis::AccessInfo& access = *candidate.access;
    const auto& statement = analysis.spec.statements[static_cast<size_t>(access.statement)];
    if (!statement.staged_tile.empty())
        return tile_access(statement, values, candidate);
    // A guard that only keeps the points of the kernel file's domain is the clip to the
    // domain's box that every block's index ranges take.
    if ((statement.condition && !statement.guard_is_points_domain) || !statement.within.empty() ||
        access.subscripts.empty())
        return std::nullopt;
    BoxAccess box{candidate.array, candidate.store, {}};
    std::array<bool, 3> used{false, false, false};
    std::set<std::string> used_sequential;
    for (const auto& form : access.subscripts) {
        DimMap dim;
        dim.constant = form.constant;
        std::array<std::int64_t, 3> block_c{0, 0, 0}, thread_c{0, 0, 0}, fold_c{0, 0, 0};
        for (const auto& [name, c] : form.coefficients) {
            if (auto value = values(name)) {
                dim.constant += c * *value;
                continue;
            }
            if (const auto range = sequential_ranges.find(name); range != sequential_ranges.end()) {
                // One sequential index of unit coefficient a subscript, each in one subscript.
                if ((c != 1 && c != -1) || dim.sequential || !used_sequential.insert(name).second)
                    return std::nullopt;
                dim.sequential = true;
                dim.offset_low = c > 0 ? range->second.first : -range->second.second;
                dim.offset_high = c > 0 ? range->second.second : -range->second.first;
                continue;
            }
            // (a plain reference: clang 14 cannot capture a structured binding)
            const std::string& variable_name = name;
            auto variable = std::find_if(analysis.variables.begin(), analysis.variables.end(),
                                         [&](const auto& v) { return v.name == variable_name; });
            if (variable == analysis.variables.end() || variable->axis < 0 ||
                (dim.axis >= 0 && dim.axis != variable->axis))
                return std::nullopt;
            dim.axis = variable->axis;
            const size_t a = static_cast<size_t>(variable->axis);
            (variable->kind == analysis::LaunchVariable::Kind::block    ? block_c
             : variable->kind == analysis::LaunchVariable::Kind::thread ? thread_c
                                                                        : fold_c)[a] = c;
        }
        if (dim.axis >= 0) {
            const size_t a = static_cast<size_t>(dim.axis);
            const std::int64_t B = analysis.launch.block[a], F = analysis.launch.fold[a];
            const std::int64_t sign = block_c[a] / (B * F);
            // A block covers B * F consecutive points under either fold placement; its
            // threads and fold instances take them at strides (F, 1) or, strided, (1, B).
            const bool strided = analysis.launch.fold_placement == kernel::FoldPlacement::strided;
            const std::int64_t thread_stride = strided ? 1 : F, fold_stride = strided ? B : 1;
            const bool ok = !mapped_index[a].empty() && !used[a] && (sign == 1 || sign == -1) &&
                            block_c[a] == sign * B * F &&
                            (B == 1 || thread_c[a] == sign * thread_stride) &&
                            (F == 1 || fold_c[a] == sign * fold_stride);
            if (!ok)
                return std::nullopt;
            used[a] = true;
            dim.sign = sign;
            dim.constant -= sign * lower[a]; // subscript = sign * (index - lower) + constant
        }
        box.dims.push_back(dim);
    }
    return box;
}

// A staging statement's load as the union of its blocks' tiles: a box of blocks holds a box of
// the array when each dimension's tile moves along one axis (each axis for one dimension), by
// no more than its extent (the tiles leave no gap); nullopt otherwise.
std::optional<WaveFootprints::State::BoxAccess>
WaveFootprints::State::tile_access(const kernel::StatementSpec& staging,
                                   const ParameterValues& values,
                                   const Candidate& candidate) const {
    if (candidate.store)
        return std::nullopt;
    const auto evaluate = [&](const kernel::AffineForm& form) -> std::optional<std::int64_t> {
        std::int64_t value = form.constant;
        for (const auto& [name, c] : form.coefficients) {
            const auto v = values(name);
            if (!v)
                return std::nullopt;
            value += c * *v;
        }
        return value;
    };
    BoxAccess box{candidate.array, false, {}};
    std::array<bool, 3> used{false, false, false};
    for (const kernel::TileDimension& tile : staging.staged_tile) {
        DimMap dim;
        dim.tile = true;
        const auto start = evaluate(tile.start), extent = evaluate(tile.extent);
        if (!start || !extent || *extent < 1)
            return std::nullopt;
        dim.constant = *start;
        dim.tile_extent = *extent;
        if (tile.clip) {
            const auto clip = evaluate(*tile.clip);
            if (!clip)
                return std::nullopt;
            dim.clip_end = *clip;
        }
        for (size_t a = 0; a < 3; ++a) {
            if (tile.moves[a] == 0)
                continue;
            if (dim.axis >= 0 || used[a] || mapped_index[a].empty() || tile.moves[a] < 0 ||
                tile.moves[a] > *extent)
                return std::nullopt;
            used[a] = true;
            dim.axis = static_cast<int>(a);
            dim.tile_step = tile.moves[a];
        }
        box.dims.push_back(dim);
    }
    return box;
}

// The access as isl sets: its domain at the parameter values and its element addresses.
WaveFootprints::State::Access
WaveFootprints::State::isl_access(const analysis::KernelAnalysis& analysis,
                                  const ParameterValues& values, const Candidate& candidate) {
    const analysis::AccessInfo& access = *candidate.access;
    Access a;
    a.array = candidate.array;
    a.store = candidate.store;
    a.variables = access.domain_variables;
    for (const auto& v : analysis.variables)
        if (v.kind == analysis::LaunchVariable::Kind::block &&
            std::find(a.variables.begin(), a.variables.end(), v.name) != a.variables.end())
            a.block_variable[static_cast<size_t>(v.axis)] = v.name;
    a.domain =
        fix_parameters(isl::parse_set(ctx, access.domain), analysis.parameters, values.values());
    // Subscripts at fixed parameters, in launch variables.
    std::vector<std::string> subscripts;
    for (const auto& form : access.subscripts) {
        kernel::AffineForm numeric;
        numeric.constant = form.constant;
        for (const auto& [name, c] : form.coefficients) {
            if (auto value = values(name))
                numeric.constant += c * *value;
            else
                numeric.add_term(name, c);
        }
        subscripts.push_back(numeric.to_string());
    }
    const FootprintArray& layout = arrays[candidate.array];
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
    a.elements = isl::parse_map(
        ctx, fmt::format("{{ [{}] -> [{}] }}", fmt::join(a.variables, ", "), fmt::join(out, ", ")));
    return a;
}

WaveFootprints::WaveFootprints(const analysis::KernelAnalysis& analysis,
                               const std::vector<std::int64_t>& params,
                               std::int64_t row_alignment_bytes, bool force_linear, bool force_isl)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    const ParameterValues values(analysis.parameters, params);
    const std::vector<State::Candidate> candidates =
        s.collect_arrays(analysis, values, row_alignment_bytes, force_linear);
    checked("reading the kernel's domain", [&] { s.read_domain(analysis, values); });
    s.array_uses_boxes.assign(s.arrays.size(), s.domain_is_box && !force_isl);
    for (const auto& candidate : candidates) {
        if (!s.array_uses_boxes[candidate.array])
            continue;
        if (auto box = s.box_access(analysis, values, candidate))
            s.box_accesses.push_back(std::move(*box));
        else
            s.array_uses_boxes[candidate.array] = false;
    }
    // isl sets for the arrays that are not unions of boxes.
    for (const auto& candidate : candidates)
        if (!s.array_uses_boxes[candidate.array])
            s.accesses.push_back(checked("reading an access's domain", [&] {
                return s.isl_access(analysis, values, candidate);
            }));
}

WaveFootprints::~WaveFootprints() = default;

const std::vector<FootprintArray>& WaveFootprints::arrays() const {
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
        pieces.push_back(
            constraints.empty() ? "true" : fmt::format("({})", fmt::join(constraints, " and ")));
    }
    if (pieces.empty())
        return 0;
    const ::isl::set box = isl::parse_set(
        s.ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "), fmt::join(pieces, " or ")));
    const ::isl::set inside =
        checked("restricting the domain", [&] { return s.points_domain.intersect(box); });
    return isl::count_points(s.ctx, inside.get());
}

std::int64_t WaveFootprints::count(size_t array, const std::vector<BlockBox>& blocks,
                                   std::int64_t granule_bytes, AccessFilter filter) const {
    if (state_->array_uses_boxes[array]) {
        const auto boxes = state_->granule_boxes(array, blocks, granule_bytes, filter);
        return union_volume(boxes);
    }
    const ::isl::set granules = state_->granule_set(array, blocks, granule_bytes, filter);
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
        if (a.dims == 1 && b.dims == 1) {
            // Intervals of linear addresses: sort each once, and A u B's order is their merge.
            sort_by_start(a.ranges);
            sort_by_start(b.ranges);
            std::vector<Range> both(a.ranges.size() + b.ranges.size());
            std::merge(a.ranges.begin(), a.ranges.end(), b.ranges.begin(), b.ranges.end(),
                       both.begin(), by_start);
            return merged_length_of_sorted(a.ranges) + merged_length_of_sorted(b.ranges) -
                   merged_length_of_sorted(both);
        }
        const std::int64_t only_a = union_volume(a), only_b = union_volume(b);
        a.append(b);
        return only_a + only_b - union_volume(a);
    }
    const ::isl::set a = state_->granule_set(array, first, granule_bytes, filter);
    const ::isl::set b = state_->granule_set(array, second, granule_bytes, filter);
    const ::isl::set both =
        checked("intersecting footprints", [&] { return a.intersect(b).coalesce(); });
    return isl::count_points(state_->ctx, both.get());
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
    const ::isl::set written = s.element_set(array, blocks, AccessFilter::stores);
    const ::isl::map to_granule = s.granule_map(array, granule_bytes);
    const ::isl::set partial = checked("computing partly written granules", [&] {
        // Every element of a touched granule, minus the written ones: what is missing.
        const ::isl::set span = written.apply(to_granule).apply(to_granule.reverse());
        return span.subtract(written).apply(to_granule).coalesce();
    });
    return isl::count_points(s.ctx, partial.get());
}

} // namespace kerncast::models
