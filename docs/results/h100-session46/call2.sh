#!/usr/bin/env bash
# Session 46 call 2 (GPU machine): what the CPU slot adds to a program's one launch (gemm
# STANDARD: default 0.199 ms against held 0.190 and native 0.190 in call 1; convolution-2d LARGE
# 0.340 / 0.333 / 0.334). Native, held, default and default without splitting (HETERO_SPLIT=off)
# interleaved, five runs a process; then one process of held and of default with Hetero's log, its
# NVIDIA calls counted and the program's own calls timed (call_clock).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-b "$@"; }
mkdir -p /tmp/xdg-b
pre=$b/bench/libcall_clock.so
for round in 1 2 3 4 5; do
  for ps in "gemm STANDARD" "convolution-2d LARGE" "3mm STANDARD"; do
    set -- $ps
    q="$b/bench/polybench-$1 --size $2 --repeat 5 --no-check --each-run"
    echo "$1 $2 native $($q --platform NVIDIA --device gpu 2>&1 | runs)"
    echo "$1 $2 held $(h HETERO_DEVICES=gpu $q --platform Hetero --device all 2>&1 | runs)"
    echo "$1 $2 default $(h $q --platform Hetero --device all 2>&1 | runs)"
    echo "$1 $2 default-splitoff $(h HETERO_SPLIT=off $q --platform Hetero --device all 2>&1 | runs)"
  done
done | tee $OUT/one-launch.txt
echo "rounds after $((SECONDS - t0)) s"
for ps in "gemm STANDARD" "convolution-2d LARGE"; do
  set -- $ps
  q="$b/bench/polybench-$1 --size $2 --repeat 5 --no-check --each-run"
  for cfg in held default; do
    extra=""; [ $cfg = held ] && extra=HETERO_DEVICES=gpu
    h $extra HETERO_LOG=info HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_PERIOD=1 LD_PRELOAD=$pre $q --platform Hetero --device all > $OUT/$1-$cfg-diag.txt 2>&1
  done
done
ls /tmp/xdg-b/hetero/ && cat /tmp/xdg-b/hetero/split-history-*.txt > $OUT/history.txt 2>/dev/null
python3 - $OUT/one-launch.txt <<'PY' | tee $OUT/summary.txt
import sys, statistics, collections
t = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 4: continue
    key, vals = tuple(f[:3]), [float(x) for x in f[3:]]
    for i, v in enumerate(vals): t[key][i + 1].append(v)
for key, byrun in sorted(t.items()):
    nat = t.get(key[:2] + ("native",))
    cells = []
    for run in sorted(byrun):
        m = statistics.median(byrun[run])
        cells.append("run%d %.3f%s" % (run, m, " (%+.1f us)" % (1000 * (m - statistics.median(nat[run]))) if nat and key[2] != "native" else ""))
    print("%-38s %s" % (" ".join(key), "  ".join(cells)))
PY
echo "after $((SECONDS - t0)) s"
