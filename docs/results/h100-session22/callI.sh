#!/usr/bin/env bash
# Session 22 call I (one H100): launch_after_writes with the "copied" mode (each write's bytes first
# copied by memcpy into the pinned buffer it is sent from, as Hetero's write through the host copy
# does): whether natively too the first launch after such writes costs more. 1 MiB, three runs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-law
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 --target launch_after_writes 2>&1 | grep -E "error:"
for run in 1 2 3; do $new/bench/launch_after_writes --platform NVIDIA --bytes 1048576 --rounds 30; done 2>&1 | tee $OUT/launch_after_writes-copied.txt
