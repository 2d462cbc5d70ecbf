#!/usr/bin/env python3
"""The table of tools/research/shared_config.cu under Nsight Compute: per launch (threads a block,
dynamic shared memory a block) the shared-memory configuration the driver picked, the L1 it
left (the unified 256 KiB array of an H100 less the configuration) and the occupancy limits.

    tools/research/shared_config_table.py data/measured/h100-2026-11-27b/shared-config/shared_config.csv
"""
import csv
import json
import sys


def main(path):
    lines = open(path).read().splitlines()
    launches = [json.loads(l) for l in lines if l.startswith('{"threads"')]
    start = [k for k, l in enumerate(lines) if l.startswith('"ID"')][0]
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    iid, name, value = header.index('ID'), header.index('Metric Name'), header.index('Metric Value')
    metrics = {}
    for r in rows[1:]:
        metrics.setdefault(int(r[iid]), {})[r[name]] = float(r[value].replace(',', ''))
    print('threads  dynamic shared (KiB)  reserved (B)  configuration (KiB)  L1 (KiB)  '
          'blocks a SM by: blocks  shared  registers  warps')
    for k, launch in enumerate(launches):
        m = metrics[k]
        config = m['launch__shared_mem_config_size'] / 1024
        print('%7d  %20d  %12.0f  %19.0f  %8.0f  %22.0f  %6.0f  %9.0f  %5.0f' % (
            launch['threads'], launch['dynamic_shared_kib'],
            m['launch__shared_mem_per_block_driver'], config, 256 - config,
            m['launch__occupancy_limit_blocks'], m['launch__occupancy_limit_shared_mem'],
            m['launch__occupancy_limit_registers'], m['launch__occupancy_limit_warps']))


if __name__ == '__main__':
    main(sys.argv[1])
