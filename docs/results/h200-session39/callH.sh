#!/usr/bin/env bash
# Session 39 call H (one H200): (1) gesummv LARGE --profile, default mode, with the first pinned
# slab at 16 (the build's), 32, 48 and 64 MiB (an experiment's knob, HETERO_TEST_FIRST_SLAB_MB, not
# landed) and main b22fc4a, ten interleaved rounds; (2) pinlayout.c's slab mode at 16-128 MiB:
# where the GPU buffers made after the slab lie, and what pinning the slab costs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { local d=/tmp/hetero-$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+) total_ms=([0-9.]+).*device_ms_per_run=([0-9.]+).*/kernel_ms \1 total_ms \2 device_ms \3/'; }
p="$b/bench/polybench-gesummv --size LARGE --repeat 5 --no-check --profile"
for round in $(seq 1 10); do
  echo "gesummv native $($p --platform NVIDIA --device gpu 2>&1 | one)"
  echo "gesummv base $(h base $p --platform Hetero --device all 2>&1 | one)"
  for s in 16 32 48 64; do echo "gesummv slab$s $(h new HETERO_TEST_FIRST_SLAB_MB=$s $p --platform Hetero --device all 2>&1 | one)"; done
done > $OUT/gesummv.txt 2>&1
echo "gesummv after $((SECONDS - t0)) s"
gcc -O2 -w -o /tmp/pinlayout docs/results/h200-session39/callE/pinlayout.c -lOpenCL || exit 1
for s in 16 24 32 48 64 128 256; do
  for proc in 1 2; do /tmp/pinlayout 3 NVIDIA slab $s | grep -v '^#' | sed "s/^/$s /"; done
done > $OUT/slabs.txt 2>&1
python3 - $OUT/gesummv.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 8:
        for i in range(2, 8, 2): d[w[1]][w[i]].append(float(w[i + 1]))
for cfg, m in d.items():
    print(cfg.ljust(8), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
python3 - $OUT/slabs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 10: d[int(w[0])].append([float(v) for v in w[2:]])
for s, rows in sorted(d.items()):
    print(f"slab {s:4d} MiB launch1 {st.median(r[0] for r in rows):6.1f} launch2 {st.median(r[1] for r in rows):6.1f} pin_ms {st.median(r[7] for r in rows):6.2f} B-A {sorted(set(r[5] for r in rows))} x-B {sorted(set(r[6] for r in rows))}")
PY
echo "after $((SECONDS - t0)) s"
