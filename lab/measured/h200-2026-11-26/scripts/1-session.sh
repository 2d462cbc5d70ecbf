#!/bin/bash
# One device session: metadata, device tests, volume counters (ncu), probe, timings, atomics.
# Every phase has a time cap and everything is re-packed into $OUT/results.tar.gz after each.
set -u
START=$(date +%s)
DEADLINE=$((START + ${BUDGET_S:-470}))
ROOT=$PWD
D=$ROOT/.devrun
W=/tmp/kc
mkdir -p $W
LOG=$W/session.log
exec > >(tee -a $LOG) 2>&1

pack() { (cd /tmp && tar czf $OUT/results.tar.gz kc) ; }
left() { echo $((DEADLINE - $(date +%s))); }
cap() { local c=$1 l; l=$(left); [ $l -lt $c ] && c=$l; [ $c -lt 5 ] && c=5; echo $c; }
phase() { echo; echo "=== $1 $(date -u +%FT%TZ) left=$(left)s"; }

phase meta
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
NV=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib 2>/dev/null | tr '\n' ':')
if ! ls /usr/local/cuda/lib64/libnvrtc.so.13* >/dev/null 2>&1; then
  NV=$NV$(dirname "$(find / -name 'libnvrtc.so.13*' 2>/dev/null | head -1)"):
fi
export LD_LIBRARY_PATH=$D/lib:$NV${LD_LIBRARY_PATH:-}
[ -f /usr/local/cuda/include/cuda_fp16.h ] || export KERNCAST_CUDA_INCLUDE_DIR=$(dirname "$(find / -name cuda_fp16.h 2>/dev/null | head -1)")
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
export PATH=$(dirname "${NCU:-/usr/bin/true}"):$PATH
K=$D/bin/kerncast
{
  date -u +%FT%TZ; uname -a; cat /etc/os-release | head -2
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv
  nvcc --version | tail -2; echo "ncu=$NCU"; ${NCU:-false} --version
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; ldd $K | grep -E "not found|nvrtc"
} > $W/meta.txt 2>&1
nvidia-smi -q > $W/nvidia-smi-q.txt 2>&1
cat $W/meta.txt
timeout 20 $K devices 2>&1 | tee $W/devices.txt
${NCU:-false} --query-metrics > $W/ncu-query-metrics.txt 2>&1
pack

phase device_tests
(cd $ROOT && timeout $(cap 70) $D/bin/device_tests --gtest_output=json:$W/device_tests.json > $W/device_tests.log 2>&1; echo "rc=$?" >> $W/device_tests.log)
tail -30 $W/device_tests.log
pack

# Volume counters: one ncu session per kernel file over the whole sweep, one launch per
# configuration (--warmup 0 --repeat 1); ncu flushes the caches before each profiled launch.
WANT="dram__bytes_read.sum dram__bytes_write.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write.sum lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum l1tex__data_pipe_lsu_wavefronts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum sm__cycles_elapsed.avg gpu__time_duration.sum launch__registers_per_thread launch__block_size launch__grid_size"
METRICS=""
for m in $WANT; do
  b=${m%.*}
  if grep -q -E "^[[:space:]]*$b([[:space:]]|$)" $W/ncu-query-metrics.txt || grep -q -E "^[[:space:]]*$m([[:space:]]|$)" $W/ncu-query-metrics.txt; then
    METRICS=$METRICS${METRICS:+,}$m
  else echo "metric not offered: $m"; fi
done
# launch__* are launch statistics, not counters: --query-metrics may not list them.
grep -q dram__bytes_read $W/ncu-query-metrics.txt || METRICS=$(echo $WANT | tr ' ' ',')
echo "$METRICS" | grep -q launch__registers_per_thread || METRICS=$METRICS,launch__registers_per_thread,launch__block_size,launch__grid_size
echo "metrics: $METRICS" | tee $W/ncu-metrics-used.txt
profile() { # name kernel sweep cap
  mkdir -p $W/ncu/$1
  timeout $(cap $4) $NCU --csv --page raw --print-units base --metrics "$METRICS" \
    --kernel-name "regex:^(star3d_r2|box2d_r[0-9])$" --target-processes all --log-file $W/ncu/$1.csv \
    $K validate $2 -m h200-sxm-141gb --sweep $3 --warmup 0 --repeat 1 --save $W/ncu/$1 \
    --json $W/ncu/$1.validate.json > $W/ncu/$1.log 2>&1
  echo "$1 rc=$? rows=$(grep -c star3d_r2\\\|box2d_r $W/ncu/$1.csv 2>/dev/null)" | tee -a $W/ncu/summary.txt
}
PK=data/published/v100-warpspeed/kernels
phase ncu_star
profile star $PK/star3d_r2.yaml $D/sweeps/star.txt 150
pack
phase probe
mkdir -p $W/probe
timeout $(cap 150) $K probe --raw $W/probe -o $W/probe/h200-probed.json > $W/probe/probe.log 2>&1; echo "probe rc=$?" | tee -a $W/probe/probe.log
tail -40 $W/probe/probe.log
pack

phase ncu_box
for r in 0 1 2 3 4 5 6 7 8 9; do profile box_r$r $PK/box2d_r$r.yaml $D/sweeps/box_volume.txt 20; done
pack

phase star_timing
mkdir -p $W/timing/star
timeout $(cap 80) $K validate $PK/star3d_r2.yaml -m h200-sxm-141gb --sweep $D/sweeps/star.txt --repeat 10 --save $W/timing/star --json $W/timing/star.validate.json > $W/timing/star.log 2>&1; echo "star timing rc=$?" | tee -a $W/timing/star.log
pack

phase atomics
timeout $(cap 40) $K atomics --measure-table --raw $W/atomics-raw.json -m h200-sxm-141gb -o $W/atomics-machine.json --warps 1,2,4,8,16,32,48,64 --threads 1,2,4,8,16,32 --repetitions 3 > $W/atomics.log 2>&1; echo "atomics rc=$?" | tee -a $W/atomics.log
pack

phase box_timing
for r in 1 2 3; do
  mkdir -p $W/timing/box_r$r
  timeout $(cap 40) $K validate $PK/box2d_r$r.yaml -m h200-sxm-141gb --sweep $D/sweeps/box_blocks.txt --repeat 5 --save $W/timing/box_r$r > $W/timing/box_r$r.log 2>&1; echo "box r$r timing rc=$?" | tee -a $W/timing/box_r$r.log
  pack
done
phase end
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >> $W/meta.txt
pack
ls -la $OUT
