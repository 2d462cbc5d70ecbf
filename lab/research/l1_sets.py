#!/usr/bin/python3
"""Fits the L1 geometry behind lab/research/l1_sets.cu's pointer chases and prints Markdown.

    lab/research/l1_sets.py [--t-miss CYCLES] FILE.json...

Each file's `random` series: mean cycles per load of a cyclic chase over K random 128 B lines.
The miss fraction is m(K) = (t(K) - t_hit) / (t_miss - t_hit), t_hit the median of the smallest
tenth of the K (every line an L1 hit) and t_miss the median of the largest tenth (every line
missed), or `--t-miss CYCLES` for a file whose largest K do not reach that plateau (the L2 hit
latency of a run that did, on the same GPU). Model: an L1 of
C lines in C / W sets of W ways, each line's set uniform at random (hashed placement, which the
`stride` series supports), LRU within a set. Under a cyclic chase a set that drew more than W
of the K lines misses on all of them and the others hit, so the expected miss fraction is
P(Binomial(K - 1, W / C) >= W): the chance that at least W of the other lines share a line's
set. W = C is a fully associative LRU L1 (no misses up to C lines, all misses beyond). For each
W the capacity C is fitted (least squares over the K of the file); the table gives each W's
best C and squared error. Standard library and NumPy.
"""
import json
import math
import statistics
import sys

import numpy as np


def miss_fractions(path, t_miss=None):
    data = json.load(open(path))
    rows = sorted((r["k"], statistics.median(r["cycles_per_load"])) for r in data["random"])
    tenth = max(3, len(rows) // 10)
    t_hit = statistics.median(c for _, c in rows[:tenth])
    if t_miss is None:
        t_miss = statistics.median(c for _, c in rows[-tenth:])
    ks = np.array([k for k, _ in rows])
    return data, ks, np.array([(c - t_hit) / (t_miss - t_hit) for _, c in rows]), t_hit, t_miss


def binomial_tail(n, p, w):
    """P(X >= w) for X ~ Binomial(n, p), by summing the lower terms in log space."""
    if w <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if n >= w else 0.0
    below = 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    for x in range(0, min(w, n + 1)):
        below += math.exp(math.lgamma(n + 1) - math.lgamma(x + 1) - math.lgamma(n - x + 1) +
                          x * log_p + (n - x) * log_q)
    return max(0.0, 1.0 - below)


def model(ks, lines, ways):
    if ways >= lines:  # fully associative LRU
        return np.array([0.0 if k <= lines else 1.0 for k in ks])
    return np.array([binomial_tail(int(k) - 1, ways / lines, ways) for k in ks])


def main():
    args = sys.argv[1:]
    t_miss = None
    if args[:1] == ["--t-miss"]:
        t_miss, args = float(args[1]), args[2:]
    for path in args:
        data, ks, m, t_hit, t_used = miss_fractions(path, t_miss)
        shared = data.get("dynamic_shared_kib", 0)
        draws = len(data["random"][0]["cycles_per_load"])
        print(f"\n### {data['device']}, {shared} KiB dynamic shared memory (`{path}`)\n")
        print(f"K = {ks[0]}..{ks[-1]} ({len(ks)} points, {draws} draws each); t_hit "
              f"{t_hit:.1f} cycles, t_miss {t_used:.1f} cycles; m(K) = 0.1 / 0.5 / 0.9 at K = " +
              " / ".join(str(int(ks[np.argmax(m >= f)])) if np.any(m >= f) else "-"
                         for f in (0.1, 0.5, 0.9)))
        print("\n| ways | fitted capacity (lines) | capacity (KiB) | rms error of m(K) |")
        print("| --- | --- | --- | --- |")
        k_top = int(ks[-1])
        results = []
        for ways in (2, 4, 8, 16, 32, 64, "full"):
            best = None
            for lines in range(max(16, k_top // 16), 2 * k_top, max(1, k_top // 800)):
                w = lines if ways == "full" else ways
                if w > lines:
                    continue
                sse = float(np.sum((model(ks, lines, w) - m) ** 2))
                if best is None or sse < best[0]:
                    best = (sse, lines)
            sse, lines = best
            results.append((sse, ways, lines))
            print(f"| {ways} | {lines} | {lines * 128 / 1024:.1f} | "
                  f"{math.sqrt(sse / len(ks)):.4f} |")
        sse, ways, lines = min(results, key=lambda r: r[0])
        print(f"\nBest: {ways} ways, {lines} lines ({lines * 128 / 1024:.1f} KiB).")


if __name__ == "__main__":
    main()
