#!/usr/bin/env bash
# Session 27 call E (one H100): bench/tools/wait_cores natively on NVIDIA and through Hetero (held to
# the GPU): how many cores the process keeps busy while one 50 ms kernel runs, by how the host waits.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
for round in 1 2; do
  $new/bench/wait_cores --platform NVIDIA --rounds 7 --ms 50
  OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_DEVICES=nvidia:0 HETERO_LOG=warn $new/bench/wait_cores --platform Hetero --rounds 7 --ms 50
done 2>&1 | tee $OUT/wait_cores.txt
