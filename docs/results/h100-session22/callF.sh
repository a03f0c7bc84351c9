#!/usr/bin/env bash
# Session 22 call F (one H100): bench/tools/launch_after_writes natively on NVIDIA: what the first
# launch after four whole-buffer writes costs to enqueue, by the writes' source memory (pageable,
# pinned, page-aligned), the wait (clFinish or the writes' events) and whether the writes' events are
# kept; 1 MiB (3mm STANDARD's) and 4 MiB writes, three runs each.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new >/dev/null
for bytes in 1048576 4194304; do
  for run in 1 2 3; do
    $new/bench/launch_after_writes --platform NVIDIA --bytes $bytes --rounds 30
  done
done 2>&1 | tee $OUT/launch_after_writes.txt
