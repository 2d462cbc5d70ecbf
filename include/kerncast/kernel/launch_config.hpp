// LaunchConfig: the launch a kernel file names and the commands override (block, fold and
// where the folded points lie), with its text form.
#pragma once

#include "kerncast/kernel/dim3.hpp"

#include <string>

namespace kerncast::kernel {

// Where the points a thread handles under a fold lie along each folded axis. consecutive: a
// thread takes `fold` neighbouring points (Ernst et al. 2023, 5.2: "thread folding"); strided:
// the block covers blockDim * fold points and a thread takes every blockDim-th of them, the
// block-cyclic tiling of autotuning benchmarks (Kernel Tuner's tile_size_x/y), which keeps a
// warp's lanes on neighbouring points. One placement holds for every axis of a launch.
enum class FoldPlacement { consecutive, strided };

// "consecutive", "strided".
const char* fold_placement_name(FoldPlacement placement);

struct LaunchConfig {
    Dim3 block{1, 1, 1};                                       // threads per block along x, y, z
    Dim3 fold{1, 1, 1};                                        // points per thread along x, y, z
    FoldPlacement fold_placement = FoldPlacement::consecutive; // meaningful when a fold > 1

    friend bool operator==(const LaunchConfig& a, const LaunchConfig& b) {
        return a.block == b.block && a.fold == b.fold && a.fold_placement == b.fold_placement;
    }
    friend bool operator!=(const LaunchConfig& a, const LaunchConfig& b) { return !(a == b); }
};

// Whether a thread's points lie a block apart: a strided placement of a fold over more than one
// point.
bool strided_fold(const LaunchConfig& launch);

// "2x1x1", or "2x1x1:strided" for a strided fold (the text --fold and kernel files' sweeps
// take). A fold of one point per thread is never strided.
std::string fold_text(const LaunchConfig& launch);

} // namespace kerncast::kernel
