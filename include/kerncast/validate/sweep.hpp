// The configurations the live mode of `kerncast validate` measures.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <string>
#include <vector>

namespace kerncast::validate {

// The live sweep. "default": the block sizes of Ernst et al. sec. 5.1 with 256 threads
// (models::default_block_sizes) x no folding, 2x in y, 2x in z (models::default_folds), where
// the kernel can take them; a FILE lists one configuration per line, "BLOCK [FOLD]" in the
// triple forms of `kerncast explore` ("32x4x2 1x1x2"), '#' starts a comment.
std::vector<kernel::LaunchConfig> default_sweep(const kernel::KernelSpec& spec);
std::vector<kernel::LaunchConfig> read_sweep_file(const std::string& path);

} // namespace kerncast::validate
