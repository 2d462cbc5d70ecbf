#!/usr/bin/python3
"""What if the L2 served stores apart from loads? Rankings of every ranked set under three L2 limits.

kerncast's L2 limiter divides a kernel's L2 <-> L1 loads plus stores by the L2's bandwidth for
loads alone, unless the machine's l2 level gives `mixed_bandwidth_by_store_fraction` (measured by
`kerncast probe`, benchmark `l2.mixed_bandwidth`; no built-in file has it yet). This script
recomputes each configuration's time from `kerncast predict --json`'s limiters with the L2
limit replaced, and prints Spearman's rho and the predicted best's measured share of the
measured best (ties: the slowest of them, as `kerncast validate` counts) per ranked set of
docs/accuracy.md:
- `now`: the model as it is;
- `loads`: the L2 limit of the loads alone (stores free: an L2 whose loads' data and stores
  never compete), the bound of what a measured mix table can change;
- `l2-mix`: the loads-alone bandwidth times the relative bandwidth of the kernel's mix in the
  research runs of `lab/research/l1_wavefronts.cu l2-mix` (H100: lab/measured/
  h100-2026-11-26b/l2-mix/run4.jsonl; H200: lab/measured/h200-2026-11-26b/l2-mix.jsonl; 8 loads
  with 0, 1, 2, 4, 8 stores and stores alone), linear in the store fraction. Those streams ran
  below the L2's load rate (H100 4.4 of 6.4 TB/s, H200 6.8 of 7.3), so this is an estimate of
  what the probe's table would change, not a measurement of it. The V100 file has no research
  run: its sets keep `now`.
Where the records have times, the median / p90 time error of the three follows (the V100
throughput sets have none). Nothing is fitted. docs/accuracy.md, notes 2026-11-27e.

  lab/research/whatif_l2_stores.py [--kerncast PATH]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mva_limiters import spearman  # noqa: E402

KERNELS = "data/published/v100-warpspeed/kernels/"
V100_GFLOPS = "data/published/v100-warpspeed/records/box2d-gflops"
# name, machine, kernel file, records, record file prefix (the V100 cells share a directory)
SETS = [
    ("V100 box r1 cell 10", "v100-pcie-32gb", "box2d_r1.yaml", V100_GFLOPS, "box2d_r1_dram_cell10"),
    ("V100 box r1 cell 7", "v100-pcie-32gb", "box2d_r1.yaml", V100_GFLOPS, "box2d_r1_dram_cell7"),
    ("V100 box r1 cell 9", "v100-pcie-32gb", "box2d_r1.yaml", V100_GFLOPS, "box2d_r1_dram_cell9"),
    ("V100 box r2", "v100-pcie-32gb", "box2d_r2.yaml", V100_GFLOPS, "box2d_r2_dram"),
    ("V100 box r3", "v100-pcie-32gb", "box2d_r3.yaml", V100_GFLOPS, "box2d_r3_dram"),
    ("H100 star", "h100-sxm5-80gb", "star3d_r2.yaml",
     "lab/measured/h100-2026-11-26b/star3d-r2/records", ""),
    ("H100 box r1", "h100-sxm5-80gb", "box2d_r1.yaml", "lab/measured/h100-2026-11-26b/box2d-times/r1", ""),
    ("H100 box r2", "h100-sxm5-80gb", "box2d_r2.yaml", "lab/measured/h100-2026-11-26b/box2d-times/r2", ""),
    ("H100 box r3", "h100-sxm5-80gb", "box2d_r3.yaml", "lab/measured/h100-2026-11-26b/box2d-times/r3", ""),
    ("H200 star", "h200-sxm-141gb", "star3d_r2.yaml",
     "lab/measured/h200-2026-11-26c/star3d-r2/records", ""),
    ("H200 box r1", "h200-sxm-141gb", "box2d_r1.yaml", "lab/measured/h200-2026-11-26/box2d-times/r1", ""),
    ("H200 box r2", "h200-sxm-141gb", "box2d_r2.yaml", "lab/measured/h200-2026-11-26/box2d-times/r2", ""),
    ("H200 box r3", "h200-sxm-141gb", "box2d_r3.yaml", "lab/measured/h200-2026-11-26/box2d-times/r3", ""),
]
RESEARCH_RUNS = {
    "h100-sxm5-80gb": "lab/measured/h100-2026-11-26b/l2-mix/run4.jsonl",
    "h200-sxm-141gb": "lab/measured/h200-2026-11-26b/l2-mix.jsonl",
}


def relative_mix_table(path):
    """[(store fraction, bandwidth of the mix / bandwidth of the loads alone)] from the runs of 8
    loads with 0, 1, 2, 4 or 8 stores and of 8 stores alone."""
    lines = [json.loads(line) for line in open(path)][1:]
    rates = {}
    for run in lines:
        moved = run["load_bytes_per_launch"] + run["store_bytes_per_launch"]
        if run["loads"] == 8 or (run["loads"] == 0 and run["stores"] == 8):
            fraction = run["store_bytes_per_launch"] / moved
            rates[fraction] = moved / statistics.median(run["times_ms"])
    alone = rates[0.0]
    return sorted((fraction, rate / alone) for fraction, rate in rates.items())


def interpolate(table, fraction):
    for (f0, v0), (f1, v1) in zip(table, table[1:]):
        if f0 <= fraction <= f1:
            return v0 + (v1 - v0) * (fraction - f0) / (f1 - f0)
    return table[0][1] if fraction < table[0][0] else table[-1][1]


def configurations(kerncast, machine, kernel, records, prefix):
    """(limiters in ps a point, L2 load and store bytes a point, measured speed, points, measured
    time in s or None) per configuration."""
    report = subprocess.run([kerncast, "validate", kernel, "-m", machine, "--records", records,
                             "--csv", "-"], capture_output=True, text=True, check=True).stdout
    rows = csv.DictReader(line for line in report.splitlines() if not line.startswith("#"))
    seen, found = set(), []
    for row in rows:
        name = row.get("configuration") or ""
        if not name.startswith("block=") or name in seen:
            continue
        if prefix and not os.path.basename(row["record"]).startswith(prefix):
            continue
        speed = (1 / float(row["measured_time_us"]) if row.get("measured_time_us")
                 else float(row["measured_gflops"]) if row.get("measured_gflops") else None)
        if speed is None:
            continue
        seen.add(name)
        command = [kerncast, "predict", kernel, "-m", machine, "--json", "-"]
        for field in name.split():
            key, value = field.split("=")
            command += (["--block", value] if key == "block" else
                        ["--fold", value] if key == "fold" else ["-D", field])
        registers = json.load(open(row["record"])).get("kernel", {}).get("registers_per_thread")
        if registers:
            command += ["--registers", str(registers)]
        tables = json.loads(subprocess.run(command, capture_output=True, text=True,
                                           check=True).stdout)["tables"]
        limiters = {r["limiter"]: r["seconds_per_point"] for r in tables["limiters"]["rows"]}
        total = [r for r in tables["volumes"]["rows"] if r["array"] == "total"][0]
        points = float({q["quantity"]: q["value"] for q in tables["launch"]["rows"]}["points"])
        measured_s = float(row["measured_time_us"]) * 1e-6 if row.get("measured_time_us") else None
        found.append((limiters, total["l2_load"], total["l2_store"], speed, points, measured_s))
    return found


def ranking(times, speeds):
    predicted = [1 / t for t in times]
    best = max(predicted)
    tied = [s for p, s in zip(predicted, speeds) if p == best]
    return spearman(predicted, speeds), min(tied) / max(speeds)


def time_errors(times, rows):
    """Median and 90th percentile (linear interpolation) of |predicted / measured time - 1|, or
    None where the records have no times (the V100 throughput sets)."""
    # The limiters' times are picoseconds a point.
    errors = sorted(abs(t * 1e-12 * row[4] / row[5] - 1) for t, row in zip(times, rows) if row[5])
    if not errors:
        return None
    rank = 0.9 * (len(errors) - 1)
    low = int(rank)
    high = min(low + 1, len(errors) - 1)
    return statistics.median(errors), errors[low] + (errors[high] - errors[low]) * (rank - low)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kerncast", default="build/tools/kerncast/kerncast")
    args = parser.parse_args()
    tables = {machine: relative_mix_table(path) for machine, path in RESEARCH_RUNS.items()}
    print(f"{'set':22s} {'now rho / best':>16s} {'loads rho / best':>18s} {'l2-mix rho / best':>18s}")
    for name, machine, kernel, records, prefix in SETS:
        rows = configurations(args.kerncast, machine, KERNELS + kernel, records, prefix)
        speeds = [row[3] for row in rows]
        now, loads, mixed = [], [], []
        for limiters, l2_load, l2_store, *_ in rows:
            l2_time = limiters["L2"]
            others = max(t for limiter, t in limiters.items() if limiter != "L2")
            now.append(max(l2_time, others))
            per_byte = l2_time / (l2_load + l2_store) if l2_load + l2_store > 0 else 0.0
            loads.append(max(l2_load * per_byte, others))
            if machine in tables and l2_load + l2_store > 0:
                factor = interpolate(tables[machine], l2_store / (l2_load + l2_store))
                mixed.append(max(l2_time / factor, others))
            else:
                mixed.append(now[-1])
        cells = [ranking(times, speeds) for times in (now, loads, mixed)]
        line = f"{name:22s} " + " ".join(f"{rho:8.3f} / {100 * best:5.1f} %" for rho, best in cells)
        errors = [time_errors(times, rows) for times in (now, loads, mixed)]
        if errors[0]:
            line += "   time error " + " -> ".join(
                f"{100 * median:.1f} / {100 * p90:.1f} %" for median, p90 in errors)
        print(line)


if __name__ == "__main__":
    main()
