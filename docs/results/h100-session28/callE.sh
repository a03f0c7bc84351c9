#!/usr/bin/env bash
# Session 28 call E (one H100): call D found that a user event that merely exists keeps NVIDIA's
# thread spinning, and call C that the spinning went on into later modes. How long after the user
# event is gone? wait_cores' after-user-event mode (made, completed, released; then nothing runs)
# over windows of 50, 500 and 2000 ms, each in a process of its own.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
for round in 1 2; do
  for ms in 50 500 2000; do
    echo "round $round window $ms ms: $($new/bench/wait_cores --platform NVIDIA --rounds 3 --ms $ms --mode after-user-event | tail -1)"
  done
  echo "round $round idle, no user event: $($new/bench/wait_cores --platform NVIDIA --rounds 3 --ms 500 --mode idle-mapped | tail -1)"
done > $OUT/after_user_event.txt 2>&1
cat $OUT/after_user_event.txt
