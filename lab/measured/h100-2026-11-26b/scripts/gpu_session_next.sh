#!/bin/bash
# The device checks issue 10 left for the next GPU session, batched into one `run` call
# (docs/accuracy.md, notes "The L1 on Hopper" and "Kept: the layer condition's working set"):
#   1. l1_wavefronts wavefronts: L1 wavefronts and sectors per warp load by warp shape, row
#      shift, element size and L1 hit or miss, under Nsight Compute;
#   2. l1_wavefronts l2-mix: L2 bandwidth with loads and stores mixed (CUDA events);
#   3. the published star (star3d_r2) over its 90 block shapes and folds with the fold fast
#      path (docs/codegen.md, Folding): ncu volumes and L1 counters, then CUDA-event times;
#   4. box_widths: the box r3 over its 48 block shapes under ncu with L1 request, L2 -> L1 fill
#      and warp-stall counters (why 16-wide blocks are slower at the same wavefronts);
#   5. box_times: the box r1..r3 over the same 48 shapes, timed;
#   6. the z-layer transition (docs/accuracy.md, notes "the V100 model on domains nobody
#      measured"): the star on N x N planes of a constant total (Ernst et al. fig. 23), five
#      unfolded block shapes, ncu volumes; kerncast's z-layer curve is least certain there;
#   7. device_tests: the staged build's device tests.
# First run 2026-11-26 on an H100 (lab/measured/h100-2026-11-26b). Stage first (lab/research/stage_devrun.sh), then, with the device tool:
#   run(command="BUDGET_S=540 lab/research/gpu_session_next.sh", carry=[".devrun"], timeout_s=600)
# PHASES="z_transition" (a space-separated list of phase names) runs only those, e.g. in a second
# call when the first one ran out of time. Every phase has a time cap; everything is packed
# into $OUT/results.tar.gz after each phase.
# Afterwards: lab/research/l1_wavefronts.py and ncu_counters_into_records.py turn the raw logs
# into tables and records (lab/measured/<gpu>-<date>/, README with device, driver, clocks).
set -u
START=$(date +%s)
DEADLINE=$((START + ${BUDGET_S:-540}))
ROOT=$PWD
D=$ROOT/.devrun
W=/tmp/kc
mkdir -p $W
exec > >(tee -a $W/session.log) 2>&1
pack() { (cd /tmp && tar czf $OUT/results.tar.gz kc); }
left() { echo $((DEADLINE - $(date +%s))); }
cap() { local c=$1 l; l=$(left); [ $l -lt $c ] && c=$l; [ $c -lt 5 ] && c=5; echo $c; }
phase() { echo; echo "=== $1 $(date -u +%FT%TZ) left=$(left)s"; }
want() { [ -z "${PHASES:-}" ] || [[ " $PHASES " == *" $1 "* ]]; }

phase meta
NV=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib 2>/dev/null | tr '\n' ':')
export LD_LIBRARY_PATH=$D/lib:$NV${LD_LIBRARY_PATH:-}
[ -f /usr/local/cuda/include/cuda_fp16.h ] ||
  export KERNCAST_CUDA_INCLUDE_DIR=$(dirname "$(find / -name cuda_fp16.h 2>/dev/null | head -1)")
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
K=$D/bin/kerncast
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$GPU" in
  *H200*) MACHINE=h200-sxm-141gb ;;
  *H100*) MACHINE=h100-sxm5-80gb ;;
  *) echo "no kerncast machine file for '$GPU'"; MACHINE="" ;;
esac
{
  date -u +%FT%TZ; echo "gpu=$GPU machine=$MACHINE commit=$(cat $D/commit.txt 2>/dev/null)"
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv
  $NVCC --version | tail -2; echo "ncu=$NCU"; ${NCU:-false} --version
} > $W/meta.txt 2>&1
cat $W/meta.txt
pack

if want l2_mix || want wavefronts; then
  phase l1_wavefronts_build
  $NVCC -O2 -arch=native -o $W/l1_wavefronts lab/research/l1_wavefronts.cu > $W/nvcc.log 2>&1
  echo "nvcc rc=$?"; cat $W/nvcc.log
fi

if want l2_mix; then
  phase l2_mix
  timeout $(cap 60) $W/l1_wavefronts l2-mix > $W/l2_mix.jsonl 2> $W/l2_mix.log
  echo "l2-mix rc=$?"; cat $W/l2_mix.jsonl
  pack
fi

if want wavefronts; then
  phase wavefronts
  timeout $(cap 200) $NCU --csv --page raw --print-units base --log-file $W/wavefronts.csv \
    --metrics l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum \
    --kernel-name regex:pattern $W/l1_wavefronts wavefronts > $W/launches.jsonl 2> $W/wavefronts.log
  echo "wavefronts rc=$? launches=$(wc -l < $W/launches.jsonl)"
  pack
fi

[ -n "$MACHINE" ] || { phase end; pack; exit 0; }
PK=data/published/v100-warpspeed/kernels
SWEEP=lab/measured/h200-2026-11-26/sweeps/star.txt
METRICS=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__data_pipe_lsu_wavefronts.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__cycles_elapsed.avg
METRICS=$METRICS,gpu__time_duration.sum,launch__registers_per_thread,launch__block_size,launch__grid_size

if want star_ncu; then
  phase star_ncu
  mkdir -p $W/ncu/star
  timeout $(cap 170) $NCU --csv --page raw --print-units base --metrics "$METRICS" \
    --kernel-name "regex:^star3d_r2$" --target-processes all --log-file $W/ncu/star.csv \
    $K validate $PK/star3d_r2.yaml -m $MACHINE --sweep $SWEEP --warmup 0 --repeat 1 \
    --save $W/ncu/star --json $W/ncu/star.validate.json > $W/ncu/star.log 2>&1
  echo "star ncu rc=$? rows=$(grep -c star3d_r2 $W/ncu/star.csv 2>/dev/null)"
  pack
fi

if want star_times; then
  phase star_times
  mkdir -p $W/timing/star
  timeout $(cap 90) $K validate $PK/star3d_r2.yaml -m $MACHINE --sweep $SWEEP --repeat 10 \
    --save $W/timing/star --json $W/timing/star.validate.json > $W/timing/star.log 2>&1
  echo "star times rc=$?"; tail -5 $W/timing/star.log
  pack
fi

# Why 16-wide blocks are slower than 32-wide ones at the same modelled wavefronts (V100 r3:
# 973-1089 against 1158-1274 GFlop/s; H200 r3: 56-66 against 67-71 GLup/s; docs/accuracy.md,
# notes "Rankings still missed"): the 48 box r3 shapes under ncu with the L1 request, fill and
# warp-stall counters next to the volumes. If ncu refuses a metric name, the run is repeated
# with the volume metrics and the stall section only.
if want box_widths; then
  phase box_widths
  mkdir -p $W/ncu/box_widths
  BOX_SWEEP=lab/measured/h200-2026-11-26/sweeps/box_blocks.txt
  WIDTH_METRICS=$METRICS,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  WIDTH_METRICS=$WIDTH_METRICS,l1tex__m_xbar2l1tex_read_sectors.sum
  box_ncu() {
    timeout $(cap 120) $NCU --csv --page raw --print-units base --metrics "$1" \
      --section WarpStateStats --kernel-name "regex:^box2d_r3_v100$" --target-processes all \
      --log-file $W/ncu/box_widths.csv $K validate $PK/box2d_r3.yaml -m $MACHINE \
      --sweep $BOX_SWEEP --warmup 0 --repeat 1 --save $W/ncu/box_widths \
      > $W/ncu/box_widths.log 2>&1
  }
  box_ncu "$WIDTH_METRICS"; rc=$?
  [ $rc -ne 0 ] && { echo "box widths rc=$rc, again without the L1 request metrics"; box_ncu "$METRICS"; rc=$?; }
  echo "box widths rc=$rc rows=$(grep -c box2d_r3_v100 $W/ncu/box_widths.csv 2>/dev/null)"
  pack
fi

# The box r1..r3 over their 48 block shapes, timed (warm-up 3, 5 launches), as the H200's
# box2d-times: a second GPU's ranking for the same kernels.
if want box_times; then
  phase box_times
  for r in 1 2 3; do
    mkdir -p $W/timing/box_r$r
    timeout $(cap 45) $K validate $PK/box2d_r$r.yaml -m $MACHINE \
      --sweep lab/measured/h200-2026-11-26/sweeps/box_blocks.txt --repeat 5 \
      --save $W/timing/box_r$r > $W/timing/box_r$r.log 2>&1
    echo "box r$r times rc=$? records=$(ls $W/timing/box_r$r | wc -l)"
  done
  pack
fi

# The z-layer transition: N x N x NZ arrays, NZ = 2^28 / N^2 (a constant 256 Mi elements per
# array, as fig. 23 keeps its total), one validate process per N (parameters are per call).
if want z_transition; then
  phase z_transition
  printf '%s\n' 32x32x1 32x16x2 32x8x4 32x4x8 64x4x4 > $W/z_shapes.txt
  for N in 400 600 800 1000 1200 1400 1700 2000; do
    NZ=$(( (1 << 28) / (N * N) ))
    mkdir -p $W/ncu/z/$N
    timeout $(cap 40) $NCU --csv --page raw --print-units base --metrics "$METRICS" \
      --kernel-name "regex:^star3d_r2$" --target-processes all --log-file $W/ncu/z/$N.csv \
      $K validate $PK/star3d_r2.yaml -m $MACHINE -D nx=$N -D ny=$N -D nz=$NZ \
      --sweep $W/z_shapes.txt --warmup 0 --repeat 1 --save $W/ncu/z/$N \
      --json $W/ncu/z/$N.validate.json > $W/ncu/z/$N.log 2>&1
    echo "z N=$N nz=$NZ rc=$? rows=$(grep -c star3d_r2 $W/ncu/z/$N.csv 2>/dev/null)"
  done
  pack
fi

# The device tests of this build (GoogleTest; they register only where a GPU is present).
if want device_tests; then
  phase device_tests
  timeout $(cap 90) $D/bin/device_tests > $W/device_tests.txt 2>&1
  echo "device tests rc=$?"; tail -3 $W/device_tests.txt
  pack
fi

phase end
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >> $W/meta.txt
pack
ls -la $OUT
