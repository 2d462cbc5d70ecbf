#!/bin/bash
set -u
D=$PWD/.devrun; W=/tmp/kc5; mkdir -p $W
date -u +%FT%TZ > $W/meta.txt; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $W/meta.txt
timeout 90 $D/bin/l1_sets 40 32 2400 32 > $W/l1_sets_full.json 2> $W/err1.txt; echo "full rc=$?"
cp $W/* $OUT/ 2>/dev/null
timeout 60 $D/bin/l1_sets 20 16 1600 32 100 > $W/l1_sets_shared100.json 2> $W/err2.txt; echo "shared100 rc=$?"
cp $W/* $OUT/ 2>/dev/null
timeout 60 $D/bin/l1_sets 20 8 400 8 200 > $W/l1_sets_shared200.json 2> $W/err3.txt; echo "shared200 rc=$?"
cat $W/err*.txt | head
cd $W && tar czf $OUT/results5.tar.gz *.json meta.txt && rm -f $OUT/*.json $OUT/*.txt
ls -la $OUT
