#!/usr/bin/env python3
"""Writes the synthetic measurement records of this directory (NOT measurements): the tiled
matmul at several sizes, timed by the model tiled.yaml at the parameters of truth.json
(`kerncast predict --model`), times perturbed by a fixed pseudo-random 1 % noise.
Run from the repository root: python3 tests/golden/data/calibrated/make_records.py KERNCAST"""
import copy, json, random, subprocess, sys

kerncast = sys.argv[1]
here = "tests/golden/data/calibrated"
kernel = "examples/kernels/matmul_tiled16.yaml"
base = json.load(open("tests/unit/runtime/data/saxpy_record.json"))
random.seed(3)
sha = subprocess.run(["sha256sum", kernel], capture_output=True, text=True).stdout.split()[0]
for n in (256, 512, 1024):
    for m in (128, 512):
        l = n // 2
        out = subprocess.run([kerncast, "predict", kernel, "--model", here + "/tiled.yaml", "-m",
                              here + "/truth.json", "-D", f"n={n}", "-D", f"m={m}", "-D",
                              f"l={l}", "--json", "-"], capture_output=True, text=True, check=True)
        doc = json.loads(out.stdout)
        time = doc["tables"]["prediction"]["rows"][0]["predicted_us"] * 1e-6
        time *= 1 + 0.01 * random.gauss(0, 1)
        r = copy.deepcopy(base)
        r["command_line"] = ["synthetic record: tests/golden/data/calibrated/make_records.py"]
        r["kernel"].update({"name": "matmul_tiled16", "file": kernel, "file_sha256": sha,
                            "parameters": {"n": n, "m": m, "l": l}, "buffers": []})
        r["kernel"]["launch"] = {"block": [16, 16, 1], "fold": [1, 1, 1],
                                 "grid": [l // 16, n // 16, 1], "dynamic_shared_memory_bytes": 0}
        r["method"]["repetitions"] = 1
        r["results"] = {"times_s": [time], "median_s": time, "min_s": time, "max_s": time,
                        "mean_s": time, "stddev_s": 0.0, "throughput": {}}
        r["counters"] = {}
        with open(f"{here}/records/tiled_n{n}_m{m}.json", "w") as f:
            json.dump(r, f, indent=2, sort_keys=True)
            f.write("\n")
