#!/usr/bin/env python3
"""Leave-one-set-out check of explore's shortlist (docs/autotuning.md) on the measured time sets.

For each of the H100/H200 time sets (the box r1..r3 block shapes and the star r2 shapes and
folds that docs/accuracy.md validates), the error spread is the pooled within-set standard
deviation of ln(measured / predicted) of the *other* sets; the shortlist rule of
include/kerncast/models/volumes/shortlist.hpp (union bound over normal pairwise differences)
picks K on the held-out set's predictions, and the measured best is looked up in it. Also the
autotuning metric: configurations measured in kerncast's order until one is within 5 % of the
measured best, against the expected number in random order.

Usage: lab/research/shortlist_coverage.py BUILD/tools/kerncast/kerncast [CONFIDENCE...]
(runs `kerncast validate --csv` on each set; prints a Markdown table).
"""
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile

DATA = "data/published/v100-warpspeed/kernels"
SETS = [
    ("H200", "3D star r2", "star3d_r2", "h200-sxm-141gb", "lab/measured/h200-2026-11-26c/star3d-r2/records"),
    ("H100", "3D star r2", "star3d_r2", "h100-sxm5-80gb", "lab/measured/h100-2026-11-26b/star3d-r2/records"),
] + [
    (gpu, f"2D box r{r}", f"box2d_r{r}", machine, f"lab/measured/{folder}/box2d-times/r{r}")
    for r in (1, 2, 3)
    for gpu, machine, folder in (("H200", "h200-sxm-141gb", "h200-2026-11-26"),
                                 ("H100", "h100-sxm5-80gb", "h100-2026-11-26b"))
]


def read_times(kerncast, kernel, machine, records, work):
    out = os.path.join(work, f"{kernel}-{machine}.csv")
    subprocess.run([kerncast, "validate", f"{DATA}/{kernel}.yaml", "-m", machine,
                    "--records", records, "--csv", out],
                   check=True, stdout=subprocess.DEVNULL)
    lines = []
    with open(out) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if not line.strip():
                break
            lines.append(line)
    pairs = []
    for row in csv.DictReader(lines):
        pairs.append((float(row["predicted_time_us"]), float(row["measured_time_us"])))
    return pairs


def beats_best(predicted, spread):
    best = predicted[0]
    return [1.0] + [0.5 * math.erfc(math.log(t / best) / (spread * math.sqrt(2)) / math.sqrt(2))
                    for t in predicted[1:]]


def shortlist_size(predicted, spread, confidence):
    p = beats_best(predicted, spread)
    size, tail = len(p), 0.0
    while size > 1 and tail + p[size - 1] <= 1 - confidence:
        tail += p[size - 1]
        size -= 1
    return size


def main():
    kerncast = sys.argv[1]
    confidences = [float(c) for c in sys.argv[2:]] or [0.9, 0.95]
    with tempfile.TemporaryDirectory() as work:
        sets = [(gpu, name, read_times(kerncast, kernel, machine, records, work))
                for gpu, name, kernel, machine, records in SETS]
    deviations = []
    for _, _, pairs in sets:
        logs = [math.log(m / p) for p, m in pairs]
        mean = statistics.fmean(logs)
        deviations.append([x - mean for x in logs])
    header = "| GPU | set | N | spread (other sets) | " + " | ".join(
        f"K at {c:g} | best in it" for c in confidences) + \
        " | measured in kerncast's order to within 5 % | random order (expected) |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for k, (gpu, name, pairs) in enumerate(sets):
        pooled = [d for j, ds in enumerate(deviations) if j != k for d in ds]
        spread = math.sqrt(sum(d * d for d in pooled) / len(pooled))
        # By predicted time; equal predictions keep the records' order (file names), never
        # their measured order.
        ranked = sorted(pairs, key=lambda pair: pair[0])
        predicted = [p for p, _ in ranked]
        measured = [m for _, m in ranked]
        best = min(measured)
        best_at = measured.index(best)
        cells = []
        for c in confidences:
            size = shortlist_size(predicted, spread, c)
            cells.append(f"{size} ({100 * size / len(pairs):.0f} %) | "
                         f"{'yes' if best_at < size else 'no'}")
        near = [m <= best * 1.05 for m in measured]
        first_near = near.index(True) + 1
        good = sum(near)
        n = len(pairs)
        random_expected = (n + 1) / (good + 1)  # first success among good of n, random order
        print(f"| {gpu} | {name} | {n} | {spread:.3f} | " + " | ".join(cells) +
              f" | {first_near} | {random_expected:.1f} |")


if __name__ == "__main__":
    main()
