#!/usr/bin/env bash
# Session 42 call E (one H200): is NVIDIA's own clEnqueueNDRangeKernel cost (call D: 9-21 us per
# process) a property of the configuration or of the process (where its threads run)? gemm
# STANDARD --repeat 20, ten interleaved processes each of native, held, default and default with
# HETERO_TEST_WRITES_DIRECT=1; then the same pinned to cores 4-7 (taskset). Per process: the
# median time inside clEnqueueNDRangeKernel of runs 5-20 (the application's view) and, through
# Hetero, NVIDIA's own call (HETERO_COUNT_BACKEND_CALLS).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_COUNT_BACKEND_CALLS=on "$@"; }
p="$b/bench/polybench-gemm --size STANDARD --repeat 20 --no-check --each-run"
summ() { python3 -c '
import sys, re, statistics as st
e = []; k = []; nv = "-"
for l in sys.stdin:
    m = re.match(r"polybench run=(\d+) kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+)", l)
    if m and int(m.group(1)) >= 5: k.append(float(m.group(2))); e.append(1e3 * float(m.group(3)))
    m = re.match(r"hetero: backend calls: \d+ clEnqueueNDRangeKernel \(NVIDIA[^)]*\) ([0-9.]+) us each", l)
    if m: nv = m.group(1)
print("kernel %.3f enqueue %.1f nvidia %s" % (st.median(k), st.median(e), nv))'; }
for pin in none cores4-7; do
  pre=""; [ $pin = cores4-7 ] && pre="taskset -c 4-7"
  for round in 1 2 3 4 5 6 7 8 9 10; do
    echo "$pin native $($pre $p --platform NVIDIA --device gpu 2>&1 | summ)"
    echo "$pin held $(h HETERO_DEVICES=gpu $pre timeout 60 $p --platform Hetero --device all 2>&1 | summ)"
    echo "$pin default $(h $pre timeout 60 $p --platform Hetero --device all 2>&1 | summ)"
    echo "$pin direct-writes $(h HETERO_TEST_WRITES_DIRECT=1 $pre timeout 60 $p --platform Hetero --device all 2>&1 | summ)"
  done
done > $OUT/procs.txt 2>&1
echo "after $((SECONDS - t0)) s"
python3 - $OUT/procs.txt <<'PY'
import sys, collections, statistics as st
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    w = l.split()
    if len(w) >= 8: d[(w[0], w[1])].append((float(w[3]), float(w[5]), w[7]))
for key, rows in d.items():
    print("%-9s %-14s kernel ms %s | enqueue us %s | nvidia us %s" % (key[0], key[1],
          "%.3f" % st.median(r[0] for r in rows), " ".join("%.0f" % r[1] for r in rows), " ".join(r[2] for r in rows)))
PY
