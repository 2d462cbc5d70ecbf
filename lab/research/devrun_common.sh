#!/bin/bash
# The preamble every device-session script of the lab shares (sourced, not run): time budget,
# work directory /tmp/kc packed into $OUT/results.tar.gz, phase and cap helpers, and the
# "meta" phase that records the device, driver, clocks, toolkit and Nsight Compute version.
# Needs ROOT-relative .devrun (lab/research/stage_devrun.sh). Defines W, D, K (the staged
# kerncast), NCU, NVCC, GPU and MACHINE (the kerncast machine id of the GPU, "" if none).
set -u
START=$(date +%s)
DEADLINE=$((START + ${BUDGET_S:-540}))
ROOT=$PWD
D=$ROOT/.devrun
W=/tmp/kc
mkdir -p $W
exec > >(tee -a $W/session.log) 2>&1
pack() { (cd /tmp && tar czf $OUT/results.tar.gz kc); }
left() { echo $((DEADLINE - $(date +%s))); }
cap() { local c=$1 l; l=$(left); [ $l -lt $c ] && c=$l; [ $c -lt 5 ] && c=5; echo $c; }
phase() { echo; echo "=== $1 $(date -u +%FT%TZ) left=$(left)s"; }
want() { [ -z "${PHASES:-}" ] || [[ " $PHASES " == *" $1 "* ]]; }
# built PROGRAM: build lab/research/PROGRAM.cu into $W/PROGRAM unless an earlier phase did.
built() {
  [ -x $W/$1 ] && return 0
  $NVCC -O2 -arch=native -std=c++17 -o $W/$1 lab/research/$1.cu > $W/nvcc_$1.log 2>&1
  echo "nvcc $1 rc=$?"; cat $W/nvcc_$1.log
}
# compile_and_run PROGRAM OUTPUT CAP [ARGS...]: build PROGRAM (built), run it with ARGS for at
# most CAP seconds with its JSON lines in $W/OUTPUT.jsonl and its errors in $W/OUTPUT.log, then
# pack.
compile_and_run() {
  local program=$1 output=$2 seconds=$3
  shift 3
  built $program
  timeout $(cap $seconds) $W/$program "$@" > $W/$output.jsonl 2> $W/$output.log
  echo "$output rc=$?"; cat $W/$output.jsonl $W/$output.log
  pack
}

phase meta
NV=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib 2>/dev/null | tr '\n' ':')
export LD_LIBRARY_PATH=$D/lib:$NV${LD_LIBRARY_PATH:-}
[ -f /usr/local/cuda/include/cuda_fp16.h ] ||
  export KERNCAST_CUDA_INCLUDE_DIR=$(dirname "$(find / -name cuda_fp16.h 2>/dev/null | head -1)")
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
K=$D/bin/kerncast
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$GPU" in
  *H200*) MACHINE=h200-sxm-141gb ;;
  *H100*) MACHINE=h100-sxm5-80gb ;;
  *) echo "no kerncast machine file for '$GPU'"; MACHINE="" ;;
esac
{
  date -u +%FT%TZ; echo "gpu=$GPU machine=$MACHINE commit=$(cat $D/commit.txt 2>/dev/null)"
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv
  $NVCC --version | tail -2; echo "ncu=$NCU"; ${NCU:-false} --version
} > $W/meta.txt 2>&1
cat $W/meta.txt
pack
