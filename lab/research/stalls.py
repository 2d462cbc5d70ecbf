#!/usr/bin/python3
"""Which unit is busy and why warps wait, per launch of one Nsight Compute session.

    lab/research/stalls.py NCU_RAW.csv

NCU_RAW.csv is an `ncu --csv --page raw` log taken with the SpeedOfLight, WarpStateStats,
Occupancy and SchedulerStats sections (the stalls and stalls_r1 phases of
gpu_session_next.sh). One line per launch: block and grid, time (us), achieved occupancy (% of
the SM's warps), issue slots used (% of the schedulers'), each unit's throughput in % of its
peak (DRAM, L1, L2 (lts), the L1 data pipe's wavefronts, the LSU pipe), eligible warps a
cycle, and the four largest warp states (warps stalled for that reason per issued
instruction; ncu's smsp__average_warps_issue_stalled_*_per_issue_active). Standard library only
(and ncu_counters_into_records.py beside it, for reading the ncu log).
"""
import argparse

from ncu_counters_into_records import number, read_ncu_raw  # this folder: the raw-CSV reader

COLUMNS = [
    ("t_us", "gpu__time_duration.sum", 1e-3),
    ("occ%", "sm__warps_active.avg.pct_of_peak_sustained_active", 1),
    ("issue%", "smsp__issue_active.avg.pct_of_peak_sustained_active", 1),
    ("dram%", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 1),
    ("l1%", "l1tex__throughput.avg.pct_of_peak_sustained_active", 1),
    ("l2%", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
    ("wavefronts%", "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed", 1),
    ("lsu%", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed", 1),
    ("eligible", "smsp__warps_eligible.avg.per_cycle_active", 1),
]
STALL_PREFIX = "smsp__average_warps_issue_stalled_"
STALL_SUFFIX = "_per_issue_active.ratio"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ncu_csv")
    args = parser.parse_args()
    rows, _units = read_ncu_raw(args.ncu_csv)
    print(f"{'block':<12} {'grid':<16} " + " ".join(f"{name:>11}" for name, _, _ in COLUMNS)
          + "  largest warp states (per issued instruction)")
    for row in rows:
        block = row["Block Size"].strip("()").replace(", ", "x")
        grid = row["Grid Size"].strip("()").replace(", ", "x")
        values = " ".join(f"{number(row[key]) * scale:11.2f}" for _, key, scale in COLUMNS)
        stalls = sorted(((number(text), key[len(STALL_PREFIX):-len(STALL_SUFFIX)])
                         for key, text in row.items()
                         if key.startswith(STALL_PREFIX) and key.endswith(STALL_SUFFIX)),
                        reverse=True)[:4]
        print(f"{block:<12} {grid:<16} {values}  "
              + " ".join(f"{name}={value:.1f}" for value, name in stalls))


if __name__ == "__main__":
    main()
