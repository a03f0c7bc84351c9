#!/usr/bin/env bash
# Session 41 call C (one H200), main at 44292b1 plus --each-run's enqueue time: where a one-launch
# program's run after the timed one still costs default mode more than held (call B: convolution-2d
# run 3 0.130 ms against 0.115 held, gemm 0.200 against 0.197). gemm and convolution-2d at
# STANDARD, --repeat 4 --each-run (kernel time and the time inside clEnqueueNDRangeKernel), five
# interleaved processes each of: held to the GPU; default; default without splits
# (HETERO_SPLIT=off); default with the CPU's share 0 (HETERO_CPU_SHARE=0); then one default process
# of each with HETERO_LOG=debug.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+).*/\1 \2/' | tr '\n' ' '; }
for round in 1 2 3 4 5; do
  for prog in gemm convolution-2d; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 4 --no-check --each-run"
    echo "$prog native $($p --platform NVIDIA --device gpu 2>&1 | runs)"
    echo "$prog held $(h HETERO_DEVICES=gpu timeout 60 $p --platform Hetero --device all 2>&1 | runs)"
    echo "$prog default $(h timeout 60 $p --platform Hetero --device all 2>&1 | runs)"
    echo "$prog split-off $(h HETERO_SPLIT=off timeout 60 $p --platform Hetero --device all 2>&1 | runs)"
    echo "$prog share-0 $(h HETERO_CPU_SHARE=0 timeout 60 $p --platform Hetero --device all 2>&1 | runs)"
  done
done > $OUT/runs.txt 2>&1
echo "runs after $((SECONDS - t0)) s"
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 10: d[(w[0], w[1])].append([float(x) for x in w[2:10]])
for (prog, cfg), rows in d.items():
    cols = list(zip(*rows))
    print(prog.ljust(15), cfg.ljust(10), '  '.join(f"run{i//2+1} {st.median(cols[i]):.3f}/{st.median(cols[i+1])*1e3:.0f}us" for i in range(0, 8, 2)))
PY
for prog in gemm convolution-2d; do
  echo "== $prog default, debug"
  h HETERO_LOG=debug $b/bench/polybench-$prog --size STANDARD --repeat 4 --no-check --each-run --platform Hetero --device all 2>&1 | grep -vi "transform\|cache\|^$" | cut -c1-220 | tail -25
done > $OUT/debug.txt 2>&1
cat $OUT/debug.txt | grep -v "backend platform\|slot [0-9]:\|skipping" | head -60
echo "after $((SECONDS - t0)) s"
