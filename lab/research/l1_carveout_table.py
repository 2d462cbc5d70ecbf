#!/usr/bin/env python3
"""The carve-out run of lab/research/warp_drift.cu under ncu: L2 -> L1 sectors a point against
the L1's size (the unified array less the shared-memory configuration ncu reports).

    lab/research/l1_carveout_table.py lab/measured/h100-2026-11-27b/l1-carveout/carveout.csv

Points: the star's 596 x 596 x 508 interior (every thread inside it computes its points; the
warp-drift stamps leave out the blocks with threads outside, the carve-out counters do not).
L1 load sectors a point check it: 4.25, 3.75 and 3.50 for the 4-wide warps (8 sectors for each
of 9 loads, 16 for each of the 4 x-shifted ones, fewer loads when folded), as counted."""
import json
import sys

from ncu_counters_into_records import number, read_ncu_details  # this folder

metrics, output = read_ncu_details(sys.argv[1])
launches = [json.loads(l) for l in output if l.startswith('{"block"')]
points = 596 * 596 * 508
print('block    fold  carve-out %  shared config (KiB)  L1 (KiB)  L2->L1 sectors/point  L1 load sectors/point')
for k, c in enumerate(launches):
    m = {key: number(text) for key, text in metrics[k].items()}
    shared = m['launch__shared_mem_config_size'] / 1024
    print('%-8s %4d  %11d  %19.0f  %8.0f  %20.3f  %21.2f' % (
        c['block'], c['fold'], c['carveout_percent'], shared, 256 - shared,
        m['lts__t_sectors_srcunit_tex_op_read.sum'] / points,
        m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'] / points))
