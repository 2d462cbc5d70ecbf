#!/usr/bin/python3
"""Wavefronts and sectors per warp load or store instruction from one `l1_wavefronts wavefronts`
run.

    lab/research/l1_wavefronts.py launches.jsonl wavefronts.csv [--json OUT.json]

launches.jsonl is what the program printed (a device line, then one line per launch in launch
order); wavefronts.csv is the `ncu --csv --page raw` log of the same run (l1_wavefronts.cu has
the command). The ncu rows come in launch order and are matched to the launches one to one
(their count is checked). Prints a table, per mode, row stride, element size, warp width and
shift (column "hot": for partly hitting warps the lanes that hit, for "in-flight" the second
load's shift, -1 for a fresh copy, for "burst" the loads a warp has in flight; a
"sector-partial" launch counts
minus its "sector-control" launch): wavefronts, L1 sectors and requests per instruction
(counter / the launch's instructions), beside kerncast's bank rule for the same warp (sec.
4.2 of Ernst et al. 2023: 32 banks of 4 B, a half-warp of 8 B values), once with the V100's
1024 B pairing distance and once with none (what the H100 measured for hits,
docs/volume-model.md), so they can be read side by side. Logs with the read-wavefront and
T-stage miss counters (the wavefront_parts phase of gpu_session_next.sh) add two columns: the
wavefronts that read the data banks and the sectors that missed L1. Use the reads for
"sector-partial": its control launch executes the measured load with every lane predicated
off, which costs one wavefront that is not a read (H100, 2026-11-26c). ncu rows after the last
printed launch (a run cut by its time cap) are left out with a warning.
--json writes the joined rows with the device line for lab/measured/. Standard library only
(and ncu_counters_into_records.py beside it, for reading the ncu log).
"""
import argparse
import json
import sys

from ncu_counters_into_records import number, read_ncu_raw  # this folder: the raw-CSV reader

WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts.sum"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
STORE_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
STORE_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
# In the logs of the wavefront_parts phase (gpu_session_next.sh) only: the wavefronts that read
# L1's data banks, and the sectors the T-stage found missing.
READS = "l1tex__data_pipe_lsu_wavefronts_cmd_read.sum"
MISSED = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
METRICS = (WAVEFRONTS, SECTORS, STORE_SECTORS, REQUESTS, STORE_REQUESTS, READS, MISSED)


def read_ncu_rows(path):
    cells, _ = read_ncu_raw(path)
    return [{m: number(cell[m]) for m in METRICS if m in cell} for cell in cells]


def bank_rule(width, element_bytes, shift, row_bytes, window_bytes):
    """Wavefronts of one warp instruction under kerncast's bank rule (l1_wavefronts.cpp):
    32 banks of 4 B, a value wider than a bank as one bank of its width, lanes in groups that
    fill the banks once; window_bytes the pairing distance (1024 on the V100, Ernst et al.
    sec. 4.2), 0 for none."""
    unit = max(element_bytes, 4)
    group = max(1, min(32, 128 // element_bytes))
    window = max(1, window_bytes // unit) if window_bytes else float("inf")
    banks = max(1, 128 // unit)
    total = 0
    for first in range(0, 32, group):
        units = sorted({((lane // width) * row_bytes + (lane % width) * element_bytes + shift)
                        // unit for lane in range(first, min(32, first + group))})
        start = 0
        while start < len(units):
            stop = start
            while stop < len(units) and units[stop] - units[start] < window:
                stop += 1
            per_bank = {}
            for u in units[start:stop]:
                per_bank[u % banks] = per_bank.get(u % banks, 0) + 1
            total += max(per_bank.values())
            start = stop
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("launches")
    parser.add_argument("ncu_csv")
    parser.add_argument("--json")
    args = parser.parse_args()
    lines = [json.loads(l) for l in open(args.launches, encoding="utf-8") if l.strip()]
    device = [l for l in lines if "experiment" in l]
    launches = [l for l in lines if "launch" in l]
    counters = read_ncu_rows(args.ncu_csv)
    if len(counters) < len(launches):
        sys.exit(f"{args.ncu_csv}: {len(counters)} profiled launches, {args.launches}: "
                 f"{len(launches)} launches; one ncu row per launch expected")
    if len(counters) > len(launches):  # a run its time cap cut: the last lines never printed
        print(f"{args.ncu_csv}: {len(counters) - len(launches)} profiled launches after the "
              f"last printed one ({len(launches)}) are left out", file=sys.stderr)
        counters = counters[:len(launches)]
    parts = any(READS in c for c in counters)
    print("mode            row_B  elem_B  width  shift_B  hot  wavefronts  sectors  requests"
          "  v100_rule  no_window_rule" + ("  reads  missed_sectors" if parts else ""))
    nan = float("nan")
    by_launch = {launch["launch"]: measured for launch, measured in zip(launches, counters)}
    for launch, measured in zip(launches, counters):
        if launch["mode"] == "sector-partial":  # minus the warming loads of its control launch
            control = by_launch[launch["control_launch"]]
            measured = {m: v - control.get(m, 0.0) for m, v in measured.items()}
        store = launch["mode"] == "store"
        n = launch["store_instructions" if store else "load_instructions"]
        launch["wavefronts_per_instruction"] = measured.get(WAVEFRONTS, nan) / n
        launch["sectors_per_instruction"] = measured.get(STORE_SECTORS if store else SECTORS,
                                                         nan) / n
        launch["requests_per_instruction"] = measured.get(STORE_REQUESTS if store else REQUESTS,
                                                          nan) / n
        if parts:
            launch["read_wavefronts_per_instruction"] = measured.get(READS, nan) / n
            launch["missed_sectors_per_instruction"] = measured.get(MISSED, nan) / n
        pattern = (launch["width"], launch["element_bytes"], launch["shift_bytes"],
                   launch["row_bytes"])
        launch["v100_rule_wavefronts"] = bank_rule(*pattern, 1024)
        launch["no_window_rule_wavefronts"] = bank_rule(*pattern, 0)
        print(f"{launch['mode']:14} {launch['row_bytes']:7} {launch['element_bytes']:6} "
              f"{launch['width']:6} {launch['shift_bytes']:8} "
              f"{launch.get('hot_lanes', launch.get('second_shift_bytes', launch.get('burst', '-'))):>4} "
              f"{launch['wavefronts_per_instruction']:11.3f} "
              f"{launch['sectors_per_instruction']:8.3f} "
              f"{launch['requests_per_instruction']:9.3f} {launch['v100_rule_wavefronts']:10}"
              f" {launch['no_window_rule_wavefronts']:15}" +
              (f" {launch['read_wavefronts_per_instruction']:6.3f}"
               f" {launch['missed_sectors_per_instruction']:15.3f}" if parts else ""))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"device": device[0] if device else None, "launches": launches}, out,
                      indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
