#!/usr/bin/env python3
"""The table of lab/research/shared_config.cu under Nsight Compute: per launch (threads a block,
dynamic shared memory a block) the shared-memory configuration the driver picked, the L1 it
left (the unified 256 KiB array of an H100 less the configuration) and the occupancy limits.

    lab/research/shared_config_table.py lab/measured/h100-2026-11-27b/shared-config/shared_config.csv
"""
import json
import sys

from ncu_counters_into_records import number, read_ncu_details  # this folder


def main(path):
    metrics, output = read_ncu_details(path)
    launches = [json.loads(l) for l in output if l.startswith('{"threads"')]
    print('threads  dynamic shared (KiB)  reserved (B)  configuration (KiB)  L1 (KiB)  '
          'blocks a SM by: blocks  shared  registers  warps')
    for k, launch in enumerate(launches):
        m = {key: number(text) for key, text in metrics[k].items()}
        config = m['launch__shared_mem_config_size'] / 1024
        print('%7d  %20d  %12.0f  %19.0f  %8.0f  %22.0f  %6.0f  %9.0f  %5.0f' % (
            launch['threads'], launch['dynamic_shared_kib'],
            m['launch__shared_mem_per_block_driver'], config, 256 - config,
            m['launch__occupancy_limit_blocks'], m['launch__occupancy_limit_shared_mem'],
            m['launch__occupancy_limit_registers'], m['launch__occupancy_limit_warps']))


if __name__ == '__main__':
    main(sys.argv[1])
