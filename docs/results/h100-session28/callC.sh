#!/usr/bin/env bash
# Session 28 call C (one H100): does NVIDIA's thread spin only while a kernel runs, or whenever a
# user event exists or a pinned buffer is mapped (call B: both kept a core busy beside a 50 ms
# kernel)? wait_cores with two idle modes, natively and through Hetero (GPU + CPU, and held to the GPU).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
for round in 1 2; do
  echo "== round $round native"; $new/bench/wait_cores --platform NVIDIA --rounds 5 --ms 50
  echo "== round $round Hetero (GPU + CPU)"; OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors $new/bench/wait_cores --platform Hetero --rounds 5 --ms 50
  echo "== round $round Hetero held to the GPU"; HETERO_DEVICES=gpu OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors $new/bench/wait_cores --platform Hetero --rounds 5 --ms 50
done > $OUT/wait_cores.txt 2>&1
cat $OUT/wait_cores.txt
