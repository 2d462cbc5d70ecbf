"""The GIL is released while kerncast computes: other Python threads run meanwhile, and
several threads can predict at once with the results a single thread gets."""

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
