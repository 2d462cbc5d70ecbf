#!/usr/bin/python3
"""The machine files' compute.warp_duration_cv from lab/research/warp_drift.cu's output
(docs/volume-model.md, Limiters; include/kerncast/models/volumes/block_retirement.hpp).

warp_drift.cu times every warp of a block (lane 0's clock64 before its first load and after each
fold instance) and reports, per block shape and fold F, a warp's mean instance duration D and a
block's mean life L (its first warp's start to its last warp's end). With the warps' durations
independent with mean F x D and coefficient of variation cv, a block of n warps lives
F x D x (1 + cv x e_n) on average (e_n: the expected maximum of n standard normal variables), so
each configuration gives cv = (L / (F x D) - 1) / e_n (blocks of one warp give none). The
machine files take the median over all configurations of a run. `warp_drift sizes` runs blocks
of 1 to 32 warps: with independent warps their cv is the same for every size.

  lab/research/warp_duration_cv.py lab/measured/h200-2026-11-27b/warp-drift/warp_drift.jsonl
"""
import json
import math
import statistics
import sys


def expected_max_of_standard_normals(n, intervals=4096):
    """E[max of n standard normals] by Simpson's rule, as block_retirement.cpp computes it."""
    if n == 1:
        return 0.0
    lo, hi = -12.0, 12.0
    h = (hi - lo) / intervals

    def f(z):
        phi = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
        return z * n * phi * (0.5 * math.erfc(-z / math.sqrt(2))) ** (n - 1)

    total = f(lo) + f(hi) + sum((4 if i % 2 else 2) * f(lo + i * h) for i in range(1, intervals))
    return total * h / 3


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    values = []
    print(f"{'block':10s} {'fold':>4s} {'warps':>5s} {'instance':>9s} {'life':>9s} {'cv':>6s}")
    for line in open(sys.argv[1]):
        r = json.loads(line)
        if "instance_cycles" not in r:
            continue
        fold, warps = r["fold"], r["warps"]
        duration = fold * r["instance_cycles"]
        excess = r["block_life_cycles"] / duration - 1
        if warps == 1:  # no maximum to take: what is left is the timing's own overhead
            print(f"{r['block']:10s} {fold:4d} {warps:5d} {r['instance_cycles']:9.1f} "
                  f"{r['block_life_cycles']:9.1f}      - (life / duration - 1 = {excess:.3f})")
            continue
        cv = excess / expected_max_of_standard_normals(warps)
        values.append(cv)
        print(f"{r['block']:10s} {fold:4d} {warps:5d} {r['instance_cycles']:9.1f} "
              f"{r['block_life_cycles']:9.1f} {cv:6.3f}")
    print(f"median over {len(values)} configurations: {statistics.median(values):.3f} "
          f"(range {min(values):.3f} .. {max(values):.3f})")


if __name__ == "__main__":
    main()
