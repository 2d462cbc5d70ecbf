#!/usr/bin/env python3
"""How far the block shapes that kerncast predicts at one limit (the fastest predicted time of a
set, within --within) run over it, by threads per block and block width.

    kerncast validate data/published/v100-warpspeed/kernels/box2d_r1.yaml -m h100-sxm5-80gb \\
      --records lab/measured/h100-2026-11-26b/box2d-times/r1 --csv h100_r1.csv
    lab/research/dram_limit_overhead.py h100_r1.csv [more.csv ...]
    lab/research/dram_limit_overhead.py --achieved-dram 3032.8 h100_star.csv

Reads the first table ("# configurations") of each CSV; prints, per threads per block, the
shapes' measured / predicted time, narrowest last, and the median of each thread count. With
--achieved-dram GBS (records with Nsight Compute's DRAM counters): the DRAM bandwidth each
configuration reached (measured DRAM bytes read and written over its measured time), by fold
and by block width (at least 8 wide, or narrower), as a fraction of GBS (the machine's DRAM
bandwidth for loads alone): how far DRAM-bound kernels stay from the DRAM's own limit
(docs/accuracy.md, notes 2026-11-27e).
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
        fold = re.search(r"fold=(\S+)", row["configuration"])
        dram = [row.get(f"dram__bytes_{d}.sum.measured") for d in ("read", "write")]
        rows.append((block, float(row["predicted_time_us"]), float(row["measured_time_us"]),
                     fold.group(1) if fold else "1x1x1",
                     sum(float(b) for b in dram) if all(dram) else None))
    return rows


def achieved_dram(path, rows, reference_gbs):
    """Median and range of the DRAM bandwidth reached, by fold and width class."""
    groups = {}
    for block, _, measured_us, fold, dram_bytes in rows:
        if dram_bytes is None:
            continue
        gbs = dram_bytes / (measured_us * 1e-6) / 1e9
        groups.setdefault((fold, block[0] >= 8), []).append(gbs)
    if not groups:
        sys.exit(f"{path}: no rows with measured DRAM bytes")
    print(f"{path}: DRAM bandwidth reached (bytes read and written / measured time), "
          f"against {reference_gbs:g} GB/s")
    for (fold, wide), values in sorted(groups.items()):
        median = statistics.median(values)
        print(f"  fold {fold} {'>= 8' if wide else '< 8'} wide: {len(values):3d} shapes, median "
              f"{median:6.0f} GB/s ({100 * median / reference_gbs:3.0f} %), "
              f"{min(values):.0f} to {max(values):.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--within", type=float, default=0.01,
                        help="shapes predicted within this fraction of the fastest (default 0.01)")
    parser.add_argument("--achieved-dram", type=float, metavar="GBS",
                        help="print the DRAM bandwidth reached instead, against GBS")
    args = parser.parse_args()
    for path in args.csv:
        rows = configurations(path)
        if not rows:
            sys.exit(f"{path}: no rows with a predicted and a measured time")
        if args.achieved_dram:
            achieved_dram(path, rows, args.achieved_dram)
            continue
        fastest = min(row[1] for row in rows)
        at_limit = [(b, m / p) for b, p, m, _, _ in rows if p <= fastest * (1 + args.within)]
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
