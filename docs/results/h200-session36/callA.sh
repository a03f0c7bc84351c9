#!/usr/bin/env bash
# Session 36 call A (one H200): where gesummv LARGE's default (GPU + CPU) loses 12-13 % of native's
# 0.34 ms launch (session 35 call E) while held to the GPU it does not. In one process per
# configuration: the program's calls (call_clock), Hetero's backend calls
# (HETERO_COUNT_BACKEND_CALLS), the decisions (HETERO_LOG=debug); the default also with
# HETERO_SPLIT=off (no split decision at all). Then up to 12 processes of each, interleaved, for
# kernel_ms. adi and 3mm STANDARD's launch calls likewise, one process each.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
keep='kernel_ms|call_clock: |backend calls: [0-9]|history|split|decid|counters'
drop='GetDeviceInfo|GetPlatformInfo|GetDeviceIDs|GetProgram|GetKernel|CreateProgram|BuildProgram|CreateContext|CreateKernel|CreateCommandQueue|ReleaseContext|ReleaseProgram|ReleaseKernel|clGetEventInfo|RetainContext'
run() {  # name, size, repeat, config
  local p=$1 s=$2 r=$3 c=$4 a="--size $2 --repeat $3 --no-check"
  echo "== $p $s $c"
  case $c in
    native) env CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform NVIDIA --device gpu ;;
    held) h HETERO_DEVICES=gpu HETERO_LOG=debug HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all ;;
    default) h HETERO_LOG=debug HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all ;;
    nosplit) h HETERO_SPLIT=off HETERO_LOG=debug HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-$p $a --platform Hetero --device all ;;
  esac 2>&1 | grep -E "$keep" | grep -vE "$drop" | cut -c1-240
}
for r in 1 2; do
  for c in native held default nosplit; do run gesummv LARGE 20 $c; done
done > $OUT/calls.txt 2>&1
for p in adi 3mm; do
  for c in native held default; do run $p STANDARD 2 $c; done
done > $OUT/calls-others.txt 2>&1
echo "calls after $((SECONDS - t0)) s"
ms() { grep -oE 'kernel_ms=[0-9.]+ total_ms=[0-9.]+' | sed -E 's/kernel_ms=([0-9.]+) total_ms=([0-9.]+)/\1 \2/'; }
a="--size LARGE --repeat 5 --no-check"
for round in $(seq 1 12); do
  [ $((SECONDS - t0)) -gt 300 ] && break
  echo "gesummv native $($new/bench/polybench-gesummv $a --platform NVIDIA --device gpu 2>&1 | ms)"
  echo "gesummv held $(h HETERO_DEVICES=gpu $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv default $(h $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv nosplit $(h HETERO_SPLIT=off $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
done > $OUT/programs.txt 2>&1
python3 - $OUT/programs.txt <<'PY' | tee $OUT/programs.md
import collections, statistics, sys
sys.path.insert(0, "bench/tools")
from tool_support import median_difference
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 4: t[(f[0], f[1])].append(float(f[2]))
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]; m = statistics.median(nat)
    print("%s: %d processes, native %.3f ms" % (prog, len(nat), m))
    for c in ("held", "default", "nosplit"):
        low, mid, high = median_difference(t[(prog, c)], nat)
        print("  %s %.3f (%.3f-%.3f)" % (c, 1 + mid / m, 1 + low / m, 1 + high / m))
PY
echo "after $((SECONDS - t0)) s"
