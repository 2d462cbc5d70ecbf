#!/usr/bin/env python3
"""How far the block shapes that kerncast predicts at one limit (the fastest predicted time of a
set, within --within) run over it, by threads per block and block width.

    kerncast validate data/published/v100-warpspeed/kernels/box2d_r1.yaml -m h100-sxm5-80gb \\
      --records data/measured/h100-2026-11-26b/box2d-times/r1 --csv h100_r1.csv
    tools/research/dram_limit_overhead.py h100_r1.csv [more.csv ...]

Reads the first table ("# configurations") of each CSV; prints, per threads per block, the
shapes' measured / predicted time, narrowest last, and the median of each thread count.
"""
import argparse
import csv
import re
import statistics
import sys


def configurations(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    if not lines or lines[0] != "# configurations":
        sys.exit(f"{path}: not a kerncast validate --csv file (no '# configurations' table)")
    table = []
    for line in lines[1:]:
        if not line or line.startswith("# "):
            break
        table.append(line)
    rows = []
    for row in csv.DictReader(table):
        shape = re.search(r"block=(\d+)x(\d+)x(\d+)", row["configuration"])
        if not shape or not row["measured_time_us"] or not row["predicted_time_us"]:
            continue
        block = tuple(int(g) for g in shape.groups())
        rows.append((block, float(row["predicted_time_us"]), float(row["measured_time_us"])))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--within", type=float, default=0.01,
                        help="shapes predicted within this fraction of the fastest (default 0.01)")
    args = parser.parse_args()
    for path in args.csv:
        rows = configurations(path)
        if not rows:
            sys.exit(f"{path}: no rows with a predicted and a measured time")
        fastest = min(p for _, p, _ in rows)
        at_limit = [(b, m / p) for b, p, m in rows if p <= fastest * (1 + args.within)]
        print(f"{path}: {len(at_limit)} of {len(rows)} shapes predicted at {fastest:.1f} us "
              f"(within {100 * args.within:g} %); measured / predicted:")
        by_threads = {}
        for block, ratio in at_limit:
            by_threads.setdefault(block[0] * block[1] * block[2], []).append((block, ratio))
        for threads in sorted(by_threads):
            shapes = sorted(by_threads[threads], key=lambda s: (-s[0][0], s[1]))
            median = statistics.median(r for _, r in shapes)
            listed = " ".join(f"{b[0]}x{b[1]}x{b[2]} {r:.3f}" for b, r in shapes)
            print(f"  {threads:5d} threads: median {median:.3f} | {listed}")


if __name__ == "__main__":
    main()
