// The numbers `kerncast count` reports: a kernel analysis evaluated at one set of parameter
// values, as a plain result struct (the view in count_view.hpp turns it into a Document).
#pragma once

#include "kerncast/analysis/footprint.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::counts {

struct FootprintOptions {
    // Granules to report besides elements, in bytes (the machine's sector and line sizes;
    // the CLI passes 32 and 128, NVIDIA's L1/L2 sector and line).
    std::vector<std::int64_t> granule_bytes;
    std::int64_t warp_size = 32;
    bool enabled = true;
};

struct ParameterValue {
    std::string name;
    std::int64_t value = 0;
    bool representative = false;
};

struct OperationRow {
    std::string dtype;
    std::string operation;
    std::string granularity;
    std::int64_t count = 0;
    bool closed_form = true;
    std::string formula;
};

struct GroupFootprint {
    std::int64_t accesses = 0;
    std::int64_t elements = 0;
    std::vector<std::int64_t> granules; // per FootprintOptions::granule_bytes
};

struct AccessRow {
    int statement = 0;
    std::string array;
    std::string text; // the reference as written, e.g. "src[z, y, x - 1]"
    std::string tag;
    std::string space;
    std::string dtype;
    std::string direction; // "load", "store", "atomic:add"
    std::string granularity;
    std::int64_t count = 0;
    std::int64_t count_per_work_item = 0;
    bool indirect = false;
    analysis::AccessStrides strides;           // zero for indirect accesses
    std::optional<double> access_to_footprint; // none for indirect accesses
    std::string address;                       // byte address, affine in launch variables
    std::string formula;                       // of `count`
    bool closed_form = true;
    std::optional<GroupFootprint> warp;  // warp 0 of block 0, first sequential iteration
    std::optional<GroupFootprint> block; // block 0, all sequential iterations
};

// Accesses with the same pattern, summed: PERFLEX's memory-access features are counts by
// (space, dtype, direction, strides along each thread and block axis, AFR, tag)
// (Stevens & Klöckner 6.1.1).
struct AccessPatternRow {
    std::string space;
    std::string dtype;
    std::string direction;
    std::string granularity;
    std::string tag;
    bool indirect = false;
    std::array<std::int64_t, kernel::axis_count> thread_strides{0, 0, 0};
    std::array<std::int64_t, kernel::axis_count> block_strides{0, 0, 0};
    std::optional<double> access_to_footprint;
    int accesses = 0;       // how many accesses in the kernel have this pattern
    std::int64_t count = 0; // their counts summed (in units of `granularity`)
};

struct BarrierRow {
    int statement = 0;
    std::int64_t per_work_item = 0;
    std::int64_t total_work_items = 0; // per work-item count x threads launched
};

struct CountReport {
    std::string kernel;
    std::string file;
    kernel::LaunchConfig launch;
    std::int64_t threads_per_block = 0;
    std::int64_t subgroups_per_block = 0;
    std::int64_t subgroup_size = 0;
    std::int64_t thread_blocks = 0;
    std::int64_t kernel_launches = 1;
    std::vector<ParameterValue> parameters;
    std::vector<OperationRow> operations;
    std::vector<AccessRow> accesses;
    std::vector<AccessPatternRow> patterns;
    std::vector<BarrierRow> barriers;
    std::vector<std::int64_t> granule_bytes;
};

// `bound` is `analysis` bound to its parameter values (analysis::bind).
CountReport evaluate_counts(const analysis::KernelAnalysis& analysis,
                            const kernel::BoundKernel& bound, const FootprintOptions& footprints);

} // namespace kerncast::models::counts
