#!/usr/bin/env python3
"""The cost of one kerncast.predict through Python against the same call in C++.

Runs the Google Benchmark BM_PredictCall (bench/predict_bench.cpp: star3d_r4 on a100-sxm4-40gb,
the kernel file's launch) and times kerncast.predict on the same, already loaded, kernel and
machine with timeit; prints both per-call times and the overhead. The issue's target: within
10 % of the C++ call. Both figures are medians over repetitions, each repetition an average
over many calls.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_predict_overhead.py [--build-dir build]
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import timeit

import kerncast

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[1]


def cpp_seconds(build_dir, repetitions):
    binary = pathlib.Path(build_dir) / "bench" / "predict_bench"
    done = subprocess.run(
        [str(binary), "--benchmark_filter=BM_PredictCall", "--benchmark_format=json",
         f"--benchmark_repetitions={repetitions}", "--benchmark_min_time=0.5"],
        capture_output=True, text=True, check=True)
    runs = [b for b in json.loads(done.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return statistics.median(b["real_time"] * scale[b["time_unit"]] for b in runs)


def python_seconds(repetitions):
    kernel = kerncast.load_kernel(SOURCE_DIR / "examples" / "kernels" / "star3d_r4.yaml")
    machine = kerncast.Machine("a100-sxm4-40gb")
    call = lambda: kerncast.predict(kernel, machine)  # noqa: E731
    calls = max(1, int(0.5 / timeit.timeit(call, number=3) * 3))  # about 0.5 s a repetition
    times = timeit.repeat(call, number=calls, repeat=repetitions)
    return statistics.median(t / calls for t in times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.environ.get("KERNCAST_BUILD_DIR", "build"))
    parser.add_argument("--repetitions", type=int, default=7)
    options = parser.parse_args()
    cpp = cpp_seconds(options.build_dir, options.repetitions)
    python = python_seconds(options.repetitions)
    print(f"C++    predict (BM_PredictCall):  {cpp * 1e6:10.1f} us")
    print(f"Python kerncast.predict:           {python * 1e6:10.1f} us")
    print(f"overhead: {(python / cpp - 1) * 100:+.1f} % (target: within 10 %)")


if __name__ == "__main__":
    main()
