#!/usr/bin/env bash
# Session 49 call 3 (GPU machine). Call 2: asked every 50 us, the host saw the abortable kernel's
# end within 0.1 ms in some launches and 1.3 ms late in others, and untraced adaptive splits still
# took 9.3-17 ms. Is the split's thread (and the application's) kept off the cores by the CPU
# chunk's 16 PoCL workers (a waking thread may wait milliseconds for a core that CPU-bound threads
# hold)? syr2k STANDARD split adaptively at every launch, this tree, PoCL on 16, 15 and 14 cores
# (POCL_CPU_MAX_CU_NUM), interleaved, four rounds; the chunk's workers' count checked in /proc.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-tests2
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
lib=$(head -1 $b/vendors/hetero.icd); mkdir -p /tmp/v-new2 && echo $lib > /tmp/v-new2/hetero.icd
h() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new2 HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 6 --no-check --each-run"
for round in 1 2 3 4; do
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  for cus in 16 15 14; do
    h POCL_CPU_MAX_CU_NUM=$cus HETERO_LOG=info HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /tmp/a.txt 2>&1
    echo "always-$cus $(runs < /tmp/a.txt)"; grep "split syr2k" /tmp/a.txt | sed -E "s/^.*split syr2k/    split/"
  done
done > $OUT/cores.txt 2>&1
echo "after $((SECONDS - t0)) s"; grep -v "^    " $OUT/cores.txt
for cus in 16 14; do
  h POCL_CPU_MAX_CU_NUM=$cus HETERO_SPLIT=always HETERO_TRACE=/tmp/c$cus.json HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /dev/null 2>&1 &
  pid=$!; sleep 1.5; echo "cus=$cus threads $(ls /proc/$pid/task 2>/dev/null | wc -l)"; wait $pid
  python3 docs/results/h100-session49/timeline.py /tmp/c$cus.json syr2k | grep -E "^launch|abortable|left behind" > $OUT/timeline-$cus.txt
done
tail -12 $OUT/timeline-16.txt; tail -12 $OUT/timeline-14.txt
