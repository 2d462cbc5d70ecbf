#!/usr/bin/python3
"""Queueing at the limiters, with the unloaded latency: does it explain the loss at a limit?

For each configuration of a `kerncast validate --csv` file, `kerncast predict --json` gives the
limiters' times a point; this script solves a closed queueing network per SM by exact mean value
analysis (Reiser & Lavenberg 1980): the customers are the SM's resident warps, a warp's visit is
its 32 x fold points, the queueing stations are the limiters (DRAM and L2 as the SM's share of
the GPU's), and the delay is the machine file's unloaded DRAM latency. Nothing is fitted. It
prints measured / max-limiter time beside MVA / max-limiter time: if queueing with the
unloaded latency were the loss, the two columns would agree (docs/accuracy.md, notes
2026-11-27d). Not part of the model.

  lab/research/mva_limiters.py KERNEL MACHINE VALIDATE_CSV [--kerncast PATH]
"""
import argparse
import csv
import json
import subprocess

from rank_statistics import spearman


def mva(demands, delay, customers):
    queue = [0.0] * len(demands)
    throughput = 0.0
    for n in range(1, customers + 1):
        residence = [d * (1 + q) for d, q in zip(demands, queue)]
        throughput = n / (delay + sum(residence))
        queue = [throughput * r for r in residence]
    return throughput



def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel")
    parser.add_argument("machine")
    parser.add_argument("csv")
    parser.add_argument("--kerncast", default="build/tools/kerncast/kerncast")
    args = parser.parse_args()
    machine = json.loads(subprocess.run([args.kerncast, "machine", "show", args.machine, "--json", "-"],
                                        capture_output=True, text=True).stdout or "{}")
    rows = [r for r in csv.reader(open(args.csv))
            if len(r) > 5 and r[1].startswith("block=") and r[4] not in ("", "measured_time_us")]
    seen, table = set(), []
    for r in rows:
        if r[1] in seen:
            continue
        seen.add(r[1])
        block = r[1].split()[0].split("=")[1]
        fold = r[1].split()[1].split("=")[1]
        report = json.loads(subprocess.run(
            [args.kerncast, "predict", args.kernel, "-m", args.machine, "--block", block,
             "--fold", fold, "--json", "-"], capture_output=True, text=True, check=True).stdout)
        tables = report["tables"]
        launch = {q["quantity"]: q["value"] for q in tables["launch"]["rows"]}
        limiters = {l["limiter"]: l["seconds_per_point"] * 1e-12
                    for l in tables["limiters"]["rows"]}
        threads = 1
        for extent in block.split("x"):
            threads *= int(extent)
        points_per_thread = 1
        for extent in fold.split("x"):
            points_per_thread *= int(extent)
        table.append((r[1], float(r[3]), float(r[4]), launch["blocks_per_sm"], threads,
                      points_per_thread, limiters))
    sms = machine_value(machine, "sm_count")
    clock_hz = machine_value(machine, "boost_clock_mhz") * 1e6
    dram = [level for level in machine["memory"] if level["name"] == "dram"][0]
    latency = dram["latency_cycles"]
    dram_latency_s = (latency["value"] if isinstance(latency, dict) else latency) / clock_hz
    print(f"{'configuration':40s} {'binds':6s} measured/limit  MVA/limit  resident warps")
    measured, predicted = [], []
    for name, limit_us, measured_us, blocks, threads, points, limiters in table:
        warps = blocks * ((threads + 31) // 32)
        visit_points = 32 * points
        demands = [seconds * sms * visit_points for seconds in limiters.values()]
        x = mva(demands, dram_latency_s, warps)  # visits a second, one SM
        per_point = 1 / (x * visit_points * sms)
        binding = max(limiters, key=limiters.get)
        ratio = per_point / limiters[binding]
        measured.append(measured_us)
        predicted.append(limit_us * ratio)
        print(f"{name:40s} {binding:6s} {measured_us / limit_us:14.3f} {ratio:10.3f} {warps:14d}")
    print(f"Spearman, measured against max-limiter times: "
          f"{spearman([t[1] for t in table], measured):.3f}; against MVA times: "
          f"{spearman(predicted, measured):.3f}")


def machine_value(machine, key):
    """The value of KEY anywhere in the machine's JSON (the first found, depth first)."""
    def find(node):
        if isinstance(node, dict):
            if key in node:
                value = node[key]
                return value["value"] if isinstance(value, dict) else value
            for child in node.values():
                found = find(child)
                if found is not None:
                    return found
        elif isinstance(node, list):
            for child in node:
                found = find(child)
                if found is not None:
                    return found
        return None
    value = find(machine)
    if value is None:
        raise SystemExit(f"mva_limiters: the machine has no {key}")
    return float(value)


if __name__ == "__main__":
    main()
