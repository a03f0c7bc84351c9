#!/usr/bin/env bash
# Session 37 call G (one H200): calls E and F: through Hetero (held, default) every second and
# third launch of gesummv's pattern is slow (device time ~328 us against ~276), natively none, with
# the same backend calls in the same order (checked on PoCL). Hetero builds every backend program
# with -cl-kernel-arg-info added (program.cpp backendOptions). Native with that option: callG/place.c.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callG/place.c -o /tmp/place -lOpenCL -lm
for round in 1 2; do
  /tmp/place 20 NVIDIA "" > $OUT/place_native_$round.txt 2>&1
  /tmp/place 20 NVIDIA -cl-kernel-arg-info > $OUT/place_native_arginfo_$round.txt 2>&1
done
python3 docs/results/h200-session37/place_table.py $OUT/place_*.txt
