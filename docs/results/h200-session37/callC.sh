#!/usr/bin/env bash
# Session 37 call C (one H200): call B found Hetero's second launch of gesummv's pattern slower on
# the GPU itself (device time 330 us against native's 274; the first 286-292 against 276). What
# between two launches makes NVIDIA's second kernel slower? callC/second.c, natively and through
# Hetero held and default, by what happens between the launches (second.c's header).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new &
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callC/second.c -o /tmp/second -lOpenCL -lm
wait
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
for round in 1 2; do
  echo "== native"; /tmp/second 15
  echo "== held"; h HETERO_DEVICES=gpu /tmp/second 15 Hetero
  echo "== default"; h /tmp/second 15 Hetero
done > $OUT/second.txt 2>&1
echo "second after $((SECONDS - t0)) s"
cat $OUT/second.txt
