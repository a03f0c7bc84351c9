#!/usr/bin/env bash
# Session 29 call H (one GPU): this session's changes on NVIDIA + PoCL. (1) Tests: the ICD suites
# (which carry the 1-D image array test), the observability label (the unified bridge tests) and
# the split and unit labels without the corpus runs and PoCL 5.0's three-slot/one-device aborts;
# (2) per-launch cost, this tree against 7d8f07f (.base), 3 interleaved rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
(cd $new && timeout 380 ctest -j8 -R "^icd\.(one-slot|one-slot-discrete|two-slots|two-slots-piped|split-1|split-2|unified-alternate)$|^observability\." --output-on-failure > $OUT/ctest-icd.txt 2>&1
 echo "icd+observability rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-icd.txt | head -20)
(cd $new && timeout $(( 440 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" -E "corpus|icd.three-slots-split|icd.one-device-split|icd.split-[12]$" --output-on-failure > $OUT/ctest-split.txt 2>&1
 echo "split+unit rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-split.txt | head -20)
timeout $(( 585 - (SECONDS - t0) )) python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 3 > $OUT/launch_cost.md 2>&1; tail -12 $OUT/launch_cost.md
echo "after $((SECONDS - t0)) s"
