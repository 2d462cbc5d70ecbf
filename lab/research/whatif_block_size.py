#!/usr/bin/python3
"""What if a block's slots were held longer the more warps it has, everywhere?

A what-if on rankings, not a model: each configuration's predicted time from `kerncast validate
--csv` is multiplied by 1 + c e(W), W the block's warps and e(W) the expected maximum of W
standard normals (a block holds its slots until its slowest warp ends, warp lives normal with
coefficient of variation c), for c = 0, 0.1, 0.2, 0.3, and Spearman's rho and the measured
throughput of the predicted best are printed per ranked group (docs/accuracy.md, notes
2026-11-27d). Groups: a kernel (time records) or a kernel and notebook cell (the V100's GFlop/s
records, whose times are 1 / GFlop/s).

  lab/research/whatif_block_size.py CSV...
"""
import csv
import math
import re
import sys
from statistics import NormalDist

from mva_limiters import spearman  # the same directory

NORMAL = NormalDist()
EXPECTED_MAX = {}


def expected_max(n):
    """E[max of n standard normals] by numeric integration (0 for n <= 1)."""
    if n <= 1:
        return 0.0
    if n not in EXPECTED_MAX:
        total, dx, x = 0.0, 0.002, -8.0
        while x < 8:
            total += x * n * NORMAL.pdf(x) * NORMAL.cdf(x) ** (n - 1) * dx
            x += dx
        EXPECTED_MAX[n] = total
    return EXPECTED_MAX[n]


def predicted_best_fraction(predicted, measured):
    """As validate: the slowest measured of the tied best predictions."""
    best = min(predicted)
    pick = max((i for i, p in enumerate(predicted) if p == best), key=lambda i: measured[i])
    return min(measured) / measured[pick]


def groups_of(path):
    groups = {}
    for row in csv.reader(open(path)):
        if len(row) < 8 or not row[1].startswith("block=") or row[0] == "kernel":
            continue
        extents = row[1].split()[0].split("=")[1].split("x")
        threads = int(extents[0]) * int(extents[1]) * int(extents[2])
        if row[3] and row[4]:  # predicted and measured microseconds
            groups.setdefault(row[0], {})[row[1]] = (float(row[3]), float(row[4]), threads)
        elif row[6] and row[7]:  # predicted and measured GFlop/s
            cell = re.search(r"cell\d+", row[-1]).group(0)
            groups.setdefault(row[0] + " " + cell, {})[row[1]] = (
                1 / float(row[6]), 1 / float(row[7]), threads)
    return groups


def main():
    for path in sys.argv[1:]:
        for group, rows in groups_of(path).items():
            if len(rows) < 10:
                continue
            cells = []
            for c in (0, 0.1, 0.2, 0.3):
                predicted = [p * (1 + c * expected_max(math.ceil(t / 32)))
                             for p, _, t in rows.values()]
                measured = [m for _, m, _ in rows.values()]
                cells.append("c=%.1f rho %.3f best %.1f%%" % (
                    c, spearman(predicted, measured),
                    100 * predicted_best_fraction(predicted, measured)))
            print(path.split("/")[-1], group, len(rows), " | ".join(cells))


if __name__ == "__main__":
    main()
