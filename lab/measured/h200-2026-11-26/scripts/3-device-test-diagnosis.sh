#!/bin/bash
set -u
ROOT=$PWD; D=$ROOT/.devrun; W=/tmp/kc3; mkdir -p $W
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main; }
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
T=$D/bin/device_tests
pack() { (cd /tmp && tar czf $OUT/results3.tar.gz kc3) ; }
s() { grep -E "^\[  (PASSED|FAILED) |FAILED TEST|tests from.*ran|========= (ERROR|Invalid|Race|.*at .*in )|ERROR SUMMARY" $1 | head -${2:-12}; }
echo "== a codegen only"; timeout 40 $T --gtest_filter='DeviceCodegen.*' > $W/a.log 2>&1; s $W/a.log
echo "== b shared tiles x3"; timeout 40 $T --gtest_filter='DeviceCodegen.SharedMemory*' --gtest_repeat=3 > $W/b.log 2>&1; s $W/b.log
echo "== c full"; timeout 50 $T > $W/c.log 2>&1; s $W/c.log 20
pack
echo "== d memcheck codegen"; timeout 120 compute-sanitizer --tool memcheck --print-limit 20 $T --gtest_filter='DeviceCodegen.SharedMemory*:DeviceCodegen.Atomics*' > $W/d.log 2>&1; echo rc=$?; s $W/d.log 40
pack
echo "== e racecheck tiles"; timeout 90 compute-sanitizer --tool racecheck --print-limit 20 $T --gtest_filter='DeviceCodegen.SharedMemory*' > $W/e.log 2>&1; echo rc=$?; s $W/e.log 30
pack
