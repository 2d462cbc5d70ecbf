"""The GIL is released while kerncast computes: other Python threads run meanwhile, and
several threads can predict at once with the results a single thread gets."""

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import kerncast


def test_python_threads_run_while_explore_computes(star3d):
    kernel = kerncast.load_kernel(star3d)
    machine = kerncast.Machine("a100-sxm4-40gb")
    window = {}

    def explore():
        window["start"] = time.perf_counter()
        kerncast.explore(kernel, machine, jobs=1)  # the default sweep: hundreds of milliseconds
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=explore)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    start, end = window["start"], window["end"]
    # Holding the GIL for the whole call would leave the middle half of it without a tick.
    quarter = (end - start) / 4
    assert any(start + quarter < tick < end - quarter for tick in ticks)


def test_predictions_from_several_threads_equal_the_serial_ones(star3d):
    kernel = kerncast.load_kernel(star3d)
    machine = kerncast.Machine("a100-sxm4-40gb")
    blocks = [(32, 4, 4), (64, 4, 2), (128, 2, 2), (256, 1, 2), (16, 8, 4), (32, 8, 2)]
    serial = [kerncast.predict(kernel, machine, block=b).to_dict() for b in blocks]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda b: kerncast.predict(kernel, machine, block=b).to_dict(),
                                 blocks))
    assert parallel == serial


def test_explore_from_python_runs_a_worker_per_core(star3d):
    kernel = kerncast.load_kernel(star3d)
    machine = kerncast.Machine("a100-sxm4-40gb")
    worker = threading.Thread(target=lambda: kerncast.explore(kernel, machine, jobs=0))
    threads_seen = 0
    worker.start()
    while worker.is_alive():
        threads_seen = max(threads_seen, len(os.listdir("/proc/self/task")))
        time.sleep(0.001)
    worker.join()
    # This thread, and the Python thread calling explore, which works beside its
    # os.cpu_count() - 1 C++ workers (jobs=0: every core).
    assert threads_seen >= 1 + os.cpu_count()
