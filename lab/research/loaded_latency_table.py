#!/usr/bin/env python3
"""The DRAM latency under load of lab/research/loaded_latency.cu as a Markdown table.

    lab/research/loaded_latency_table.py loaded_latency.jsonl [--clock-mhz 1980]

Per mode (loads alone or a store a load), loads in flight a thread and streaming blocks an
SM: the streams' bandwidth and the chase's cycles a hop (medians of 3 launches, timing
included), then the single hops' percentiles 10, 50, 90 and 99 and their spread p90 - p10 (the
timing's own cycles, the same for every hop, do not enter it), and the spread over the median
(a coefficient of variation read off p90 - p10 as for a normal distribution: / 2.563). The
latency under load is what a limit by bytes in flight needs (docs/accuracy.md, notes
2026-11-27d).
"""
import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jsonl")
    parser.add_argument("--clock-mhz", type=float, default=0,
                        help="also print the median hop in nanoseconds at this SM clock")
    args = parser.parse_args()
    header, runs, hops = None, {}, {}
    with open(args.jsonl) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                sys.exit(f"{args.jsonl}:{number}: not JSON: {error}")
            if record.get("experiment") == "loaded_latency":
                header = record
                continue
            key = (record["mode"], record["ilp"], record["stream_blocks_per_sm"])
            if "hop_cycles_percentiles" in record:
                hops[key] = record["hop_cycles_percentiles"]
            else:
                runs[key] = record
    if header is None:
        sys.exit(f"{args.jsonl}: no header line (experiment loaded_latency)")
    print(f"{header['sm_count']} SMs, {header['hops']} hops a launch over "
          f"{header['chase_bytes'] / 2**30:.0f} GiB, streams of {header['stream_block_threads']}-"
          f"thread blocks")
    print()
    columns = ["mode", "loads in flight a thread", "blocks an SM", "GB/s", "cycles a hop",
               "p10", "p50", "p90", "p99", "p90 - p10", "(p90 - p10) / 2.563 / p50"]
    if args.clock_mhz:
        columns.insert(5, "ns a hop")
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    for key in sorted(runs, key=lambda k: (k[0], k[1], k[2])):
        run = runs[key]
        cells = [key[0], str(key[1]), str(key[2]), f"{run['median_gb_per_s']:.0f}",
                 f"{run['median_cycles_per_hop']:.0f}"]
        if args.clock_mhz:
            cells.append(f"{run['median_cycles_per_hop'] / args.clock_mhz * 1e3:.0f}")
        q = hops.get(key)
        if q and len(q) == 101:
            spread = q[90] - q[10]
            cells += [f"{q[10]:.0f}", f"{q[50]:.0f}", f"{q[90]:.0f}", f"{q[99]:.0f}",
                      f"{spread:.0f}", f"{spread / 2.563 / q[50]:.3f}"]
        else:
            cells += ["-"] * 6
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
