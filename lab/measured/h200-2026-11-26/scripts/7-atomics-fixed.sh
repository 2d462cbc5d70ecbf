#!/bin/bash
set -u
ROOT=$PWD; D=$ROOT/.devrun; W=/tmp/kc7; mkdir -p $W
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
K=$D/bin/kerncast
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; } > $W/environment.txt
timeout 60 $K atomics --measure-table --raw $W/raw.json -m h200-sxm-141gb -o $W/machine.json --warps 1,2,4,8,16,32,48,64 --threads 1,2,4,8,16,32 --repetitions 3 > $W/atomics.txt 2>&1; echo "atomics rc=$?"
grep -E "^(add|popc_inc) +(32|48|64) +(1|8|32) " $W/atomics.txt | head -20
timeout 40 $D/bin/device_tests --gtest_filter='DeviceAtomicServiceTime.*' > $W/device_tests.txt 2>&1; echo "tests rc=$?"; grep -E "PASSED|FAILED|Failure" $W/device_tests.txt | head
(cd /tmp && tar czf $OUT/results7.tar.gz kc7)
