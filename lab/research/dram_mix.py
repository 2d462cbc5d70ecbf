#!/usr/bin/python3
"""DRAM bandwidth by load/store mix from one `l1_wavefronts dram-mix` run.

    lab/research/dram_mix.py dram_mix.jsonl [--machine-table]

dram_mix.jsonl is what the program printed: a device line, then one line per configuration
(kernel "loop" or "unrolled", loads and stores a point, points a slice, blocks, threads, bytes
a launch, CUDA-event times of 5 launches). Prints, per configuration, the store fraction
(stored bytes over all bytes moved) and the bandwidth of the median launch, (load + store
bytes) / median time, in GB/s (1e9 B/s). Lines without a "kernel" key are the "loop" kernel
(runs before the unrolled kernel existed).

--machine-table: the entries for a machine file's `mixed_bandwidth_by_store_fraction`
(docs/machine-format.md): the "unrolled" kernel on the largest slices, the better of the block
counts, one entry per store fraction (the best configuration of that fraction). Standard
library only.
"""
import argparse
import json
import statistics


def rows(path):
    device = None
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            d = json.loads(line)
            if "experiment" in d:
                device = d
                continue
            total = d["load_bytes_per_launch"] + d["store_bytes_per_launch"]
            median_ms = statistics.median(d["times_ms"])
            out.append({
                "kernel": d.get("kernel", "loop"),
                "loads": d["loads"],
                "stores": d["stores"],
                "slice_mib": d["points"] * 8 / 2**20,
                "blocks": d["blocks"],
                "store_fraction": d["store_bytes_per_launch"] / total,
                "gbs": total / (median_ms * 1e-3) / 1e9,
                "median_ms": median_ms,
            })
    return device, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jsonl")
    parser.add_argument("--machine-table", action="store_true")
    args = parser.parse_args()
    device, table = rows(args.jsonl)
    if device:
        print(f"# {device['device']}, {device['sm_count']} SMs, memory clock "
              f"{device['memory_clock_khz'] / 1000:.0f} MHz")
    if args.machine_table:
        largest = max(r["slice_mib"] for r in table if r["kernel"] == "unrolled")
        best = {}
        for r in table:
            if r["kernel"] != "unrolled" or r["slice_mib"] != largest:
                continue
            key = round(r["store_fraction"], 4)
            if key not in best or r["gbs"] > best[key]["gbs"]:
                best[key] = r
        print("store_fraction  bandwidth_gbs  loads:stores  blocks")
        for key in sorted(best):
            r = best[key]
            print(f"{key:14.4f}  {r['gbs']:13.1f}  {r['loads']}:{r['stores']:<10}  {r['blocks']}")
        return
    print("kernel    slice_MiB  blocks  loads  stores  store_fraction  median_ms    GB/s")
    for r in table:
        print(f"{r['kernel']:<9} {r['slice_mib']:9.0f}  {r['blocks']:6d}  {r['loads']:5d}  "
              f"{r['stores']:6d}  {r['store_fraction']:14.3f}  {r['median_ms']:9.4f}  "
              f"{r['gbs']:6.0f}")


if __name__ == "__main__":
    main()
