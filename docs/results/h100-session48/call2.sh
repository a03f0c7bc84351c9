#!/usr/bin/env bash
# Session 48 call 2 (GPU machine): the launch and split tests that the builds no launch waits for
# touch (this tree, built with its tests on nvidia:0,pocl:0): the unwaited build, completion,
# auto mode and its history, the fixed costs, the host copy's split cases, the split ICD suites,
# the exit-time programs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-tests
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 > $OUT/build-tests.txt 2>&1 || { tail -30 $OUT/build-tests.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout $((${LIMIT_S:-560} - (SECONDS - t0))) ctest --test-dir $b -j4 --output-on-failure \
  -R "^engine\.(auto-discrete|auto-history|completion|unwaited-build.*|fixed-cost.*)$|^host_copy\.split|^icd\.(split-1|split-2|two-slots)$|^stress\.(exit-after.*|split-at-exit)$" \
  > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*|Test +#" $OUT/ctest.txt | tail -40
