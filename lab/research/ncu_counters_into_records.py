#!/usr/bin/python3
"""Puts the counters of one Nsight Compute session into kerncast measurement records.

    lab/research/ncu_counters_into_records.py NCU.csv TIMED_DIR OUT_DIR \
        --ncu-command "..." --timing-command "..."

How the H200 records of lab/measured/h200-2026-11-26 were made (its README has the commands):
`kerncast validate KERNEL --sweep FILE --save DIR` timed every configuration (warm-up 3,
10 repetitions), and a second run of the same sweep under one `ncu --csv --page raw` session
(`--warmup 0 --repeat 1`: one profiled launch per configuration, caches flushed by ncu before
it) gave the counters. The CSV rows come in launch order, which is the sweep order; each row is
matched to the timed record of the same configuration by its block and grid (checked) and
its metrics go into `/counters` with ncu's base units, `launch__registers_per_thread` into
`/kernel/registers_per_thread`. `/command_line` records both commands (the live mode of
validate wrote none). The timed records' times are untouched. Standard library only.
"""
import argparse
import csv
import glob
import json
import os
import sys

# The metrics copied into /counters (what the volume model's validation compares, plus the
# L1 wavefronts and times the limiter model can use). launch__* go elsewhere or nowhere.
COUNTERS = [
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum", "lts__t_sectors_op_read.sum",
    "lts__t_sectors_op_write.sum", "l1tex__data_pipe_lsu_wavefronts.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sm__cycles_elapsed.avg",
    "gpu__time_duration.sum"
]


def number(text):
    return float(text.replace(",", ""))


def dims(text):  # "(128, 1, 8)" -> [128, 1, 8]
    return [int(v) for v in text.strip("()").split(",")]


def read_ncu_raw(path):
    """The rows of an `ncu --csv --page raw` log in launch order, each as {column: text}, and
    the units row as {column: unit}. ncu's own `==PROF==` lines are skipped."""
    lines = [l for l in open(path, encoding="utf-8").read().splitlines() if not l.startswith("==")]
    rows = list(csv.reader(lines))
    header = rows[0]
    return ([dict(zip(header, row)) for row in rows[2:] if len(row) == len(header)],
            dict(zip(header, rows[1])))


def read_ncu_details(path):
    """The launches of an `ncu --csv` log of the default details page (a row a metric: "ID",
    ..., "Metric Name", "Metric Unit", "Metric Value") in launch order, each as {metric: text},
    and the lines before ncu's header (its `==PROF==` lines and the program's own output)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    launch, name, value = (header.index(c) for c in ("ID", "Metric Name", "Metric Value"))
    metrics = {}
    for row in rows[1:]:
        if len(row) == len(header):
            metrics.setdefault(int(row[launch]), {})[row[name]] = row[value]
    return [metrics[k] for k in sorted(metrics)], lines[:start]


def read_ncu_csv(path):
    cells, unit = read_ncu_raw(path)
    out = []
    for cell in cells:
        out.append({"kernel": cell["Kernel Name"], "block": dims(cell["Block Size"]),
                    "grid": dims(cell["Grid Size"]),
                    "registers": int(number(cell["launch__registers_per_thread"])),
                    "counters": {m: {"value": number(cell[m]), "unit": unit[m]}
                                 for m in COUNTERS if m in cell}})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ncu_csv")
    parser.add_argument("timed_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--ncu-command", required=True)
    parser.add_argument("--timing-command", required=True)
    parser.add_argument("--sweep", required=True, help="the sweep file both runs used (order)")
    args = parser.parse_args()
    rows = read_ncu_csv(args.ncu_csv)
    timed = {}
    for path in glob.glob(os.path.join(args.timed_dir, "*.json")):
        record = json.load(open(path))
        launch = record["kernel"]["launch"]
        timed[(tuple(launch["block"]), tuple(launch["fold"]))] = (os.path.basename(path), record)
    sweep = []
    for line in open(args.sweep):
        words = line.split("#")[0].split()
        if not words:
            continue
        block = [int(v) for v in words[0].split("x")] + [1, 1]
        fold = [int(v) for v in words[1].split("x")] + [1, 1] if len(words) > 1 else [1, 1, 1]
        sweep.append((tuple(block[:3]), tuple(fold[:3])))
    if len(rows) != len(sweep):
        sys.exit(f"{args.ncu_csv}: {len(rows)} profiled launches, the sweep has {len(sweep)}")
    os.makedirs(args.out_dir, exist_ok=True)
    for row, key in zip(rows, sweep):
        if key not in timed:
            sys.exit(f"no timed record for block {key[0]} fold {key[1]}")
        name, record = timed[key]
        launch = record["kernel"]["launch"]
        if row["block"] != launch["block"] or row["grid"] != launch["grid"]:
            sys.exit(f"{name}: ncu launched block {row['block']} grid {row['grid']}, the record "
                     f"{launch['block']} {launch['grid']}")
        record["counters"] = row["counters"]
        record["kernel"]["registers_per_thread"] = row["registers"]
        record["command_line"] = ["sh", "-c", args.timing_command + " ; " + args.ncu_command]
        with open(os.path.join(args.out_dir, name), "w") as f:
            json.dump(record, f, indent=2, sort_keys=True)
            f.write("\n")
    print(f"{len(rows)} records written to {args.out_dir}")


if __name__ == "__main__":
    main()
