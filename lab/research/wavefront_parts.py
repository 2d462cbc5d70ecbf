#!/usr/bin/python3
"""Per warp of a kernel sweep profiled by the wavefront_parts phase (gpu_session_next.sh): the L1
data-pipe wavefronts, split into those that read the data banks and those that write them
(stores), the sectors the T-stage found in L1 and missing, the sectors L2 sent, and the data
bank writes (stores and fills).

    lab/research/wavefront_parts.py ncu.csv SWEEP

ncu.csv is the `ncu --csv --page raw` log, SWEEP the sweep file the run used (its lines name
the launches in order: block shape and fold). Per warp = counter / (grid size x warps per
block). Standard library only (and ncu_counters_into_records.py beside it).
"""
import argparse
import sys

from ncu_counters_into_records import number, read_ncu_raw  # this folder: the raw-CSV reader

COLUMNS = (("wavefronts", "l1tex__data_pipe_lsu_wavefronts.sum"),
           ("reads", "l1tex__data_pipe_lsu_wavefronts_cmd_read.sum"),
           ("writes", "l1tex__data_pipe_lsu_wavefronts_cmd_write.sum"),
           ("hit_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
           ("missed_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"),
           ("l2_sectors", "l1tex__m_xbar2l1tex_read_sectors.sum"),
           ("bank_writes", "l1tex__data_bank_writes.sum"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ncu_csv")
    parser.add_argument("sweep")
    args = parser.parse_args()
    cells, _ = read_ncu_raw(args.ncu_csv)
    shapes = [l.split("#")[0].strip() for l in open(args.sweep, encoding="utf-8")]
    shapes = [s for s in shapes if s]
    if len(shapes) != len(cells):
        sys.exit(f"{args.ncu_csv}: {len(cells)} profiled launches, {args.sweep}: {len(shapes)} "
                 f"configurations; one each expected")
    print(f"{'configuration':24}" + "".join(f"{name:>15}" for name, _ in COLUMNS))
    for shape, cell in zip(shapes, cells):
        warps_per_block = (number(cell["launch__block_size"]) + 31) // 32
        warps = number(cell["launch__grid_size"]) * warps_per_block
        print(f"{shape:24}" + "".join(f"{number(cell[metric]) / warps:15.2f}"
                                      for _, metric in COLUMNS))


if __name__ == "__main__":
    main()
