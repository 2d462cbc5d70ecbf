#!/bin/bash
# H100: probe, L1 set placement, star and box volumes (ncu) and times.
set -u
ROOT=$PWD; D=$ROOT/.devrun; W=/tmp/kc6; mkdir -p $W
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
K=$D/bin/kerncast; M=h100-sxm5-80gb; PK=data/published/v100-warpspeed/kernels
METRICS=$(cat $D/metrics.txt)
pack() { (cd /tmp && tar czf $OUT/results6.tar.gz kc6) ; }
ph() { echo "=== $1 $(date -u +%T)"; }
{ date -u +%FT%TZ; uname -a; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv; ncu --version; } > $W/environment.txt 2>&1
timeout 20 $K devices > $W/devices.txt 2>&1; cat $W/devices.txt | tail -2
ph probe; mkdir -p $W/probe; timeout 60 $K probe --raw $W/probe -o $W/probe/machine.json > $W/probe/probe.txt 2>&1; echo rc=$?; grep -E "size_bytes  |bandwidth|block_launches_per_cycle|latency_cycles" $W/probe/probe.txt | head -20
pack
ph l1_sets; timeout 40 $D/bin/l1_sets > $W/l1-sets-wide.json 2>&1; echo rc=$?; timeout 40 $D/bin/l1_sets 20 32 2400 32 > $W/l1-sets-dense.json 2>&1; echo rc=$?
pack
ph ncu_star; mkdir -p $W/ncu/star
timeout 60 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name "regex:^star3d_r2$" --target-processes all --log-file $W/ncu/star.csv $K validate $PK/star3d_r2.yaml -m $M --sweep $D/sweeps/star.txt --warmup 0 --repeat 1 --save $W/ncu/star > $W/ncu/star.log 2>&1; echo "rc=$? rows=$(grep -c star3d_r2 $W/ncu/star.csv)"
pack
ph star_timing; mkdir -p $W/timing/star; timeout 40 $K validate $PK/star3d_r2.yaml -m $M --sweep $D/sweeps/star.txt --repeat 10 --save $W/timing/star > $W/timing/star.log 2>&1; echo "rc=$? n=$(ls $W/timing/star | wc -l)"
pack
ph box; for r in 0 1 2 3 4 5 6 7 8 9; do mkdir -p $W/ncu/box_r$r $W/timing/box_r$r
  timeout 15 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name "regex:^box2d_r[0-9]_v100$" --target-processes all --log-file $W/ncu/box_r$r.csv $K validate $PK/box2d_r$r.yaml -m $M --sweep $D/sweeps/box_volume.txt --warmup 0 --repeat 1 --save $W/ncu/box_r$r > $W/ncu/box_r$r.log 2>&1
  timeout 10 $K validate $PK/box2d_r$r.yaml -m $M --sweep $D/sweeps/box_volume.txt --repeat 10 --save $W/timing/box_r$r > $W/timing/box_r$r.log 2>&1
  echo "r$r rows=$(grep -c box2d_r $W/ncu/box_r$r.csv) t=$(ls $W/timing/box_r$r | wc -l)"; done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >> $W/environment.txt
pack; ls -la $OUT
