#!/bin/bash
set -u
D=$PWD/.devrun; W=/tmp/kc8; mkdir -p $W
date -u +%FT%TZ > $W/environment.txt; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $W/environment.txt
timeout 60 $D/bin/l1_sets 10 32 2400 32 0 seq > $W/l1-sets-consecutive.json 2> $W/err.txt; echo "seq rc=$?"
cat $W/err.txt | head -3
(cd /tmp && tar czf $OUT/results8.tar.gz kc8)
