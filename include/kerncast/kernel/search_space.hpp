// Search spaces as autotuners write them (Kernel Tuner's tune_params and restrictions, KTT's and
// CLTune's parameters and constraints): a YAML file naming one or more kernel files (variants)
// and the values of every tuning parameter (block sizes, folds and their placement, kernel
// parameters), with restrictions that exclude combinations. `explore --space FILE` predicts
// every combination (docs/autotuning.md).
#pragma once

#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/kernel/launch_config.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::kernel {

// Combinations a space may have before restrictions: enumerating more is refused.
inline constexpr std::int64_t max_space_combinations = 10000000;

struct SpaceRestriction {
    std::string text; // as written: "block_x * block_y <= 1024"
    ExprPtr expression;
    int line = 0; // in the space file
};

struct SearchSpace {
    std::string file;   // path as given
    std::string source; // where the space comes from (free text), "" when not given
    // Kernel files (variants), resolved against the space file's folder.
    std::vector<std::string> kernel_files;
    std::array<std::vector<std::int64_t>, 3> block{{{1}, {1}, {1}}}; // values along x, y, z
    std::array<std::vector<std::int64_t>, 3> fold{{{1}, {1}, {1}}};
    std::vector<FoldPlacement> fold_placements; // empty: each kernel file's own
    // Kernel parameters swept, in file order, each with its values.
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> params;
    std::vector<SpaceRestriction> restrictions;
};

// Input Error naming the file, line and problem for a malformed space: unknown keys, values
// that are not positive integers (block, fold) or integers (params), an unknown placement, a
// restriction that does not parse or names what the space does not define, no kernel file, or
// more than max_space_combinations combinations.
SearchSpace parse_search_space(const std::string& text, const std::string& file);
SearchSpace load_search_space(const std::string& path);

// One combination: which kernel file, its launch and the swept parameters' values.
struct SpacePoint {
    std::size_t kernel = 0; // index into SearchSpace::kernel_files
    LaunchConfig launch;
    std::vector<std::pair<std::string, std::int64_t>> parameters; // the swept values, file order
};

struct SpaceEnumeration {
    std::vector<SpacePoint> points; // kernels, then params, placements, folds, blocks (z to x)
    std::int64_t combinations = 0;  // before restrictions (distinct launches)
    std::int64_t restricted = 0;    // excluded by a restriction
};

// Every combination that meets the restrictions. `file_placements[k]`: kernel file k's own
// placement, used when the space names none. A fold of one point per thread has no placement:
// the combinations that differ only there are one. Restrictions see block_x, block_y, block_z,
// fold_x, fold_y, fold_z, threads (block_x * block_y * block_z), points_per_thread (the folds'
// product), strided (1 for a strided placement, else 0) and every swept parameter; Input Error
// naming the restriction's line when one cannot be evaluated (a division by zero).
SpaceEnumeration enumerate_space(const SearchSpace& space,
                                 const std::vector<FoldPlacement>& file_placements);

// A space file with its kernel files loaded and its combinations enumerated (each file's own
// placement where the space names none): what explore --space and the Python module predict.
// Input Error when the restrictions exclude every combination.
struct LoadedSearchSpace {
    SearchSpace space;
    std::vector<KernelSpec> kernels; // space.kernel_files, loaded
    SpaceEnumeration combinations;
};
LoadedSearchSpace load_search_space_with_kernels(const std::string& path);

} // namespace kerncast::kernel
