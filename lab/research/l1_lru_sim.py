#!/usr/bin/python3
"""Runs lab/research/l1_lru_sim.cpp (an exact LRU simulation of one SM's L1) on every row of
the published V100 L2 -> L1 measurements and prints, as Markdown, how close capacity misses
alone come to them (docs/accuracy.md, notes). Research, not part of kerncast's model.

    lab/research/l1_lru_sim.py            # needs a C++20 compiler and NumPy; about a minute

Rows: ../shared/reference/measured (the sources of data/published/v100-warpspeed/records): the
90 3D star rows (2 blocks of 1024 threads per SM at 32 registers) and the 10 2D box rows
(block 32 x 8, 8 blocks per SM). L1: 128 KiB, 128 B lines, 32 B sectors, stores allocate; fully associative or 16 / 8 ways with
random set placement; lockstep, random or warp-major issue (l1_lru_sim.cpp says what each means).
The "ways" table is how machines/v100-pcie-32gb.json's L1 `ways` was chosen.
"""
import csv
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEASURED = os.path.join(ROOT, "..", "shared", "reference", "measured")
SOURCE = os.path.join(ROOT, "tools", "research", "l1_lru_sim.cpp")
BINARY = os.path.join(ROOT, "build", "research", "l1_lru_sim")
L1_BYTES = 128 * 1024
# (schedule, ways): ways 0 is a fully associative L1.
CONFIGURATIONS = [("lockstep", 0), ("random", 0), ("warp-major", 0), ("lockstep", 16),
                  ("random", 16), ("lockstep", 8), ("random", 8)]
# The associativities compared for the choice of machines/v100-pcie-32gb's `ways` (lockstep).
WAYS_CHOICES = [0, 64, 32, 16, 8, 4]


def build():
    if os.path.exists(BINARY) and os.path.getmtime(BINARY) >= os.path.getmtime(SOURCE):
        return
    os.makedirs(os.path.dirname(BINARY), exist_ok=True)
    subprocess.run([os.environ.get("CXX", "c++"), "-O2", "-std=c++20", "-o", BINARY, SOURCE],
                   check=True)


def rows():
    out = []
    with open(os.path.join(MEASURED, "v100-star3d-r2-folding.csv")) as f:
        for r in csv.DictReader(f):
            shape = [r["block_x"], r["block_y"], r["block_z"], r["fold_z"]]
            out.append(dict(set="star", label="x".join(shape[:3]) + " fold " + shape[3],
                            group="star " + "x".join(shape[:3]),
                            args=["star", "2", *shape, "2"], measured=float(r["l2_load_B"]),
                            peer=float(r["peer_pred_l2_load_B"])))
    with open(os.path.join(MEASURED, "v100-box2d-volumes.csv")) as f:
        for r in csv.DictReader(f):
            out.append(dict(set="box", label="range " + r["range"], group="box range " + r["range"],
                            args=["box", r["range"], "32", "8", "1", "1", "8"],
                            measured=float(r["l2_load_B"]), peer=float(r["peer_pred_l2_load_B"])))
    return out


def simulate(row, configuration):
    schedule, ways = configuration
    words = subprocess.run([BINARY, *row["args"], str(L1_BYTES), str(ways), "1", schedule, "6"],
                           check=True, capture_output=True, text=True).stdout.split()
    return float(words[0]), float(words[1]), np.array([float(w) for w in words[2:]])


def summary(predicted, measured):
    e = np.abs(np.asarray(predicted) - measured) / measured
    return f"{100 * np.median(e):.1f} / {100 * np.percentile(e, 90):.1f} %"


def hit(p, x):
    a, b, c = p
    return a * np.exp(-b * np.exp(-c * x))


def nelder_mead(f, x0, iterations=3000):
    points = [np.array(x0, float)]
    for i in range(len(x0)):
        y = np.array(x0, float)
        y[i] = y[i] * 1.2 if y[i] != 0 else 0.1
        points.append(y)
    values = [f(p) for p in points]
    for _ in range(iterations):
        order = np.argsort(values)
        points, values = [points[i] for i in order], [values[i] for i in order]
        centre = np.mean(points[:-1], axis=0)
        reflected = centre + (centre - points[-1])
        fr = f(reflected)
        if fr < values[0]:
            expanded = centre + 2 * (centre - points[-1])
            fe = f(expanded)
            points[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = reflected, fr
        else:
            contracted = centre + 0.5 * (points[-1] - centre)
            fc = f(contracted)
            if fc < values[-1]:
                points[-1], values[-1] = contracted, fc
            else:
                points = [points[0]] + [points[0] + 0.5 * (q - points[0]) for q in points[1:]]
                values = [f(q) for q in points]
    best = int(np.argmin(values))
    return points[best], values[best]


def main():
    build()
    data = rows()
    measured = np.array([r["measured"] for r in data])
    peer = np.array([r["peer"] for r in data])
    sets = np.array([r["set"] for r in data])
    results = {}
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for configuration in CONFIGURATIONS + [("lockstep", w) for w in WAYS_CHOICES]:
            if configuration not in results:
                results[configuration] = list(pool.map(lambda r: simulate(r, configuration), data))

    print("| L1 simulated | star rows (90) | box rows (10) |")
    print("| --- | --- | --- |")
    for schedule, ways in CONFIGURATIONS:
        simulated = np.array([v[0] for v in results[(schedule, ways)]])
        cells = [summary(simulated[sets == n], measured[sets == n]) for n in ("star", "box")]
        name = "fully associative" if ways == 0 else f"{ways}-way, random placement"
        print(f"| LRU, {name}, {schedule} issue | " + " | ".join(cells) + " |")
    compulsory = np.array([v[1] for v in results[("lockstep", 0)]])
    for label, values in (("compulsory (first touches)", compulsory), ("peer", peer)):
        print(f"| {label} | " + " | ".join(summary(values[sets == n], measured[sets == n])
                                            for n in ("star", "box")) + " |")
    print()
    print("Simulated compulsory volume equal to the peer's (within 0.05 B): "
          f"{int(np.sum(np.abs(compulsory - peer) <= 0.05))} of {len(data)} rows.")

    # The choice of ways: the least sum of squared relative errors (the cost fit-volumes
    # minimises), on all rows and on each half of the block shapes (sorted, alternately).
    groups = sorted({r["group"] for r in data})
    half = np.array([groups.index(r["group"]) % 2 for r in data])
    print("| ways (lockstep) | star | box | squared error, all | half A | half B |")
    print("| --- | --- | --- | --- | --- | --- |")
    for ways in WAYS_CHOICES:
        simulated = np.array([v[0] for v in results[("lockstep", ways)]])
        e2 = ((simulated - measured) / measured) ** 2
        print(f"| {'full' if ways == 0 else ways} | " +
              " | ".join(summary(simulated[sets == n], measured[sets == n]) for n in ("star", "box")) +
              f" | {e2.sum():.4f} | {e2[half == 0].sum():.4f} | {e2[half == 1].sum():.4f} |")
    print()

    # Capacity misses as a function of each repeat's LRU stack distance (lockstep order): the
    # fit hit(x) = a exp(-b exp(-c x)) of eq. (4) with x = distance / L1 lines instead of the
    # paper's oversubscription, fitted to both sets (relative errors).
    x = (np.arange(256) + 0.5) / 32
    histograms = np.array([v[2] for v in results[("lockstep", 0)]])

    def predict(p):
        return compulsory + histograms @ (1 - hit(p, x))

    def cost(p):
        if not (0 < p[0] <= 1 and p[1] > 0 and p[2] < 0):
            return 1e18
        e = (predict(p) - measured) / measured
        return float(e @ e)

    best = min((nelder_mead(cost, x0) for x0 in
                ([1, 0.01, -2], [1, 0.001, -5], [1, 0.1, -1], [0.99, 1e-4, -10])),
               key=lambda t: t[1])[0]
    fitted = predict(best)
    print()
    print(f"Stack-distance fit (lockstep, fully associative): a, b, c = {best[0]:.4g}, {best[1]:.4g}, {best[2]:.4g}; "
          + "; ".join(f"{n} {summary(fitted[sets == n], measured[sets == n])}"
                      for n in ("star", "box")))
    print()
    shown = [("lockstep", 0), ("random", 0), ("lockstep", 16), ("lockstep", 8)]
    print("| row | measured B | " + " | ".join(
        f"{s} {'full' if w == 0 else f'{w}-way'} B" for s, w in shown) + " | compulsory B | peer B |")
    print("| --- " * (len(shown) + 4) + "|")
    for i, r in enumerate(data):
        print(f"| {r['set']} {r['label']} | {r['measured']:.2f} | " +
              " | ".join(f"{results[c][i][0]:.2f}" for c in shown) +
              f" | {compulsory[i]:.2f} | {r['peer']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
