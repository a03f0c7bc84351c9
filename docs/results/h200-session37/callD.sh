#!/usr/bin/env bash
# Session 37 call D (one H200): call C found native's second launch as slow as Hetero's (331 us of
# device time) in a program that makes its buffers in another order than launch_after_writes (274).
# Does the kernel's time follow where its buffers lie? callF/place.c (its modes plain and padded, two launches) prints per round the device
# addresses of the four inputs and the output and both launches' device times; natively, held and
# default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new &
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callF/place.c -o /tmp/place -lOpenCL -lm
wait
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
for round in 1 2; do
  /tmp/place 40 > $OUT/place_native_$round.txt 2>&1
  h HETERO_DEVICES=gpu /tmp/place 40 Hetero > $OUT/place_held_$round.txt 2>&1
  h /tmp/place 40 Hetero > $OUT/place_default_$round.txt 2>&1
done
echo "place after $((SECONDS - t0)) s"
head -12 $OUT/place_*.txt
