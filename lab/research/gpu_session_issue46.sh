#!/bin/bash
# Issue 46's hardware campaign, in one `run` call on the GPU machine (H100 or H200):
#   1. star_r4: the range-4 3D star (examples/kernels/star3d_r4.yaml, 640 x 512 x 512 doubles)
#      unfolded over every block shape of 1024 threads in powers of two that CUDA allows
#      (lab/research/sweeps/star_r4_1024.txt: 56 shapes, z <= 64; the issue's 43 published shapes
#      are not listed in any source the project has, so the sweep is all of them), Nsight
#      Compute volumes and L1 counters, then CUDA-event times (validate --repeat 5): the
#      narrow-block L2 -> L1 over-charge that grows with the stencil's depth;
#   2. box_r5_9: the 2D box stencils of range 5 to 9 (the published kernels,
#      data/published/v100-warpspeed/kernels/box2d_r5..r9.yaml) over the 48 block shapes of the
#      box r1..r3 sets (lab/measured/h200-2026-11-26/sweeps/box_blocks.txt), volumes under
#      Nsight Compute, then times;
#   3. convolution: Kernel Tuner's plain-global convolution (examples/autotuning/
#      kt_convolution.yaml) over its unfolded block shapes (its space at tile 1: the L1 tie of
#      the issue), volumes and L1 counters, then times;
#   4. straddle: lab/research/l1_wavefronts.cu's wavefronts of warp loads by shift (a warp's
#      128 B inside one line or across two), hit and miss, under Nsight Compute;
#   5. dram_l1_overlap: lab/research/dram_l1_overlap.cu, a coalesced DRAM stream with k extra
#      L1-hit loads beside the same code hitting L1 only: do the DRAM and L1 times add when
#      close (lab note 2026-12-04b)? `lab/research/l1_dram_overlap.py table` reads it.
# Forecasts for 1-3 were committed before any GPU ran them: lab/forecasts/issue46-2026-11-29/
# (the model), lab/forecasts/issue46-2026-12-04/ (the model and the DRAM-L1 lead, 1 and 2).
# Stage first, then with the device tool:
#   scripts/build && DEVRUN_BINARIES=kerncast lab/research/stage_devrun.sh
#   run(command="BUDGET_S=540 lab/research/gpu_session_issue46.sh", carry=[".devrun"], timeout_s=600)
# PHASES="box_r5_9 convolution" runs only those. Everything lands in $OUT/results.tar.gz (work
# directory /tmp/kc); the records go under lab/measured/<gpu>-<date>-issue46/ with a README
# (device, driver, clocks from meta.txt, the commands, the date).
# Offline check (no GPU: every GPU step exits 3, the rest runs):
#   OUT=/tmp/out46 KERNCAST_BIN=build/tools/kerncast/kerncast KERNCAST_MACHINE=h100-sxm5-80gb \
#     BUDGET_S=120 lab/research/gpu_session_issue46.sh
source "$(dirname "$0")/devrun_common.sh"
K=${KERNCAST_BIN:-$K}
MACHINE=${KERNCAST_MACHINE:-$MACHINE}
[ -n "$MACHINE" ] || { phase end; pack; exit 0; }
METRICS=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__data_pipe_lsu_wavefronts.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__cycles_elapsed.avg
METRICS=$METRICS,gpu__time_duration.sum,launch__registers_per_thread,launch__block_size,launch__grid_size

# measure NAME KERNEL_FILE SWEEP CAP_NCU CAP_TIMES: ncu volumes of every configuration, then
# CUDA-event times, each as kerncast records with the forecast beside them (validate --json).
measure() {
  local name=$1 kernel=$2 sweep=$3 cap_ncu=$4 cap_times=$5 entry
  entry=$(sed -n 's/^name: *//p' $kernel | head -1)
  mkdir -p $W/$name/ncu $W/$name/times
  timeout $(cap $cap_ncu) ${NCU:-false} --csv --page raw --print-units base --metrics "$METRICS" \
    --kernel-name "regex:^$entry\$" --target-processes all --log-file $W/$name/ncu.csv \
    $K validate $kernel -m $MACHINE --sweep $sweep --warmup 0 --repeat 1 \
    --save $W/$name/ncu --json $W/$name/ncu.validate.json > $W/$name/ncu.log 2>&1
  echo "$name ncu rc=$? rows=$(grep -c "$entry" $W/$name/ncu.csv 2>/dev/null)"
  timeout $(cap $cap_times) $K validate $kernel -m $MACHINE --sweep $sweep --repeat 5 \
    --save $W/$name/times --json $W/$name/times.validate.json > $W/$name/times.log 2>&1
  echo "$name times rc=$? records=$(ls $W/$name/times | wc -l)"
  pack
}

if want star_r4; then
  phase star_r4
  measure star_r4 examples/kernels/star3d_r4.yaml lab/research/sweeps/star_r4_1024.txt 150 60
fi

if want box_r5_9; then
  phase box_r5_9
  for r in 5 6 7 8 9; do
    measure box_r$r data/published/v100-warpspeed/kernels/box2d_r$r.yaml \
      lab/measured/h200-2026-11-26/sweeps/box_blocks.txt 40 25
  done
fi

if want convolution; then
  phase convolution
  # The space's block shapes at tile 1 (explore's own list of what can run).
  $K explore --space examples/autotuning/spaces/kt_convolution.yaml -m $MACHINE \
    --csv $W/convolution_space.csv -q > /dev/null 2>&1
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
           $1 != "" && $c["fold"] == "1x1x1" { print $c["block"], $c["fold"] }' \
    $W/convolution_space.csv > $W/convolution.sweep
  echo "convolution shapes: $(wc -l < $W/convolution.sweep)"
  measure convolution examples/autotuning/kt_convolution.yaml $W/convolution.sweep 150 90
fi

if want straddle; then
  phase straddle
  built l1_wavefronts
  WF=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  WF=$WF,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  for family in hit miss; do
    timeout $(cap 90) ${NCU:-false} --csv --page raw --print-units base \
      --log-file $W/straddle_$family.csv --metrics $WF --kernel-name regex:pattern \
      $W/l1_wavefronts wavefronts $family > $W/straddle_$family.jsonl 2> $W/straddle_$family.log
    echo "straddle $family rc=$? launches=$(wc -l < $W/straddle_$family.jsonl)"
  done
  pack
fi

if want dram_l1_overlap; then
  phase dram_l1_overlap
  compile_and_run dram_l1_overlap dram_l1_overlap 60
fi

phase end
pack
