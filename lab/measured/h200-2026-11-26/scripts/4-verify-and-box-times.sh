#!/bin/bash
set -u
ROOT=$PWD; D=$ROOT/.devrun; W=/tmp/kc4; mkdir -p $W
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
K=$D/bin/kerncast
pack() { (cd /tmp && tar czf $OUT/results4.tar.gz kc4) ; }
ph() { echo "=== $1 $(date -u +%T)"; }
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > $W/meta.txt
ph device_tests; timeout 60 $D/bin/device_tests > $W/device_tests.log 2>&1; echo rc=$?; grep -E "^\[  (PASSED|FAILED) |FAILED TEST|Failure" $W/device_tests.log | head -20
pack
ph l1_sets; timeout 60 $D/bin/l1_sets > $W/l1_sets.json 2> $W/l1_sets.err; echo rc=$?; head -c 300 $W/l1_sets.json; tail -3 $W/l1_sets.err
pack
ph box_timing
PK=data/published/v100-warpspeed/kernels
for r in 0 1 2 3 4 5 6 7 8 9; do
  mkdir -p $W/box_timing/r$r
  timeout 20 $K validate $PK/box2d_r$r.yaml -m h200-sxm-141gb --sweep $D/sweeps/box_volume.txt --repeat 10 --save $W/box_timing/r$r > $W/box_timing/r$r.log 2>&1; echo "r$r rc=$?"
done
pack
ph probe_bandwidth; mkdir -p $W/probe; timeout 90 $K probe --only bandwidth --raw $W/probe -o $W/probe/machine.json > $W/probe/probe.txt 2>&1; echo rc=$?; grep -E "bandwidth" $W/probe/probe.txt | head -12
pack
ph cli_device
timeout 30 $K validate examples/kernels/star2d_r1.yaml -m a100-sxm4-40gb -D nx=4096 -D ny=4096 --sweep tests/unit/validate/data/star2d_sweep.txt --repeat 3 > $W/validate_live.txt 2>&1; echo "validate live rc=$?"; grep -A3 "Spearman" $W/validate_live.txt | head -5
timeout 60 $K run examples/kernels/star2d_r1.yaml -D nx=4096 -D ny=4096 --counters -o $W/run_counters.json > $W/run_counters.txt 2>&1; echo "run --counters rc=$?"; tail -15 $W/run_counters.txt
timeout 60 $K atomics examples/kernels/histogram.yaml -m lab/measured/h200-2026-11-26/atomics/machine.json --run > $W/atomics_run.txt 2>&1; echo "atomics --run rc=$?"; tail -12 $W/atomics_run.txt
pack
ls -la $OUT
