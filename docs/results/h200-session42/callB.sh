#!/usr/bin/env bash
# Session 42 call B (one H200): where default mode's extra time per launch goes in a program with
# few launches (session 41: runs 3-4 of gemm 6-20 us slower than held, all of it inside
# clEnqueueNDRangeKernel, NVIDIA's own calls slower). gemm and convolution-2d at STANDARD,
# --repeat 20 (is the gap in the first launches after the timed one only, or in every launch?),
# held / default / HETERO_CPU_SHARE=0, five interleaved processes each, no history kept; and the
# process's CPU time (user + system, bash's `time`): a driver thread spinning beside the
# application shows there.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
TIMEFORMAT='cpu %U %S wall %R'
for round in 1 2 3 4 5; do
  for prog in gemm convolution-2d; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 20 --no-check --each-run"
    echo "=== $prog native round $round"
    { time $p --platform NVIDIA --device gpu > /tmp/o.txt 2>&1; } 2>&1; grep -E "^polybench run=" /tmp/o.txt
    for cfg in held default share-0; do
      case $cfg in held) e=HETERO_DEVICES=gpu;; default) e=;; share-0) e=HETERO_CPU_SHARE=0;; esac
      echo "=== $prog $cfg round $round"
      { time h $e timeout 60 $p --platform Hetero --device all > /tmp/o.txt 2>&1; } 2>&1; grep -E "^polybench run=" /tmp/o.txt
    done
  done
done > $OUT/runs.txt 2>&1
echo "runs after $((SECONDS - t0)) s"
python3 - $OUT/runs.txt <<'PY'
import sys, re, statistics as st, collections
runs = collections.defaultdict(lambda: collections.defaultdict(list))
cpu = collections.defaultdict(list)
key = None
for line in open(sys.argv[1]):
    if line.startswith("==="):
        w = line.split(); key = (w[1], w[2]); continue
    m = re.match(r"cpu ([0-9.]+) ([0-9.]+) wall ([0-9.]+)", line)
    if m: cpu[key].append((float(m.group(1)) + float(m.group(2)), float(m.group(3)))); continue
    m = re.match(r"polybench run=(\d+) kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+)", line)
    if m: runs[key][int(m.group(1))].append((float(m.group(2)), float(m.group(3))))
for key in sorted(runs):
    r = runs[key]
    ks = " ".join("%.3f" % st.median(k for k, _ in r[i]) for i in sorted(r))
    es = " ".join("%.0f" % (1e3 * st.median(e for _, e in r[i])) for i in sorted(r))
    c = cpu[key]
    print("%-15s %-8s cpu %.3f s wall %.3f s" % (key[0], key[1], st.median(x for x, _ in c), st.median(y for _, y in c)))
    print("   kernel ms by run:", ks)
    print("   enqueue us by run:", es)
PY
echo "after $((SECONDS - t0)) s"
