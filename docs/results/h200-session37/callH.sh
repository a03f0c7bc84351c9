#!/usr/bin/env bash
# Session 37 call H (one H200): not -cl-kernel-arg-info (call G). Natively, call C's second.c (which
# made a second queue) had every second launch slow, and Hetero makes more queues than the
# application's (backend_clock's calibration queue, made and released; auto mode's timing queue).
# callH/place.c natively with more queues kept or made and released.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callH/place.c -o /tmp/place -lOpenCL -lm
for round in 1 2; do
  for q in none kept:1 released:1 kept:2; do  # "none" crashed in the run (fixed since in callH/place.c)
    /tmp/place 15 NVIDIA "" $q > $OUT/place_native_${q/:/}_$round.txt 2>&1
  done
done
python3 docs/results/h200-session37/place_table.py $OUT/place_*.txt | grep -E "plain|padded|out-late"
