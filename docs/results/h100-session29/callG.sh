#!/usr/bin/env bash
# Session 29 call G (one GPU): what in gesummv LARGE's timed phase (fresh buffers, one launch,
# clFinish) costs more when it happens inside the window, natively (docs/results/h100-session29/scratch/fresh_launch.c: the
# kernel's arguments set there, the two buffers nobody wrote created there too), 3 rounds; the
# backend calls Hetero makes for gesummv held to the GPU, creations included.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
new=/tmp/hetero-new
etc/gpu-builds.sh $new
gcc -O2 -Iplatform/include -Ibench/tools -o /tmp/frl docs/results/h100-session29/scratch/fresh_launch.c -lOpenCL
for r in 1 2 3; do /tmp/frl NVIDIA 30; done
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
p="$new/bench/polybench-gesummv --size LARGE --repeat 6 --no-check --platform Hetero --device all"
h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $p 2>&1 | grep -E "kernel_ms|Create|NDRange|SetKernelArg" | cut -c1-160
