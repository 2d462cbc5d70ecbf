#!/bin/bash
# The device checks issue 10 left for the next GPU session, batched into one `run` call
# (docs/accuracy.md, notes "The L1 on Hopper" and "Kept: the layer condition's working set"):
#   1. l1_wavefronts wavefronts: L1 wavefronts and sectors per warp load or store by warp
#      shape, row pitch and shift, element size and L1 hit, miss or partial hit, under Nsight
#      Compute (the partial hits are new since the 2026-11-26 runs);
#   2. l1_wavefronts l2-mix: L2 bandwidth with loads and stores mixed (CUDA events);
#   3. the published star (star3d_r2) over its 90 block shapes and folds with the fold fast
#      path (docs/codegen.md, Folding): ncu volumes and L1 counters, then CUDA-event times;
#   4. box_widths: the box r3 over its 48 block shapes under ncu with L1 request, L2 -> L1 fill
#      and warp-stall counters (why 16-wide blocks are slower at the same wavefronts);
#   5. box_times: the box r1..r3 over the same 48 shapes, timed;
#   6. the z-layer transition (docs/accuracy.md, notes "the V100 model on domains nobody
#      measured"): the star on N x N planes of a constant total (Ernst et al. fig. 23), five
#      unfolded block shapes, ncu volumes; kerncast's z-layer curve is least certain there;
#   7. sass: the generated box r3 and star kernels' SASS (cuobjdump), for the load batches;
#   8. device_tests: the staged build's device tests;
#   9. wavefront_parts: the L1 wavefronts split into reads, writes (fills) and T-stage hits and
#      misses, for the l1_wavefronts patterns, the box r3 and the star (2026-11-26c);
#  10. l1_rows: the L1's set placement for rows of lines (lab/research/l1_sets.cu rows mode);
#  11. block_sm: which blocks share an SM while the box r3 runs (lab/research/block_sm.cu);
#  12. dram_mix: DRAM bandwidth with loads and stores mixed (l1_wavefronts dram-mix);
#  13. stalls: warp states, occupancy and unit throughputs of 14 star and 6 box r2 shapes;
#  14. stalls_r1: the same for 8 box r1 shapes;
#  15. probe_bandwidth: `kerncast probe --only bandwidth` twice (with the DRAM bandwidth of
#      each load/store mix since 2026-11-27b, the L2's since 2026-11-27e: l2.mixed_bandwidth,
#      whose table the Hopper files need; needs the staged build);
#  16. warp_drift: how far a block's warps drift apart over the star's fold instances;
#  17. carveout: the star's L2 -> L1 against the L1's size (ncu, warp_drift carveout);
#  18. shared_config: the shared-memory configuration the driver picks (ncu, shared_config.cu);
#  19. occupancy: the box r1's time at 1..16 resident blocks an SM (occupancy_sweep.cu);
#  20. loaded_latency: DRAM latency (mean and percentiles of single hops; tabulated by
#      lab/research/loaded_latency_table.py) against the
#      bandwidth other SMs stream at
#      (loaded_latency.cu; not run yet: for the limit by bytes in flight, docs/accuracy.md,
#      notes 2026-11-27d);
#  21. probe_dram: `kerncast probe --only dram` twice (the unloaded latency and, since
#      2026-11-27d, the latency under load, dram.loaded_latency; needs the staged build);
#  22. box_folds: the box r1 over 8 block shapes with folds 1x1x1, 1x2x1 and 1x4x1, timed: the
#      in-flight limiter (2026-11-27f) forecasts a y fold of 2 about 13 % faster than none on
#      the H200 (twice the loads in flight an SM) and 6 % on the H100, a forecast made before
#      any GPU ran it (lab/forecasts/box-r1-y-folds-2026-11-27.md; docs/accuracy.md, notes
#      2026-11-27f); with block retirement (2026-11-27g) 17 % and 10 %, and blocks of fewer
#      warps faster (lab/forecasts/box-r1-y-folds-2026-11-27g.md);
#  23. dram_segments: DRAM bandwidth by the length of contiguous segments read, scattered or in
#      order (dram_segments.cu: do narrow blocks lose DRAM bandwidth to short pieces?).
#  24. warp_sizes: `warp_drift sizes`, blocks of 1 to 32 warps unfolded: whether a block's life
#      grows with its warps as independent warp durations say (compute.warp_duration_cv,
#      block_retirement.hpp; lab/research/warp_duration_cv.py gives each size's cv).
#  25. probe_l1: `kerncast probe --only l1` twice: the L1's line a tag covers (l1.tag_line,
#      2026-11-29; forecast before any GPU ran it: lab/forecasts/l1-tag-line-2026-11-29.md)
#      apart from the 32 B sector its misses fetch (l1.line); needs the staged build.
#  26. probe_mwp: `kerncast probe --only mwp` twice: the departure delays with 12 warp counts of
#      15 launches (2026-11-29; forecast: lab/forecasts/departure-delays-2026-11-29.md).
#  27. autotuning: issue 44's spaces (examples/autotuning/spaces), each configuration the
#      model can run timed with CUDA events (validate --sweep --repeat 5 --save), then Nsight
#      Compute volumes of 8 configurations a kernel file (seeded sample): all of the
#      small spaces, a seeded random sample of SPACE_SAMPLE (default 120) of convolution,
#      pnpoly (341-342 configurations) and hotspot (2838; the issue asks for 300 or all, which
#      needs a session of its own: SPACE_SAMPLE=342 PHASES=autotuning). Forecast before any GPU ran them:
#      lab/forecasts/autotuning-2026-11-29/.
#  28. dram_l1_overlap: a coalesced DRAM stream with k extra L1-hit loads of 2, 8 or 32 lines a
#      warp, and the same code hitting L1 only (dram_l1_overlap.cu): do the DRAM and L1 times
#      add when close (2026-12-04 lead: lab/research/l1_dram_overlap.py; forecasts
#      lab/forecasts/issue46-2026-12-04/)? `lab/research/l1_dram_overlap.py table JSONL`.
# Those 2026-11-26 notes asked for (partial and sector-partial lines, the SASS, the H200 star
# with the fold fast path) ran in the third session (lab/measured/*-2026-11-26c). Still open
# there, and what runs it next: the read wavefronts of narrow warps' misses with many loads in
# flight (the generated code has about 11; `FAMILY=burst PHASES="wavefront_parts"
# PARTS_KERNELS=0`: K = 1..12 loads a warp, each missing), the narrow warps' own miss price
# that kerncast's pass for missing lanes leaves out (docs/volume-model.md); and which blocks
# share an SM (`PHASES="block_sm"`: the 1- to 4-wide L2 -> L1 volumes depend on it); and the
# DRAM's bandwidth for a mix of loads and stores (`PHASES="dram_mix"`: the box r1's DRAM-bound
# shapes run 19 % or more below the limit of loads alone). FAMILY
# (hit, miss, partial, inflight, store or burst) limits the wavefronts and wavefront_parts
# phases to one family.
# First run 2026-11-26 on an H100 and an H200 (lab/measured/*-2026-11-26b). Stage first
# (lab/research/stage_devrun.sh), then, with the device tool:
#   run(command="BUDGET_S=540 lab/research/gpu_session_next.sh", carry=[".devrun"], timeout_s=600)
# PHASES="z_transition" (a space-separated list of phase names) runs only those, e.g. in a second
# call when the first one ran out of time. Every phase has a time cap; everything is packed
# into $OUT/results.tar.gz after each phase.
# Afterwards: lab/research/l1_wavefronts.py and ncu_counters_into_records.py turn the raw logs
# into tables and records (lab/measured/<gpu>-<date>/, README with device, driver, clocks).
# The shared preamble: budget, helpers, the meta phase (device, driver, clocks).
source "$(dirname "$0")/devrun_common.sh"

if want l2_mix || want dram_mix || want wavefronts; then
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

# DRAM bandwidth with loads and stores mixed (the box r1 moves 8 B in and 8 B out a point and
# reaches 80 % of the probe's load bandwidth on the H200; docs/accuracy.md, 2026-11-26 notes).
if want dram_mix; then
  phase dram_mix
  timeout $(cap 60) $W/l1_wavefronts dram-mix > $W/dram_mix.jsonl 2> $W/dram_mix.log
  echo "dram-mix rc=$?"; cat $W/dram_mix.jsonl
  pack
fi

if want wavefronts; then
  phase wavefronts
  WF=l1tex__data_pipe_lsu_wavefronts.sum
  for op in ld st; do
    WF=$WF,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum
    WF=$WF,l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum
  done
  timeout $(cap 200) $NCU --csv --page raw --print-units base --log-file $W/wavefronts.csv \
    --metrics $WF \
    --kernel-name regex:pattern $W/l1_wavefronts wavefronts ${FAMILY:-} > $W/launches.jsonl 2> $W/wavefronts.log
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

# The SASS of the generated kernels (cuobjdump; nothing runs on the GPU): how many loads ptxas
# issues before their first use, the run length a warp issues back to back, which the simulated
# L1's schedule lacks (docs/accuracy.md, note "Measured: the Hopper L1 rule, ...": narrow
# blocks). Compiled as kerncast's NVRTC compiles them: -arch of this GPU, C++17.
if want sass; then
  phase sass
  mkdir -p $W/sass
  CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
  sass() { # NAME KERNEL BLOCK [FOLD]
    $K codegen $PK/$2.yaml --block $3 ${4:+--fold $4} -o $W/sass/$1.cu &&
      $NVCC -arch=native -std=c++17 -cubin -o $W/sass/$1.cubin $W/sass/$1.cu &&
      $CUOBJDUMP -sass $W/sass/$1.cubin > $W/sass/$1.sass
    echo "sass $1 rc=$? loads=$(grep -c LDG $W/sass/$1.sass 2>/dev/null)"
  }
  sass box_r3_1x32 box2d_r3 1,32,1
  sass box_r3_4x32 box2d_r3 4,32,1
  sass box_r3_32x8 box2d_r3 32,8,1
  sass star_32x4x8 star3d_r2 32,4,8
  sass star_32x4x8_z2 star3d_r2 32,4,8 1,1,2
  pack
fi

# What a wavefront is made of (2026-11-26c): the L1 data pipe's wavefronts split into reads
# and writes (fills of missed sectors), bank reads and writes, F-stage wavefronts and the
# T-stage's sector hits and misses, for every l1_wavefronts pattern and for the box r3 (48
# shapes) and the star (90 shapes and folds): whether a missing sector's extra wavefronts are
# its fill, which the simulated L1's missed sectors would give without a fit.
if want wavefront_parts; then
  phase wavefront_parts
  PARTS=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_cmd_read.sum
  PARTS=$PARTS,l1tex__data_pipe_lsu_wavefronts_cmd_write.sum,l1tex__data_bank_reads.sum
  PARTS=$PARTS,l1tex__data_bank_writes.sum,l1tex__f_wavefronts.sum
  PARTS=$PARTS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  PARTS=$PARTS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
  PARTS=$PARTS,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  PARTS=$PARTS,l1tex__m_xbar2l1tex_read_sectors.sum
  mkdir -p $W/parts
  [ -x $W/l1_wavefronts ] ||
    $NVCC -O2 -arch=native -o $W/l1_wavefronts lab/research/l1_wavefronts.cu
  WP=$PARTS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  WP=$WP,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  WP=$WP,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  timeout $(cap 150) $NCU --csv --page raw --print-units base --log-file $W/parts/wavefronts.csv \
    --metrics $WP --kernel-name regex:pattern $W/l1_wavefronts wavefronts ${FAMILY:-} \
    > $W/parts/launches.jsonl 2> $W/parts/wavefronts.log
  echo "parts wavefronts rc=$? launches=$(wc -l < $W/parts/launches.jsonl)"
  pack
  if [ -n "$MACHINE" ] && [ "${PARTS_KERNELS:-1}" = 1 ]; then # PARTS_KERNELS=0: patterns only
    for k in box:box2d_r3:box2d_r3_v100:lab/measured/h200-2026-11-26/sweeps/box_blocks.txt \
             star:star3d_r2:star3d_r2:$SWEEP; do
      IFS=: read -r name file kernel sweep <<< "$k"
      mkdir -p $W/parts/$name
      timeout $(cap 120) $NCU --csv --page raw --print-units base --metrics "$METRICS,$PARTS" \
        --kernel-name "regex:^$kernel\$" --target-processes all --log-file $W/parts/$name.csv \
        $K validate $PK/$file.yaml -m $MACHINE --sweep $sweep --warmup 0 --repeat 1 \
        --save $W/parts/$name > $W/parts/$name.log 2>&1
      echo "parts $name rc=$? rows=$(grep -c "\"$kernel\"" $W/parts/$name.csv 2>/dev/null)"
      pack
    done
  fi
fi

# The L1's set placement for a stencil's working set (2026-11-26c): K lines as rows of 1 or 2
# lines 120000 B apart (the box's rows) and of 2 lines 4800 B apart (the star's), against K
# random lines and K consecutive ones (lab/research/l1_sets.cu); whether rows collide as
# random placement has them collide (kerncast's simulated L1) or not (consecutive lines).
if want l1_rows; then
  phase l1_rows
  mkdir -p $W/l1_rows
  $NVCC -O2 -arch=native -o $W/l1_sets lab/research/l1_sets.cu
  for m in "random" "seq" "rows 120000 1" "rows 120000 2" "rows 4800 2"; do
    name=$(echo $m | tr ' ' '-')
    kmax=2304; [ "$m" = "rows 120000 1" ] && kmax=2176 # 2305 rows of 120000 B: > 256 MiB
    timeout $(cap 40) $W/l1_sets 6 128 $kmax 128 0 ${m/random/} \
      > $W/l1_rows/$name.json 2> $W/l1_rows/$name.log
    echo "l1_rows $name rc=$?"
  done
  pack
fi

# Which blocks share an SM while the box r3 runs (lab/research/block_sm.cu): %smid and start
# and end times per block for the 1- to 8-wide shapes and 32x8 (the known miss "H100 2D box r3,
# 48 block shapes: L2->L1 load p90"; docs/accuracy.md, note "Which blocks share an SM").
if want block_sm; then
  phase block_sm
  $NVCC -O2 -arch=native -std=c++17 -o $W/block_sm lab/research/block_sm.cu
  timeout $(cap 120) $W/block_sm 3 > $W/block_sm.jsonl 2> $W/block_sm.log
  echo "block_sm rc=$? shapes=$(($(wc -l < $W/block_sm.jsonl) - 1))"
  pack
fi

# Nsight Compute's warp states, occupancy and unit throughputs (SpeedOfLight, WarpStateStats,
# Occupancy and SchedulerStats) with the volume counters for the shapes in
# $W/stalls/NAME_shapes.txt: stalls_ncu NAME KERNEL_FILE KERNEL_NAME CAP_S writes
# $W/stalls/NAME.csv, .log and the records in $W/stalls/NAME/.
stalls_ncu() {
  local name=$1 file=$2 kernel=$3 cap_s=$4
  mkdir -p $W/stalls/$name
  timeout $(cap $cap_s) $NCU --csv --page raw --print-units base --section SpeedOfLight \
    --section WarpStateStats --section Occupancy --section SchedulerStats --metrics "$METRICS" \
    --kernel-name "regex:^$kernel\$" --target-processes all --log-file $W/stalls/$name.csv \
    $K validate $PK/$file.yaml -m $MACHINE --sweep $W/stalls/${name}_shapes.txt --warmup 0 \
    --repeat 1 --save $W/stalls/$name > $W/stalls/$name.log 2>&1
  echo "stalls $name rc=$? rows=$(grep -c "$kernel" $W/stalls/$name.csv 2>/dev/null)"
  pack
}

# Why the unfolded star and the 1024-thread box r2 blocks run slower than any limit says
# (docs/accuracy.md, known misses "H100 ranking 3D star r2" and "box r2"): 14 star shapes and
# folds (the measured fastest and slowest, and one shape unfolded and folded) and 6 box r2
# shapes.
if want stalls; then
  phase stalls
  mkdir -p $W/stalls
  printf '%s\n' "128x8x1 1x1x4" "32x32x1 1x1x2" "128x8x1 1x1x1" "32x32x1 1x1x1" \
    "32x4x8 1x1x1" "32x4x8 1x1x2" "32x4x8 1x1x4" "4x32x8 1x1x1" "4x256x1 1x1x1" \
    "128x1x8 1x1x1" "16x8x8 1x1x1" "64x4x4 1x1x1" "64x4x4 1x1x4" "256x4x1 1x1x2" \
    > $W/stalls/star_shapes.txt
  printf '%s\n' 512x2x1 256x2x1 128x2x1 64x2x1 32x4x1 16x8x1 > $W/stalls/box_r2_shapes.txt
  stalls_ncu star star3d_r2 star3d_r2 150
  stalls_ncu box_r2 box2d_r2 box2d_r2_v100 60
fi

# The box r1's fastest shapes, which the model has DRAM-bound (H200: 877.8 us predicted,
# 1078-1341 measured) or L1-bound (32x4: 1065 predicted, 1080 measured): which unit is busy
# (docs/accuracy.md, known misses "ranking 2D box r1").
if want stalls_r1; then
  phase stalls_r1
  mkdir -p $W/stalls
  printf '%s\n' 64x4x1 32x4x1 128x2x1 32x8x1 256x2x1 32x16x1 16x64x1 32x32x1 \
    > $W/stalls/box_r1_shapes.txt
  stalls_ncu box_r1 box2d_r1 box2d_r1_v100 90
fi

# The device tests of this build (GoogleTest; they register only where a GPU is present).
# How far the warps of a block drift apart over the star's fold instances (clock64 stamps;
# lab/research/warp_drift.cu).
if want warp_drift; then
  phase warp_drift
  compile_and_run warp_drift warp_drift 60
fi

# The star's L2 -> L1 sectors against the L1's size (preferred carve-outs 0..75 %), under ncu
# (warp_drift.cu carveout; built by the warp_drift phase, or here).
if want carveout; then
  phase carveout
  built warp_drift
  timeout $(cap 240) ${NCU:-false} --metrics lts__t_sectors_srcunit_tex_op_read.sum,launch__shared_mem_config_size,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum \
    --csv $W/warp_drift carveout > $W/carveout.csv 2> $W/carveout.log
  echo "carveout rc=$?"; tail -3 $W/carveout.log; grep -c lts__t_sectors $W/carveout.csv
  pack
fi

# The shared-memory configuration the driver picks by block size and shared memory a block
# claims (lab/research/shared_config.cu under ncu).
if want shared_config; then
  phase shared_config
  $NVCC -O2 -arch=native -std=c++17 -o $W/shared_config lab/research/shared_config.cu
  timeout $(cap 180) ${NCU:-false} --metrics launch__shared_mem_config_size,launch__block_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_driver,launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__registers_per_thread \
    --csv $W/shared_config > $W/shared_config.csv 2> $W/shared_config.log
  echo "shared_config rc=$?"; tail -3 $W/shared_config.log; grep -c launch__shared_mem_config_size $W/shared_config.csv
  pack
fi

# The box r1 at limited occupancy (dynamic shared memory), timed: DRAM latency under load and
# whether a block's size matters beyond its resident threads (lab/research/occupancy_sweep.cu).
if want occupancy; then
  phase occupancy
  compile_and_run occupancy_sweep occupancy 120
fi

# A pointer chase's latency while the other SMs stream loads (or loads and stores) at 0..15
# blocks of 128 threads an SM: the DRAM latency under load, a curve of the GPU
# (lab/research/loaded_latency.cu).
if want loaded_latency; then
  phase loaded_latency
  compile_and_run loaded_latency loaded_latency 90
fi

# probe_twice GROUP PATTERN: `kerncast probe --only GROUP` twice, each run's raw record, report,
# JSON and machine file in $W/probe_GROUP_N, the report's lines matching PATTERN printed.
probe_twice() {
  local n dir
  for n in 1 2; do
    phase probe_$1_$n
    dir=$W/probe_$1_$n
    mkdir -p $dir
    timeout $(cap 120) $K probe --only $1 --raw $dir -o $dir/machine.json --json $dir/probe.json \
      > $dir/probe.txt 2> $dir/stderr.txt
    echo "probe rc=$?"; grep -E "$2" $dir/probe.txt | cut -c1-150
    pack
  done
}

# The probe's bandwidth group, with its DRAM bandwidth by load/store mix (mix_stream,
# 2026-11-27).
if want probe_bandwidth; then
  probe_twice bandwidth 'bandwidth'
fi

# The probe's dram group: its latency under load (dram.loaded_latency) beside the research
# program's (loaded_latency phase).
if want probe_dram; then
  probe_twice dram 'latency'
fi

# The probe's l1 group: the sector (l1.line) and, since 2026-11-29, the line a tag covers
# (l1.tag_line: doubling strides over 1.25x the L1's size).
if want probe_l1; then
  probe_twice l1 'line'
fi

# The probe's mwp group: Mem_LD and the departure delays (each warp count's fastest launch).
if want probe_mwp; then
  probe_twice mwp 'departure|mem_ld'
fi

# Issue 44: the autotuning spaces, timed. The sweep is explore's own list of the space's
# configurations that can run (its CSV: rows with a rank), so the records are the forecast's.
if want autotuning; then
  phase autotuning
  mkdir -p $W/autotuning
  # kt_convolution_staged before kt_convolution: both write kt_convolution.sweep (a space's
  # awk truncates its files), and the whole space's must be the one kept.
  for space in kt_vector_add kt_stencil kt_transpose kt_matmul ktt_bicg_q ktt_bicg_s \
      ktt_coulomb_sum kt_convolution_staged kt_convolution kt_pnpoly bat_hotspot \
      kt_convolution_shared bat_hotspot_shared; do
    $K explore --space examples/autotuning/spaces/$space.yaml -m $MACHINE \
      --csv $W/autotuning/$space.csv -q > /dev/null 2>&1
    # One sweep file per kernel file (a space with variants has a `kernel` column; the kernel
    # files are named as their kernels).
    awk -F, -v space=$space -v dir=$W/autotuning '
      NR == 1 { for (i = 1; i <= NF; ++i) column[$i] = i; next }
      $1 != "" { kernel = ("kernel" in column) ? $column["kernel"] : space
                 print $column["block"], $column["fold"] > (dir "/" kernel ".sweep") }' \
      $W/autotuning/$space.csv
  done
  for sweep in $W/autotuning/*.sweep; do
    kernel=$(basename $sweep .sweep)
    case $kernel in kt_convolution|kt_pnpoly|bat_hotspot|kt_convolution_shared|bat_hotspot_shared)
      shuf -n ${SPACE_SAMPLE:-120} --random-source=<(yes 44) $sweep > $sweep.sample &&
        mv $sweep.sample $sweep ;;
    esac
    mkdir -p $W/autotuning/$kernel
    timeout $(cap 150) $K validate examples/autotuning/$kernel.yaml -m $MACHINE \
      --sweep $sweep --repeat 5 --save $W/autotuning/$kernel > $W/autotuning/$kernel.log 2>&1
    echo "$kernel rc=$? records=$(ls $W/autotuning/$kernel | wc -l) of $(wc -l < $sweep)"
    tail -8 $W/autotuning/$kernel.log
    pack
  done
  # Nsight Compute volumes on a sample: 8 configurations of each kernel file (seeded).
  for sweep in $W/autotuning/*.sweep; do
    kernel=$(basename $sweep .sweep)
    shuf -n 8 --random-source=<(yes 44) $sweep > $W/autotuning/$kernel.ncu.sweep
    mkdir -p $W/autotuning/ncu/$kernel
    timeout $(cap 60) ${NCU:-false} --csv --page raw --print-units base --metrics "$METRICS" \
      --kernel-name "regex:^$kernel\$" --target-processes all \
      --log-file $W/autotuning/ncu/$kernel.csv \
      $K validate examples/autotuning/$kernel.yaml -m $MACHINE \
      --sweep $W/autotuning/$kernel.ncu.sweep --warmup 0 --repeat 1 \
      --save $W/autotuning/ncu/$kernel > $W/autotuning/ncu/$kernel.log 2>&1
    echo "$kernel ncu rc=$? rows=$(grep -c "$kernel" $W/autotuning/ncu/$kernel.csv 2>/dev/null)"
    pack
  done
fi

if want dram_segments; then
  phase dram_segments
  compile_and_run dram_segments dram_segments 60
fi

# The DRAM and L1 times of one kernel, apart and together (dram_l1_overlap.cu).
if want dram_l1_overlap; then
  phase dram_l1_overlap
  compile_and_run dram_l1_overlap dram_l1_overlap 60
fi

# A block's life against its warps' mean duration for blocks of 1 to 32 warps (warp_drift.cu
# sizes; the block retirement of docs/volume-model.md assumes independent warps).
if want warp_sizes; then
  phase warp_sizes
  compile_and_run warp_drift warp_drift_sizes 60 sizes
fi

# The box r1 with folds along y: a thread's loads of its points in flight together, so a fold
# of 2 keeps twice the loads in flight an SM at the same occupancy.
if want box_folds; then
  phase box_folds
  mkdir -p $W/timing/box_folds
  for shape in 32x32x1 128x8x1 64x4x1 256x4x1 16x16x1 8x128x1 1024x1x1 128x1x1; do
    for fold in 1x1x1 1x2x1 1x4x1; do echo "$shape $fold"; done
  done > $W/box_folds.txt
  timeout $(cap 90) $K validate $PK/box2d_r1.yaml -m $MACHINE --sweep $W/box_folds.txt \
    --repeat 5 --save $W/timing/box_folds > $W/timing/box_folds.log 2>&1
  echo "box folds rc=$? records=$(ls $W/timing/box_folds | wc -l)"; tail -25 $W/timing/box_folds.log
  pack
fi

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
