#!/usr/bin/env bash
# Session 28 call D (one H100): call C ran wait_cores' modes in one process, and after the first
# user event every mode kept a core busy, idle ones too. Here each mode runs in a process of its
# own, natively, three times: which of them wakes NVIDIA's spinning thread by itself?
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
for round in 1 2 3; do
  for mode in sleep poll callback user-marker user-callback user-event user-poll mapped idle-user-event idle-mapped; do
    echo "round $round $($new/bench/wait_cores --platform NVIDIA --rounds 5 --ms 50 --mode $mode | tail -1)"
  done
done > $OUT/wait_cores_modes.txt 2>&1
cat $OUT/wait_cores_modes.txt
