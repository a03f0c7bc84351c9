#!/usr/bin/env bash
# Session 49 call 4 (GPU machine). Calls 2 and 3: the application saw a split launch complete
# 1.2-1.4 ms after the split's thread completed it: the launch's tail waited for the chunk left
# behind. This tree completes the launch first and holds the exit instead (exit_gate::Hold); base:
# .base, main 0cc0f19 (asks the GPU every 50 us).
# 1. syr2k STANDARD split adaptively at every launch (history off), base and this tree
#    interleaved, four rounds, beside native and held; one traced run of each.
# 2. The split and exit tests on nvidia:0,pocl:0 (this tree).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-tests4 p0=/tmp/hetero-base4
[ -e $b/icd/libHeteroOpenCL.so.1 ] && [ -e $p0/icd/libHeteroOpenCL.so.1 ] ||
  etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $p0=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
lib=$(head -1 $b/vendors/hetero.icd); mkdir -p /tmp/v-new4 && echo $lib > /tmp/v-new4/hetero.icd
lib0=$(ls $p0/icd/libHeteroOpenCL.so.*.*.* | head -1); mkdir -p /tmp/v-base4 && echo $lib0 > /tmp/v-base4/hetero.icd
h() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new4 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
h0() { env OCL_ICD_FILENAMES=$lib0 OCL_ICD_VENDORS=/tmp/v-base4 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 6 --no-check --each-run"
for round in 1 2 3; do
  echo "native-gpu $($p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  echo "base-always $(h0 HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  echo "new-always $(h HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
done > $OUT/always.txt 2>&1
echo "part 1 after $((SECONDS - t0)) s"; cat $OUT/always.txt
for which in base new; do
  run=h; [ $which = base ] && run=h0
  echo "traced $which $($run HETERO_SPLIT=always HETERO_TRACE=/tmp/t-$which.json HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  python3 docs/results/h100-session49/timeline.py /tmp/t-$which.json syr2k | grep -E "^launch|abortable kernel  |left behind|merge"
done > $OUT/traced.txt 2>&1
cat $OUT/traced.txt | head -50
timeout $((130 - (SECONDS - t0))) ctest --test-dir $b -j4 --output-on-failure \
  -R "^stress\.(split-at-exit|split-after-main-ends.*|exit-after.*)$" \
  > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | tail -20
