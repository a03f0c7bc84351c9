#!/usr/bin/env bash
# Session 39 call J (one H200): the slabs (new, 4951af8) against main b22fc4a (base) on gemm and 3mm
# STANDARD in default mode, where session 38 measured gemm at 1.077x native: is the rest on the
# device (--profile)? Ten interleaved rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { local d=/tmp/hetero-$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+) total_ms=([0-9.]+).*device_ms_per_run=([0-9.]+).*/kernel_ms \1 total_ms \2 device_ms \3/'; }
for round in $(seq 1 10); do
  for prog in gemm 3mm; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 5 --no-check --profile"
    echo "$prog native $(timeout 30 $p --platform NVIDIA --device gpu 2>&1 | one)"
    for v in base new; do echo "$prog $v $(h $v timeout 30 $p --platform Hetero --device all 2>&1 | one)"; done
  done
  [ $((SECONDS - t0)) -gt 150 ] && break
done > $OUT/runs.txt 2>&1
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 8:
        for i in range(2, 8, 2): d[(w[0], w[1])][w[i]].append(float(w[i + 1]))
for (prog, cfg), m in sorted(d.items()):
    print(prog.ljust(6), cfg.ljust(7), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}] n={len(v)}" for k, v in m.items()))
PY
echo "after $((SECONDS - t0)) s"
