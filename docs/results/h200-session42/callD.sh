#!/usr/bin/env bash
# Session 42 call D (one H200): call B found gemm's launches in default mode 12-16 us slower than
# held in every run (not only after the timed one), 9-13 us of it inside clEnqueueNDRangeKernel,
# and call C found no NVIDIA-side cause natively. Which backend calls differ per run: gemm
# STANDARD --repeat 20 with HETERO_COUNT_BACKEND_CALLS=on, held / default / HETERO_CPU_SHARE=0 /
# default with HETERO_TEST_WRITES_DIRECT=1 (host writes straight to their slot, not through the
# host copy), three processes each, NVIDIA's calls listed.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_COUNT_BACKEND_CALLS=on "$@"; }
for round in 1 2 3; do
  for cfg in held default share-0 direct-writes; do
    case $cfg in held) e=HETERO_DEVICES=gpu;; default) e=;; share-0) e=HETERO_CPU_SHARE=0;; direct-writes) e=HETERO_TEST_WRITES_DIRECT=1;; esac
    echo "=== gemm $cfg round $round"
    h $e timeout 60 $b/bench/polybench-gemm --size STANDARD --repeat 20 --no-check --each-run --platform Hetero --device all 2>&1 |
      grep -E "^polybench run=(5|10|15|20) |NVIDIA" | grep -vE "clGetDeviceInfo|clGetPlatformInfo|clGetProgram|clGetKernel|clBuildProgram|clCreateContext|clReleaseContext|clGetDeviceIDs|clCreateProgram" |
      sed -E 's/ \(NVIDIA CUDA, dispatch 0x[0-9a-f]+\)//; s/, from 1 thread//' | cut -c1-150
  done
done > $OUT/calls.txt 2>&1
echo "after $((SECONDS - t0)) s"
python3 - $OUT/calls.txt <<'PY'
import sys, re, collections, statistics as st
cfg = None; d = collections.defaultdict(lambda: collections.defaultdict(list)); runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith("==="): cfg = line.split()[2]; continue
    m = re.match(r"hetero: backend calls: (\d+) (\S+) ([0-9.]+) us each", line)
    if m: d[cfg][m.group(2)].append((int(m.group(1)), float(m.group(3)))); continue
    m = re.match(r"polybench run=\d+ kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+)", line)
    if m: runs[cfg].append((float(m.group(1)), float(m.group(2))))
cfgs = list(d)
for c in cfgs:
    print("%-14s kernel %.3f ms enqueue %.1f us (runs 5-20, median)" % (c, st.median(k for k, _ in runs[c]), 1e3 * st.median(e for _, e in runs[c])))
calls = sorted({k for c in cfgs for k in d[c]})
print("%-30s" % "call (count per process / us each)" + "".join("%22s" % c for c in cfgs))
for k in calls:
    print("%-30s" % k + "".join("%22s" % ("%d / %.2f" % (st.median(n for n, _ in d[c][k]), st.median(u for _, u in d[c][k])) if d[c][k] else "-") for c in cfgs))
PY
