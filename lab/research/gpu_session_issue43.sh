#!/bin/bash
# Issue 43's hardware campaigns, in the issue's order, in one `run` call on the GPU machine:
#   1. calibrated: Stevens & Klöckner sec. 8. The measurement kernels (`kerncast gen
#      microbenchmark dtype:float32`: flops, global, shared-memory, overlap, barrier and launch
#      patterns, sec. 7.1.2) and the work-removed global-access kernels of the applications
#      (examples/kernels/uipick/*_gmem.*, sec. 7.1.1) are timed; each example model
#      (examples/models/) is calibrated on them alone, with --cross-validate, and written as a
#      machine file; then the application variants (matmul_sq, dg_diff 1-4, finite_diff 16x16
#      and 18x18) are timed and each is predicted by its model from that file: the per-variant
#      error against the paper's geometric means (4.3 % matmul, 7.5 % DG, 6.7 % FD) is
#      computed offline from the records and predictions.
#   2. hk_micro: `kerncast probe --only mwp` (Mem_LD, departure delays, Issue_cycles), then
#      Hong & Kim's micro-benchmarks (hk_micro_*, Table 4) at 32, 128 and 512
#      threads a block and hk_matmul at three widths, timed; `mwp-fit --cross-validate`; MWP-CWP
#      classic and cache-aware against the times (`validate --mwp-model`), and the same for the
#      application-like kernels (hk_blackscholes, hk_linear, hk_sepia, hk_mat_naive,
#      hk_mat_tiled). Paper: 5.4 % on micro-benchmarks, 13.3 % on applications.
#   3. atomics: the shared-memory atomics service-time table (`atomics --measure-table`,
#      written into the machine file), then the histogram case study under Nsight Compute
#      (`atomics --run`) over block sizes and image sizes, with the static forecast beside each
#      run, on the solid image (image[p, c] = c, `--fill image=0,1,2,3`) and the uniform one
#      (kerncast run's hash), docs/atomics.md.
#   4. probe_full: `kerncast probe` (every group), timed end to end.
# Stage first, then with the device tool:
#   scripts/build && DEVRUN_BINARIES=kerncast lab/research/stage_devrun.sh
#   run(command="BUDGET_S=560 lab/research/gpu_session_issue43.sh", carry=[".devrun"], timeout_s=600)
# PHASES="atomics probe_full" runs only those. Everything lands in $OUT/results.tar.gz (the
# work directory /tmp/kc); the records go under lab/measured/<gpu>-<date>-issue43/ with a README
# (device, driver, clocks from meta.txt, the commands, the date).
# Offline check (no GPU: every GPU step exits 3, the rest runs):
#   OUT=/tmp/out43 KERNCAST_BIN=build/tools/kerncast/kerncast KERNCAST_MACHINE=h100-sxm5-80gb \
#     BUDGET_S=120 lab/research/gpu_session_issue43.sh
source "$(dirname "$0")/devrun_common.sh"
# Offline: KERNCAST_BIN=build/tools/kerncast/kerncast KERNCAST_MACHINE=h100-sxm5-80gb run the
# phases against this checkout's build without a GPU (each GPU step exits 3).
K=${KERNCAST_BIN:-$K}
MACHINE=${KERNCAST_MACHINE:-$MACHINE}
[ -n "$MACHINE" ] || { phase end; pack; exit 0; }
TIMING="--warmup 3 --repeat 10 --l2-flush"

if want calibrated; then
  phase calibrated
  S=$W/s8
  mkdir -p $S/measure $S/apps $S/records_measure $S/records_apps
  $K gen microbenchmark dtype:float32 -o $S/measure > $S/gen.txt 2>&1
  echo "gen rc=$? $(ls $S/measure | wc -l) measurement kernels"
  for f in examples/kernels/uipick/*.yaml; do
    case "$(basename $f)" in
      *_gmem.*) cp $f $S/measure/ ;;
      *) cp $f $S/apps/ ;;
    esac
  done
  timeout $(cap 240) $K run $S/measure -o $S/records_measure $TIMING > $S/run_measure.txt 2>&1
  echo "run measure rc=$?"; tail -3 $S/run_measure.txt
  timeout $(cap 90) $K run $S/apps -o $S/records_apps $TIMING > $S/run_apps.txt 2>&1
  echo "run apps rc=$?"; tail -3 $S/run_apps.txt
  pack
  for model in matmul_overlap matmul_linear dg_diff_overlap fd5pt_linear; do
    timeout $(cap 60) $K calibrate examples/models/$model.yaml --records $S/records_measure \
      --kernels $S/measure -m $MACHINE --cross-validate --write-undetermined \
      -o $S/$model.machine.json --json $S/$model.calibrate.json > $S/$model.calibrate.txt 2>&1
    echo "calibrate $model rc=$?"; grep -A4 "^|relative error| per kernel" $S/$model.calibrate.txt
    case $model in
      matmul_*) apps="matmul_sq.*" ;;
      dg_diff_*) apps="dg_diff.*" ;;
      fd5pt_*) apps="finite_diff.*" ;;
    esac
    for f in $S/apps/$apps; do
      [ -f "$f" ] && [ -f $S/$model.machine.json ] || continue
      timeout $(cap 20) $K predict $f --model examples/models/$model.yaml -m $S/$model.machine.json \
        --json $S/predict_${model}_$(basename $f .yaml).json > /dev/null 2>> $S/predict.log
    done
    pack
  done
fi

if want hk_micro; then
  phase hk_micro
  H=$W/hk
  mkdir -p $H/micro $H/apps
  # MWP-CWP's probed parameters first: Mem_LD, the departure delays and Issue_cycles.
  timeout $(cap 60) $K probe --only mwp --raw $H/probe_mwp -o $H/probe_mwp.machine.json \
    --json $H/probe_mwp.json > $H/probe_mwp.txt 2>&1
  echo "probe --only mwp rc=$?"; grep -E "issue_cycles|departure|mem_ld" $H/probe_mwp.txt
  for kernel in examples/kernels/hk_micro_*.yaml; do
    name=$(basename $kernel .yaml)
    for block in 32 128 512; do
      timeout $(cap 20) $K run $kernel --block $block $TIMING -o $H/micro/${name}_$block.json \
        > /dev/null 2>> $H/run.log || echo "run $name $block rc=$?"
    done
  done
  for width in 48 480 4800; do
    timeout $(cap 20) $K run examples/kernels/hk_matmul.yaml -D wM=$width $TIMING \
      -o $H/micro/hk_matmul_$width.json > /dev/null 2>> $H/run.log || echo "run hk_matmul $width rc=$?"
  done
  for kernel in hk_blackscholes hk_linear hk_sepia hk_mat_naive hk_mat_tiled; do
    timeout $(cap 30) $K run examples/kernels/$kernel.yaml $TIMING -o $H/apps/$kernel.json \
      > /dev/null 2>> $H/run.log || echo "run $kernel rc=$?"
  done
  echo "records: $(ls $H/micro | wc -l) micro, $(ls $H/apps | wc -l) applications"
  pack
  timeout $(cap 90) $K mwp-fit --records $H/micro -m $MACHINE --cross-validate \
    --json $H/mwp_fit.json > $H/mwp_fit.txt 2>&1
  echo "mwp-fit rc=$?"; grep -B2 -A6 "^Fitted parameters" $H/mwp_fit.txt
  for variant in classic cache-aware; do
    for set in micro apps; do
      timeout $(cap 60) $K validate examples/kernels/hk_*.yaml -m $MACHINE --records $H/$set \
        --mwp-model $variant --json $H/validate_${set}_$variant.json \
        > $H/validate_${set}_$variant.txt 2>&1
      echo "validate $set $variant rc=$?"
    done
  done
  pack
fi

if want atomics; then
  phase atomics
  A=$W/atomics
  mkdir -p $A/runs
  timeout $(cap 150) $K atomics --measure-table --raw $A/raw.json -m $MACHINE -o $A/machine.json \
    > $A/table.txt 2>&1
  echo "measure-table rc=$?"; tail -5 $A/table.txt
  pack
  M=$MACHINE; [ -f $A/machine.json ] && M=$A/machine.json
  for kernel in histogram histogram_reordered; do
    for block in 32 256 1024; do
      for pixels in 32768 1048576 4194304; do
        for input in solid uniform; do
          run=$A/runs/${kernel}_b${block}_n${pixels}_$input
          timeout $(cap 30) $K atomics examples/kernels/$kernel.yaml -m $M --run --input $input \
            --block $block -D n=$pixels --json $run.measured.json > $run.measured.txt 2>&1
          echo "atomics --run $kernel $block $pixels $input rc=$?"
          $K atomics examples/kernels/$kernel.yaml -m $M --input $input --block $block \
            -D n=$pixels --json $run.forecast.json > $run.forecast.txt 2>&1
        done
      done
    done
    pack
  done
fi

if want probe_full; then
  phase probe_full
  P=$W/probe_full
  mkdir -p $P
  start=$(date +%s)
  timeout $(cap 300) $K probe --raw $P/raw -o $P/machine.json --json $P/probe.json \
    > $P/probe.txt 2> $P/stderr.txt
  echo "probe rc=$? in $(( $(date +%s) - start )) s"; tail -5 $P/probe.txt
  pack
fi

phase end
pack
