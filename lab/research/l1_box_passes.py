#!/usr/bin/python3
"""Which L1 misses cost the H100 box r3 its extra read wavefronts? A prototype, not kerncast's
model: one SM's L1 simulated while it runs the box r3 (box2d_r3.yaml, 15000^2 doubles), compared
per warp with the counters of lab/measured/h100-2026-11-26c/wavefront-parts/box.

    lab/research/l1_box_passes.py lab/measured/h100-2026-11-26c/wavefront-parts/box/table.txt

The L1 is the H100 machine file's (256 KiB, 128 B lines, 32 B sectors, 4 ways, random set
placement, LRU, a valid bit per sector). As kerncast's simulated L1 (docs/volume-model.md, L2 ->
L1): the SM runs blocks_per_sm blocks (32 at most, 64 warps), starting staggered; every turn
each running block's warps issue their next load (lockstep); a finished block is replaced by
the SM's next block in launch order (blocks b, b + 132, ...: one SM of 132). Stores are left
out (1 of 50 instructions). Blocks of the 2nd to 4th of 5 generations are counted.

Columns per warp (the table's are measured; the counters are in its README):
  reads, missed: measured read wavefronts and T-stage missed sectors;
  sim_missed: the simulated missed sectors;
  hit_rule: the bank rule without a pairing distance (the Hopper hit rule) over all lanes;
  split: the bank rule over the lanes whose lines hit plus over those whose lines miss (each
    request served in two passes when it mixes them);
  late_split: the same, with lines whose fill is still in flight counted as missing (a line
    stays in flight for --latency cycles, each turn taking 2 cycles per resident warp);
  requests, lines: requests with a missing line and missing lines (in flight included).
--chunk 2 puts pairs of consecutive blocks on one SM (they share halo data), --narrow adds the
1- to 4-wide shapes. Findings are in the README of the data (2026-11-26c) and docs/accuracy.md's
notes. kerncast's simulated L1 applies the late_split rule since (machine files'
shared_memory_banks.miss_pass, docs/volume-model.md), with the loading warp's own lines in flight
counted as here and its clock run by the requests' wavefronts.
"""
import argparse
import collections
import os
import sys

NX = 15000          # elements per row (the kernel file's nx)
OFFSET = 13         # the arrays' first element (box2d_r3.yaml: offset 13)
ELEMENT = 8         # bytes
L1_LINES, L1_WAYS = 2048, 4
SMS = 132
OFFSETS = [(dy, dx) for dy in range(-3, 4) for dx in range(-3, 4)]  # the statement's order


def bank_rule(addresses):
    """Wavefronts of one half-warp of 8 B values without a pairing distance: 16 banks of 8 B,
    one wavefront per distinct 8 B unit in the busiest bank (0 for no lanes)."""
    per_bank = collections.defaultdict(set)
    for a in addresses:
        per_bank[(a // 8) % 16].add(a // 8)
    return max((len(units) for units in per_bank.values()), default=0)


def warp_rule(address_of, lanes):
    return sum(bank_rule([address_of[l] for l in half if l in lanes])
               for half in (range(0, 16), range(16, 32)))


def splitmix64(x):
    """A random set placement (kerncast's simulated L1 hashes lines with SplitMix64 too): the
    H100's L1 places a stencil's rows of lines as it places random lines
    (lab/measured/h100-2026-11-26c/l1-sets-rows)."""
    mask = (1 << 64) - 1
    z = (x * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


class L1:
    def __init__(self):
        self.sets = [collections.OrderedDict() for _ in range(L1_LINES // L1_WAYS)]
        self.filled_at = {}

    def access(self, line, sectors):
        """The sectors that were not valid (missed); they are filled, the line allocated."""
        lines = self.sets[splitmix64(line) % len(self.sets)]
        if line in lines:
            valid = lines.pop(line)
            lines[line] = valid | sectors
            return sectors & ~valid
        if len(lines) >= L1_WAYS:
            lines.popitem(last=False)
        lines[line] = sectors
        return sectors


def simulate(bx, by, latency, chunk=0, generations=5):
    threads = bx * by
    warps = (threads + 31) // 32
    blocks_per_sm = min(32, 64 // warps)
    in_flight_turns = max(1, -(-latency // (2 * blocks_per_sm * warps)))
    grid_x = -(-(NX - 6) // bx)
    started = [0]

    def next_block():  # chunk 0: blocks b, b + SMS, ...; else runs of `chunk` consecutive ones
        n = started[0]
        started[0] += 1
        b = n * SMS if chunk == 0 else (n // chunk) * SMS * chunk + n % chunk
        return b % grid_x, b // grid_x

    slots = [{"block": next_block(), "step": -(len(OFFSETS) * j // blocks_per_sm), "generation": 0}
             for j in range(blocks_per_sm)]
    l1 = L1()
    total = collections.Counter()
    counted_warps = 0
    turn = 0
    while any(s["generation"] < generations for s in slots):
        turn += 1
        for slot in slots:
            if slot["generation"] >= generations:
                continue
            if slot["step"] < 0:
                slot["step"] += 1
                continue
            dy, dx = OFFSETS[slot["step"]]
            block_x, block_y = slot["block"]
            counted = 1 <= slot["generation"] < generations - 1
            for w in range(warps):
                address_of = {}
                for lane in range(min(32, threads - 32 * w)):
                    t = 32 * w + lane
                    x = 3 + block_x * bx + t % bx
                    y = 3 + block_y * by + t // bx
                    address_of[lane] = (OFFSET + (y + dy) * NX + x + dx) * ELEMENT
                sectors_of_line = collections.defaultdict(int)
                for a in address_of.values():
                    sectors_of_line[a // 128] |= 1 << ((a % 128) // 32)
                missing, late, missed_sectors = set(), set(), 0
                for line, sectors in sectors_of_line.items():
                    missed = l1.access(line, sectors)
                    if missed:
                        missing.add(line)
                        missed_sectors += bin(missed).count("1")
                        l1.filled_at[line] = turn
                    elif turn - l1.filled_at.get(line, -10**9) < in_flight_turns:
                        late.add(line)
                if not counted:
                    continue
                lanes = set(address_of)
                hit = {l for l in lanes if address_of[l] // 128 not in missing}
                on_time = {l for l in lanes if address_of[l] // 128 not in missing | late}
                total["sim_missed"] += missed_sectors
                total["hit_rule"] += warp_rule(address_of, lanes)
                total["split"] += warp_rule(address_of, hit) + warp_rule(address_of, lanes - hit)
                total["late_split"] += (warp_rule(address_of, on_time) +
                                        warp_rule(address_of, lanes - on_time))
                total["requests"] += bool(missing | late)
                total["lines"] += len(missing | late)
                counted_warps += slot["step"] == 0
            slot["step"] += 1
            if slot["step"] == len(OFFSETS):
                slot.update(step=0, generation=slot["generation"] + 1, block=next_block())
    return {k: v / counted_warps for k, v in total.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", help="wavefront_parts.py's table of the box r3 sweep")
    parser.add_argument("--latency", type=int, default=273,
                        help="cycles a fill is in flight (default: the H100 machine file's L2 "
                             "latency, 272.9 cycles, measured by the probe)")
    parser.add_argument("--chunk", type=int, default=0,
                        help="an SM takes runs of this many consecutive blocks (0: b, b + 132, ...)")
    parser.add_argument("--narrow", action="store_true",
                        help="also the 1- to 4-wide shapes (their missed sectors; the hit rule's "
                             "column is the bank rule of those warps)")
    args = parser.parse_args()
    rows = [l.split() for l in open(args.table, encoding="utf-8").read().splitlines()[1:]]
    columns = ("sim_missed", "hit_rule", "split", "late_split", "requests", "lines")
    print(f"{'block':10}{'reads':>8}{'missed':>8}" + "".join(f"{c:>12}" for c in columns))
    for row in rows:
        bx, by, _ = (int(v) for v in row[0].split("x"))
        if bx < 8 and not args.narrow:
            continue  # 1 to 4 lanes wide: the hit rule itself differs (l1_wavefronts tables)
        result = simulate(bx, by, args.latency, args.chunk)
        print(f"{row[0]:10}{float(row[2]):8.1f}{float(row[5]):8.1f}" +
              "".join(f"{result[c]:12.1f}" for c in columns))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
