#!/usr/bin/env bash
# Session 49 call 2 (GPU machine). Call 1 showed the H100's abortable kernel ending at 9.04-9.06 ms
# on its own clock while the split's thread saw it end at 11.3-13.8 ms: it asked every 2 ms, and
# NVIDIA's completion callbacks come late. This tree asks every 50 us (base: .base, main 08fbaf0).
# 1. syr2k STANDARD split adaptively at every launch (history off), base and this tree interleaved,
#    three rounds, beside native, held, the CPU idle and the static split at 0.05; one traced run.
# 2. The split tests on nvidia:0,pocl:0 (this tree).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-tests2 p0=/tmp/hetero-base2
[ -e $b/icd/libHeteroOpenCL.so.1 ] && [ -e $p0/icd/libHeteroOpenCL.so.1 ] ||
  etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $p0=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
lib=$(head -1 $b/vendors/hetero.icd); mkdir -p /tmp/v-new2 && echo $lib > /tmp/v-new2/hetero.icd
lib0=$(ls $p0/icd/libHeteroOpenCL.so.*.*.* | head -1); mkdir -p /tmp/v-base2 && echo $lib0 > /tmp/v-base2/hetero.icd
h() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new2 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
h0() { env OCL_ICD_FILENAMES=$lib0 OCL_ICD_VENDORS=/tmp/v-base2 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 6 --no-check --each-run"
# 1.
for round in 1 2 3; do
  echo "native-gpu $($p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  for which in base new; do
    run=h; [ $which = base ] && run=h0
    $run HETERO_LOG=info HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /tmp/always.txt 2>&1
    echo "$which-always $(runs < /tmp/always.txt)"; grep "split syr2k" /tmp/always.txt | sed -E "s/^.*split syr2k/    split/"
    echo "$which-cpu-idle $($run HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_CPU_IDLE=1 $p --platform Hetero --device all 2>&1 | runs)"
    echo "$which-static-0.05 $($run HETERO_CPU_SHARE=0.05 HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  done
done > $OUT/idle-cpu.txt 2>&1
echo "part 1 after $((SECONDS - t0)) s"; grep -v "^    " $OUT/idle-cpu.txt
echo "traced new-always $(h HETERO_SPLIT=always HETERO_TRACE=/tmp/always2.json HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)" > $OUT/traced.txt
python3 docs/results/h100-session49/timeline.py /tmp/always2.json syr2k >> $OUT/traced.txt 2>&1
gzip -c /tmp/always2.json > $OUT/trace-always.json.gz
cat $OUT/traced.txt | head -40
# 2.
timeout $((570 - (SECONDS - t0))) ctest --test-dir $b -j4 --output-on-failure \
  -R "^engine\.(auto-discrete|auto-history|completion|unwaited-build.*)$|^host_copy\.split|^icd\.(split-1|split-2|two-slots)$|^stress\.(split-at-exit|split-after-main-ends.*)$" \
  > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*|Test +#" $OUT/ctest.txt | tail -30
