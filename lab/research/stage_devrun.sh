#!/bin/bash
# Stages this checkout's build for a device machine (the `device` tool's `run`, which copies
# the working tree and the ignored paths named in `carry`): the kerncast binary and the device
# tests into .devrun/bin, every shared library they need that is not the C library, the dynamic
# loader or the CUDA driver into .devrun/lib, and the commit into .devrun/commit.txt.
# .devrun/ must be ignored (.git/info/exclude: /.devrun/) and carried: carry [".devrun"].
#
#   scripts/build && lab/research/stage_devrun.sh [BUILD_DIR]
#
# DEVRUN_BINARIES="kerncast" (or "device_tests") stages only those; the default is both. The
# working tree and the carried .devrun travel together under the device tool's 64 MiB: with
# the tree at 23 MiB (2026-11-27) both binaries and their libraries (39 MiB) no longer fit,
# so stage what the run needs.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
out="$root/.devrun"
rm -rf "$out/bin" "$out/lib"
mkdir -p "$out/bin" "$out/lib"
binaries=()
for name in ${DEVRUN_BINARIES:-kerncast device_tests}; do
  case "$name" in
    kerncast) binaries+=("$build/tools/kerncast/kerncast") ;;
    device_tests) [ -x "$build/tests/device/device_tests" ] && binaries+=("$build/tests/device/device_tests") ;;
    *) echo "stage_devrun: unknown binary '$name' (kerncast, device_tests)" >&2; exit 2 ;;
  esac
done
for b in "${binaries[@]}"; do
  [ -x "$b" ] || { echo "stage_devrun: no $b (build first)" >&2; exit 1; }
  cp "$b" "$out/bin/"
  # libc, libm, the loader, libdl/pthread/rt and the CUDA driver come from the device machine;
  # NVRTC from its toolkit (the session script puts the toolkit's lib64 on LD_LIBRARY_PATH).
  ldd "$b" | awk '/=> \// { print $3 }' |
    grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcuda|libnvrtc[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$out/lib/"; done
done
git -C "$root" rev-parse HEAD > "$out/commit.txt"
du -sh "$out" | awk '{ print "stage_devrun: " $1 " in .devrun (the carry limit is 64 MiB)" }'
