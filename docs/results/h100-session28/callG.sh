#!/usr/bin/env bash
# Session 28 call G (one H100): c6f2913 (an event held by its tail completes once the tail has
# finished, whoever asks first) on NVIDIA + PoCL: the split tests whose launches have tails, the
# test that found it (icd.split-give-up), the unit test.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
cd $new && timeout $(( 270 - (SECONDS - t0) )) ctest -j8 -R "^(icd\.split-give-up|icd\.split-1|icd\.split-piped|engine\.completion|engine\.quiet-wait|engine\.auto-discrete|fuzz\.api\.split)$|event held" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Test +#" $OUT/ctest.txt | head -20
