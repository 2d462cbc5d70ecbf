#!/usr/bin/python3
"""The cost of one kerncast.predict through Python against the same call in C++.

Runs the Google Benchmark BM_PredictCall (bench/predict_bench.cpp: star3d_r4 on a100-sxm4-40gb,
the kernel file's launch) and times kerncast.predict on the same, already loaded, kernel and
machine with timeit; prints both per-call times and the overhead. The issue's target: within
10 % of the C++ call. Rounds alternate C++ and Python; each side's figure is its fastest
round (an average over many calls), in wall-clock and in CPU time.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_predict_overhead.py [--build-dir build]
"""

import argparse
import json
import os
import pathlib
import subprocess
import time
import timeit

import kerncast

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[1]
SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def cpp_round(binary):
    """(wall, CPU) seconds per call of one Google Benchmark run of BM_PredictCall."""
    done = subprocess.run([str(binary), "--benchmark_filter=BM_PredictCall",
                           "--benchmark_format=json", "--benchmark_min_time=0.5"],
                          capture_output=True, text=True, check=True)
    run = json.loads(done.stdout)["benchmarks"][0]
    scale = SCALE[run["time_unit"]]
    return run["real_time"] * scale, run["cpu_time"] * scale


def python_round(call, calls):
    """(wall, CPU) seconds per call of kerncast.predict, timed like Google Benchmark does:
    wall clock, and the calling thread's CPU time (the GIL-released work runs on it)."""
    wall = timeit.timeit(call, number=calls, timer=time.perf_counter) / calls
    cpu = timeit.timeit(call, number=calls, timer=time.thread_time) / calls
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default=os.environ.get("KERNCAST_BUILD_DIR", "build"))
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    binary = pathlib.Path(options.build_dir) / "bench" / "predict_bench"
    kernel = kerncast.load_kernel(SOURCE_DIR / "examples" / "kernels" / "star3d_r4.yaml")
    machine = kerncast.Machine("a100-sxm4-40gb")
    call = lambda: kerncast.predict(kernel, machine)  # noqa: E731
    calls = max(1, int(0.5 / timeit.timeit(call, number=3) * 3))  # about 0.5 s a round
    # Rounds alternate between the two so that a busy machine slows both alike; the minimum
    # over rounds is each side's least disturbed figure.
    cpp, python = [], []
    for _ in range(options.rounds):
        cpp.append(cpp_round(binary))
        python.append(python_round(call, calls))
    for what, index in (("wall", 0), ("CPU", 1)):
        c = min(r[index] for r in cpp)
        p = min(r[index] for r in python)
        print(f"{what:>4}: C++ BM_PredictCall {c * 1e6:9.1f} us   Python kerncast.predict "
              f"{p * 1e6:9.1f} us   overhead {(p / c - 1) * 100:+5.1f} %")
    print("target: Python within 10 % of C++")


if __name__ == "__main__":
    main()
