#!/bin/bash
set -u
ROOT=$PWD; D=$ROOT/.devrun; W=/tmp/kc2; mkdir -p $W
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
K=$D/bin/kerncast
pack() { (cd /tmp && tar czf $OUT/results2.tar.gz kc2) ; }
date -u +%FT%TZ > $W/meta.txt; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $W/meta.txt
timeout 60 $D/bin/codegen_debug > $W/codegen_debug.log 2>&1; echo "debug rc=$?"
grep -E "^==|^  [a-z_]+:|^error" $W/codegen_debug.log | head -60
pack
METRICS=$(cat $D/metrics.txt)
PK=data/published/v100-warpspeed/kernels
for r in 0 1 2 3 4 5 6 7 8 9; do
  mkdir -p $W/ncu/box_r$r
  timeout 25 ncu --csv --page raw --print-units base --metrics "$METRICS" \
    --kernel-name "regex:^box2d_r[0-9]_v100$" --target-processes all --log-file $W/ncu/box_r$r.csv \
    $K validate $PK/box2d_r$r.yaml -m v100-pcie-32gb --sweep $D/sweeps/box_volume.txt --warmup 0 --repeat 1 --save $W/ncu/box_r$r > $W/ncu/box_r$r.log 2>&1
  echo "box_r$r rc=$? rows=$(grep -c box2d_r $W/ncu/box_r$r.csv)"
done
pack
