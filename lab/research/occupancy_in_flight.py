#!/usr/bin/python3
"""The in-flight limiter against the box r1 at limited occupancy (docs/accuracy.md, notes
2026-11-27f): for each row of lab/research/occupancy_sweep.cu's output (block shape, resident
blocks an SM, median time), `kerncast predict` of the box r1 with that block on a what-if
machine that extends MACHINE with max_threads_per_sm (max_warps_per_sm, max_threads_per_block) set to the row's
resident threads, so the occupancy calculation keeps exactly them; prints the predicted time,
its binding limiter and predicted / measured. Nothing is fitted: the sweep's times were not
used to build the limiter.

  lab/research/occupancy_in_flight.py lab/measured/h200-2026-11-27c/occupancy/occupancy.jsonl \\
      h200-sxm-141gb [--kerncast build/tools/kerncast/kerncast]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

KERNEL = "data/published/v100-warpspeed/kernels/box2d_r1.yaml"


def what_if_machine(directory, machine, threads):
    path = os.path.join(directory, f"{machine}-{threads}.json")
    with open(path, "w") as f:
        json.dump({"schema": "kerncast.machine/1", "extends": machine,
                   "identity": {"id": f"{machine}-{threads}-threads", "name": "what-if"},
                   "sources": {"what-if": {"kind": "derived", "citation":
                                           "occupancy_in_flight.py: the sweep's resident threads"}},
                   "compute": {"source": "what-if", "max_threads_per_sm": threads,
                               "max_warps_per_sm": threads // 32,
                               "max_threads_per_block": min(1024, threads)}}, f)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep")
    parser.add_argument("machine")
    parser.add_argument("--kerncast", default="build/tools/kerncast/kerncast")
    args = parser.parse_args()
    rows = [json.loads(line) for line in open(args.sweep)]
    rows = [r for r in rows if "block" in r]
    ratios = {}
    print(f"{'block':12s} {'threads/SM':>10s} {'measured us':>12s} {'predicted us':>13s} "
          f"{'limiter':16s} pred/meas")
    with tempfile.TemporaryDirectory() as directory:
        for r in rows:
            threads = r["threads_per_sm"]
            machine = what_if_machine(directory, args.machine, threads)
            block = "x".join(str(e) for e in r["block"])
            report = json.loads(subprocess.run(
                [args.kerncast, "predict", KERNEL, "-m", machine, "--block", block, "--json", "-"],
                capture_output=True, text=True, check=True).stdout)
            tables = report["tables"]
            launch = {q["quantity"]: q["value"] for q in tables["launch"]["rows"]}
            if launch["blocks_per_sm"] * r["block"][0] * r["block"][1] != threads:
                raise SystemExit(f"{block}: kerncast keeps {launch['blocks_per_sm']} blocks an "
                                 f"SM, the sweep {r['blocks_per_sm']}")
            prediction = tables["prediction"]["rows"][0]
            predicted_us = prediction["time"] * 1e3
            ratio = predicted_us / r["median_us"]
            ratios.setdefault(threads, []).append(ratio)
            print(f"{block:12s} {threads:10d} {r['median_us']:12.1f} {predicted_us:13.1f} "
                  f"{prediction['limiter']:16s} {ratio:.3f}")
    print("median predicted / measured by threads an SM: " + ", ".join(
        f"{t}: {statistics.median(v):.3f}" for t, v in sorted(ratios.items())))


if __name__ == "__main__":
    main()
