// A thread block's warps hold their slots until the block's last warp ends: the block's
// registers, warp slots and shared memory are freed together, when the whole block has
// finished. The warps of a block do not end together, though. Under load their durations vary
// (each waits on its own loads' latencies), and a block lives as long as its slowest warp, so
// the larger the block, the longer its early warps sit idle in their slots, issuing nothing.
//
// kerncast models the warps' durations as independent with a common mean and a coefficient of
// variation cv (standard deviation over mean, `compute.warp_duration_cv`, measured: the H100's
// and H200's from lab/research/warp_drift.cu, docs/machine-format.md). A block of n warps then
// lives E[max of n] = mean x (1 + cv x e_n) on average, e_n the expected maximum of n
// independent standard normal variables (e_1 = 0, e_2 = 1/sqrt(pi), e_32 = 2.07), and its slots
// are busy 1 / (1 + cv x e_n) of that life. The volume model's in-flight limit counts the loads
// of the busy slots only (docs/volume-model.md, Limiters).
#pragma once

namespace kerncast::models {

// E[max(Z_1, ..., Z_n)] for independent standard normal Z_i; n >= 1 (0 for n = 1). Numerical
// integration of n x phi(z) x Phi(z)^(n - 1) x z, accurate to 1e-9; n < 1 is an internal error.
double expected_max_of_standard_normals(int n);

// The fraction of a block's warp slots that hold a running warp, averaged over the block's
// life: 1 / (1 + warp_duration_cv x e_n) for n = warps_per_block. 1 for one warp or cv = 0.
// warps_per_block >= 1 and a finite cv >= 0 (machine validation ensures it), else an internal
// kerncast::Error.
double busy_warp_slot_fraction(int warps_per_block, double warp_duration_cv);

} // namespace kerncast::models
