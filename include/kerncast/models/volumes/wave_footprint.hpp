// Footprints of sets of thread blocks — a block, a wave, the layer sets before a wave — as
// exact counts of distinct memory granules (32 B sectors, 128 B lines) per array, computed
// with implicit isl sets (Ernst et al. 2023, sec. 4.4, 4.4.1) instead of enumerating threads.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kerncast::models {

using BlockIndex = std::array<std::int64_t, 3>; // blockIdx x, y, z

// A box of thread blocks: first <= blockIdx < end along every axis.
struct BlockBox {
    BlockIndex first{0, 0, 0};
    BlockIndex end{1, 1, 1};
    std::int64_t blocks() const;
};

// The blocks with linear ids [first, end) in launch order (x fastest, then y, then z) as at
// most five disjoint boxes: a partial row, whole rows, whole planes, whole rows, a partial row.
std::vector<BlockBox> block_boxes(std::int64_t first, std::int64_t end, const BlockIndex& grid);

enum class AccessFilter { loads, stores, all };

// How an array's addresses are spaced out for counting. Rows: each row of the last dimension
// is its own address space (sec. 4.4.1, multi-dimensional addressing) — exact when rows are
// whole multiples of the largest granule and subscripts stay inside their row. Linear: byte
// addresses of the row-major layout, always exact, slower to count.
enum class AddressSpace { rows, linear };

// One array as the footprint counts see it: element size, extents and offset at the given
// parameters, its address space, and whether the kernel loads / stores it. (Not
// codegen::ArrayStorage: that one is a buffer of the generated kernel, accumulators included.)
struct FootprintArray {
    std::string name;
    int element_bytes = 0;
    std::vector<std::int64_t> shape; // extents at the given parameters, outermost first
    std::int64_t offset_elements = 0;
    AddressSpace space = AddressSpace::linear;
    bool loaded = false;
    bool stored = false;
};

class WaveFootprints {
public:
    // Global, directly addressed accesses of `analysis` at `params`. Arrays whose rows are a
    // multiple of `row_alignment_bytes` use row address spaces unless `force_linear`.
    // Footprints are unions of address boxes, counted directly, when the domain is a box and
    // every subscript of an array is +-(mapped index) + constant; otherwise (or with
    // `force_isl`) isl sets. Both are exact; tests check both against enumeration.
    WaveFootprints(const analysis::KernelAnalysis& analysis,
                   const std::vector<std::int64_t>& params, std::int64_t row_alignment_bytes,
                   bool force_linear = false, bool force_isl = false);
    // Whether array `array` is counted as a union of boxes (the fast path).
    bool counts_boxes(size_t array) const;
    ~WaveFootprints();
    WaveFootprints(const WaveFootprints&) = delete;
    WaveFootprints& operator=(const WaveFootprints&) = delete;

    const std::vector<FootprintArray>& arrays() const;
    // Thread blocks of the launch along x, y, z.
    const BlockIndex& grid() const;
    // Points (thread x fold instances inside the domain) of the blocks.
    std::int64_t points(const std::vector<BlockBox>& blocks) const;

    // Distinct granules of `granule_bytes` that the accesses (of `filter`) of array `array`
    // touch when the blocks run.
    std::int64_t count(size_t array, const std::vector<BlockBox>& blocks,
                       std::int64_t granule_bytes, AccessFilter filter) const;
    // Granules touched by both block sets.
    std::int64_t count_shared(size_t array, const std::vector<BlockBox>& first,
                              const std::vector<BlockBox>& second, std::int64_t granule_bytes,
                              AccessFilter filter) const;
    // Granules the stores of the blocks write only partly (the rest of a partly written
    // granule must come from DRAM when it is evicted incomplete, sec. 4.4).
    std::int64_t partial_store_granules(size_t array, const std::vector<BlockBox>& blocks,
                                        std::int64_t granule_bytes) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace kerncast::models
