#!/usr/bin/python3
"""Research driver, not part of kerncast's model: runs l2_lru_sim (an LRU simulation of a whole
GPU's L1s and L2) for every row of a range-2 star set (the published V100 one, or kerncast's
H200 / H100 records of the same kernel file with the machine's sizes) and compares its DRAM
and L2 -> L1 load volumes with the measurement and with kerncast's prediction, per fold.

    kerncast validate data/published/v100-warpspeed/kernels/star3d_r2.yaml -m v100-pcie-32gb \\
        --records data/published/v100-warpspeed/records/star3d-r2-folding --csv star.csv
    g++ -O2 -std=c++17 -o l2_lru_sim lab/research/l2_lru_sim.cpp
    lab/research/l2_lru_sim.py --csv star.csv --sim ./l2_lru_sim [--option group=1000]

Volumes are bytes per interior point (596 x 596 x 508); blocks per SM = 2048 threads / block
threads (every star block has 1024 threads and 32 or 31 registers: 2 per SM).

With --sweep SHAPES --sizes N,... (and --nz, --fold), it runs the same star on N x N x nz
arrays that nobody measured and compares the simulation with `kerncast predict` (--kerncast,
-m v100-pcie-32gb unless --machine): where the z-layer condition breaks, and whether kerncast
follows an LRU cache there.
"""
import argparse
import csv
import json
import math
import re
import statistics
import subprocess
from concurrent.futures import ThreadPoolExecutor

POINTS = 596 * 596 * 508


def first_section(path):
    lines = []
    with open(path) as f:
        for i, line in enumerate(f):
            if i == 0:
                continue
            if line.startswith('#'):
                break
            lines.append(line)
    return list(csv.DictReader(lines))


def p90(values):
    a = sorted(values)
    p = 0.9 * (len(a) - 1)
    lo = int(math.floor(p))
    hi = min(lo + 1, len(a) - 1)
    return a[lo] + (a[hi] - a[lo]) * (p - lo)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--csv', required=True, help='kerncast validate --csv of the star set')
    parser.add_argument('--sim', required=True, help='the built l2_lru_sim')
    parser.add_argument('--sms', default='80')
    parser.add_argument('--l1-bytes', default='131072')
    parser.add_argument('--l1-ways', default='16')
    parser.add_argument('--l2-bytes', default='6291456')
    parser.add_argument('--l2-ways', default='16')
    parser.add_argument('--option', action='append', default=[],
                        help='waves=N, group=G or replacement=lru|random (repeatable)')
    parser.add_argument('--sweep', help='block shapes (32x4x8,...) to run on other domains')
    parser.add_argument('--sizes', default='200,300,400,600,800,1100',
                        help='array elements N of the N x N planes (ghost layers included)')
    parser.add_argument('--nz', default='256')
    parser.add_argument('--fold', default='1')
    parser.add_argument('--kerncast', default='build/tools/kerncast/kerncast')
    parser.add_argument('--kernel', default='data/published/v100-warpspeed/kernels/star3d_r2.yaml')
    parser.add_argument('--machine', default='v100-pcie-32gb')
    args = parser.parse_args()
    if args.sweep:
        sweep(args)
        return

    def simulate(row):
        m = re.match(r'block=(\d+)x(\d+)x(\d+) fold=1x1x(\d+)', row['configuration'])
        bx, by, bz, fold = m.groups()
        per_sm = str(2048 // (int(bx) * int(by) * int(bz)))
        out = subprocess.run([args.sim, 'star', '2', bx, by, bz, fold, per_sm, args.sms,
                              args.l1_bytes, args.l1_ways, args.l2_bytes, args.l2_ways]
                             + args.option, capture_output=True, text=True, check=True)
        first, l2, dram = (float(v) for v in out.stdout.split()[:3])
        measured = float(row['dram__bytes_read.sum.measured']) / POINTS
        kerncast = float(row['dram__bytes_read.sum.predicted']) / POINTS
        l2_column = next(c for c in ('lts__t_sectors_srcunit_tex_op_read.sum.measured',
                                     'lts__t_sectors_op_read.sum.measured') if row.get(c))
        l2_measured = float(row[l2_column]) * 32 / POINTS
        return (f'{bx}x{by}x{bz}', int(fold), first, dram, measured, kerncast, l2, l2_measured)

    with ThreadPoolExecutor(2) as pool:
        results = sorted(pool.map(simulate, first_section(args.csv)), key=lambda r: (r[1], r[0]))
    print('block     fold  first-touch  sim DRAM  measured  kerncast   sim L2->L1  measured')
    for shape, fold, first, dram, measured, kerncast, l2, l2_measured in results:
        print(f'{shape:9s} {fold:4d} {first:12.2f} {dram:9.2f} {measured:9.2f} {kerncast:9.2f}'
              f' {l2:12.2f} {l2_measured:9.2f}')
    def error(a, b):
        return (a - b) / b * 100
    for fold in (1, 2, 4, None):
        rows = [r for r in results if fold is None or r[1] == fold]
        sim = [error(r[3], r[4]) for r in rows]
        model = [error(r[5], r[4]) for r in rows]
        print(f'fold {fold or "all"}: DRAM signed median sim {statistics.median(sim):+.1f} %, '
              f'kerncast {statistics.median(model):+.1f} %; |error| median / p90 sim '
              f'{statistics.median(map(abs, sim)):.1f} / {p90(map(abs, sim)):.1f} %, kerncast '
              f'{statistics.median(map(abs, model)):.1f} / {p90(map(abs, model)):.1f} %')


def sweep(args):
    def one(job):
        shape, n = job
        bx, by, bz = shape.split('x')
        per_sm = str(2048 // (int(bx) * int(by) * int(bz)))
        out = subprocess.run([args.sim, 'star', '2', bx, by, bz, args.fold, per_sm, args.sms,
                              args.l1_bytes, args.l1_ways, args.l2_bytes, args.l2_ways,
                              f'size={n}x{n}x{args.nz}'] + args.option,
                             capture_output=True, text=True, check=True)
        simulated = float(out.stdout.split()[2])
        report = json.loads(subprocess.run(
            [args.kerncast, 'predict', args.kernel, '-m', args.machine, '--block', shape,
             '--fold', '1x1x' + args.fold, '--registers', '32', '-D', f'nx={n}', '-D', f'ny={n}',
             '-D', f'nz={args.nz}', '--json', '-'], capture_output=True, text=True,
            check=True).stdout)['tables']
        total = next(r for r in report['volumes']['rows'] if r['array'] == 'total')
        sets = {r['set']: r for r in report['capacity']['rows']}
        z = sets.get('L2: z-layer set', {})
        return shape, n, total['dram_load'], simulated, z.get('oversubscription'), \
            z.get('hit_rate')

    jobs = [(shape, int(n)) for shape in args.sweep.split(',') for n in args.sizes.split(',')]
    print(f'block       N  kerncast DRAM  simulated  difference  z-layer O  kerncast z hit')
    with ThreadPoolExecutor(2) as pool:
        for shape, n, kerncast, simulated, z_o, z_hit in pool.map(one, jobs):
            print(f'{shape:9s} {n:5d} {kerncast:14.2f} {simulated:10.2f} '
                  f'{(kerncast - simulated) / simulated * 100:+10.1f} % {z_o:10.2f} {z_hit:14.3f}')


if __name__ == '__main__':
    main()
