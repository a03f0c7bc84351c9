#!/usr/bin/env bash
# Session 42 call J (one H200): a discrete split's GPU fills and snapshots as the merge module's
# kernels instead of clEnqueueFillBuffer / clEnqueueCopyBuffer (new) against 5c8685b (base).
# (1) The split tests on NVIDIA + PoCL; (2) syrk and syr2k STANDARD, static split at 2 %
# (HETERO_SPLIT=always HETERO_CPU_SHARE=0.02), base and new interleaved, five processes each,
# --repeat 3: time inside clEnqueueNDRangeKernel (the split's setup in the application's thread)
# and kernel time, per run.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 260 ctest --test-dir $b -j4 -R "^engine\.(auto-discrete|fixed-cost.*)$|^host_copy\.split|^icd\.(split-1|split-2|two-slots)$" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+)/\1 \2/' | tr '\n' ' '; }
for round in 1 2 3 4 5; do
  for prog in syrk syr2k; do
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//')
      echo "$prog $n $(h $d HETERO_SPLIT=always HETERO_CPU_SHARE=0.02 HETERO_SPLIT_BUILD=eager timeout 60 $b/bench/polybench-$prog --size STANDARD --repeat 3 --no-check --each-run --platform Hetero --device all 2>&1 | runs)"
    done
  done
done > $OUT/runs.txt 2>&1
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 8: d[(w[0], w[1])].append([float(x) for x in w[2:8]])
for (prog, n), rows in sorted(d.items()):
    c = list(zip(*rows))
    print(prog.ljust(6), n.ljust(5), "  ".join("run%d %.3f ms / %.0f us" % (i // 2 + 1, st.median(c[i]), 1e3 * st.median(c[i + 1])) for i in range(0, 6, 2)))
PY
echo "after $((SECONDS - t0)) s"
