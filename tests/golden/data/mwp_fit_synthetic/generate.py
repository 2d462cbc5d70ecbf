#!/usr/bin/env python3
"""Writes the SYNTHETIC measurement records of this directory (not measured on any GPU).

Each record's time is kerncast's own MWP-CWP prediction (`kerncast mwp KERNEL -m fx5600 --block
B`) with the FX5600's Table 6 parameters (Mem_LD 420, Departure_del_uncoal 10,
Departure_del_coal 4), so `kerncast mwp-fit` on these records must give those values back.
Run from the repository root: tests/golden/data/mwp_fit_synthetic/generate.py [KERNCAST].
"""
import glob, hashlib, json, os, subprocess, sys

kerncast = sys.argv[1] if len(sys.argv) > 1 else "build/tools/kerncast/kerncast"
out = os.path.dirname(os.path.abspath(__file__))
# (kernel file, block, parameters, file name): Table 4's micro-benchmarks at three block sizes,
# and Fig. 12's tiled matmul (coalesced loads and barriers: Departure_del_coal enters only
# through the synchronisation cost (26) on these GPUs) at three matrix widths.
runs = []
for path in sorted(glob.glob("examples/kernels/hk_micro_*.yaml")):
    name = os.path.basename(path)[:-5]
    for block in (32, 128, 512):
        runs.append((path, [block, 1, 1], [30720 // block, 1, 1], {"n": 30720, "iters": 1000},
                     f"{name}_{block}"))
for width in (48, 480, 4800):
    runs.append(("examples/kernels/hk_matmul.yaml", [16, 16, 1], [10, 8, 1],
                 {"hM": 128, "wM": width, "wN": 160}, f"hk_matmul_wM{width}"))
for path, block, grid, params, file_name in runs:
    name = os.path.basename(path)[:-5]
    sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
    command = [kerncast, "mwp", path, "-m", "fx5600", "--registers", "0",
               "--block", "x".join(map(str, block)), "--json", "-"]
    command += [f"-D{k}={v}" for k, v in params.items()]
    report = json.loads(subprocess.check_output(command))
    time = report["tables"]["result"]["rows"][0]["time_seconds"]
    record = {
        "schema": "kerncast.measurement/1",
        "kerncast_version": "0.1.0",
        "date": "2026-11-25T00:00:00Z",
        "command_line": ["SYNTHETIC: kerncast's MWP-CWP prediction on fx5600, not measured"],
        "device": {"name": "Quadro FX 5600 (synthetic)", "compute_capability": "1.0",
                   "sm_count": 16, "driver_version": 13000, "runtime_version": 13000,
                   "pci_bus_id": "0000:00:00.0"},
        "kernel": {"name": name, "file": path, "file_sha256": sha,
                   "parameters": params, "buffers": [],
                   "launch": {"block": block, "fold": [1, 1, 1], "grid": grid,
                              "dynamic_shared_memory_bytes": 0}},
        "method": {"warmup": 1, "repetitions": 1, "l2_flush": False, "timer": "cuda-event"},
        "results": {"times_s": [time], "median_s": time, "min_s": time, "max_s": time,
                    "mean_s": time, "stddev_s": 0.0, "throughput": {}},
        "counters": {},
    }
    with open(os.path.join(out, f"{file_name}.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
