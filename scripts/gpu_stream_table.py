"""A published gpu-stream result table (te42kyfo/gpu-benches, gpu-stream/*.txt), read for
scripts/gpu-stream-in-flight and scripts/gpu-stream-check
(data/published/gpu-benches-stream/README.md says what a row is)."""
import collections
import sys

BLOCKS_PER_SM = 2  # gpu-stream's spoiler (main.cu: measureKernels(kernels, blockSize, 2))
HEADER = ["blockSize", "threads", "%occ", "|", "init", "read", "scale", "triad"]

# A kernel of the table that mixes loads and stores with a known number of load bytes a thread
# keeps in flight: its column, the stored bytes' fraction of all its bytes (as the machine files
# write it, and as a label) and its loads a thread.
Mix = collections.namedtuple("Mix", "kernel store_fraction label load_bytes_per_thread")
MIXES = [Mix("read", 0.0, "0", 8), Mix("triad", 0.3333, "1/3", 16), Mix("scale", 0.5, "1/2", 8)]
# The stored main.cu's 1D stencils (A[i] from B[i-1..i+1] and B[i-2..i+2]): scale's mix and DRAM
# loads with more L1 hits, not used to build a machine file. Only tables whose header names both
# (an older main.cu wrote a100_40.txt's "1pt 3pt") carry them.
STENCILS = [Mix("3pt", 0.5, "1/2", 8), Mix("5pt", 0.5, "1/2", 8)]


def read_table(path, sms, program):
    """The rows of the table at PATH as {block size: {kernel: GB/s}}; a malformed table exits 1
    with a message naming PROGRAM, the file and the line. SMS: the GPU's SM count, checked
    against the `threads` column (the block size times the SMs)."""
    def fail(message):
        print(f"{program}: {message}", file=sys.stderr)
        sys.exit(1)

    try:
        lines = open(path).read().splitlines()
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    if not lines or lines[0].split()[:len(HEADER)] != HEADER:
        fail(f"{path}:1: expected the header '{' '.join(HEADER)} ...', found '{lines[:1]}'")
    columns = lines[0].split()[4:]
    rows = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        left, sep, right = line.partition("|")
        fields = left.split()
        values = right.split()
        if not sep or len(fields) != 4 or fields[3] != "%" or not values or values[0] != "GB/s:":
            fail(f"{path}:{number}: expected 'blockSize threads occ % | GB/s: ...', found '{line}'")
        values = values[1:]
        if len(values) != len(columns):
            fail(f"{path}:{number}: {len(values)} bandwidths for {len(columns)} kernels")
        try:
            block, threads = int(fields[0]), int(fields[1])
            bandwidth = {name: float(value) for name, value in zip(columns, values)}
        except ValueError:
            fail(f"{path}:{number}: a number that does not parse in '{line}'")
        if threads != block * sms:
            fail(f"{path}:{number}: {threads} threads at block size {block}: not {sms} SMs")
        if block in rows:
            fail(f"{path}:{number}: block size {block} a second time")
        rows[block] = bandwidth
    if not rows:
        fail(f"{path}: no rows")
    return rows
