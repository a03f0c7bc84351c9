#!/usr/bin/env bash
# Session 26 call G (two H100s where lent, else one H100 with a context per slot): the review mend
# (the CPU slot looked for only once a launch splits) on NVIDIA + PoCL: the N-way tests with the CPU.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -ge 2 ]; then g="nvidia:0,nvidia:1"; else g="nvidia:0,nvidia:0"; fi
new=/tmp/hetero-new
GPU_BUILDS_ARGS=-DHETERO_TEST_THREE_SLOTS=$g,pocl:0 etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
(cd $new && timeout 150 ctest -j6 --timeout 140 -R 'icd.nway-(cpu|unalike|own|on|off)$|engine.auto-nway|bench.(gemm|syr2k|syrk).three-slots' --output-on-failure > $OUT/ctest.txt 2>&1)
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -12
