#!/usr/bin/env bash
# Session 39 call G (one H200): natively, which pinned sizes move an application's GPU buffers?
# Call F: host copies carved from a 16 MiB slab left gesummv as slow as a block each; call D's 64
# and 512 MiB slabs did not. pinlayout.c: a pinned slab of S MiB made before the buffers, or a
# pinned block of S MiB before each matrix; the device addresses of A, B, x (B-A, x-B in MiB;
# natively +10 and -2) and the kernel's times.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gcc -O2 -w -o /tmp/pinlayout docs/results/h200-session39/callE/pinlayout.c -lOpenCL || exit 1
for s in 4 8 16 24 32 40 48 64 128; do
  for m in slab pin-each; do
    for proc in 1 2; do /tmp/pinlayout 3 NVIDIA $m $s | grep -v '^#' | sed "s/^/$s /"; done
  done
done > $OUT/sizes.txt 2>&1
for proc in 1 2; do /tmp/pinlayout 3 NVIDIA plain | grep -v '^#' | sed "s/^/0 /"; done >> $OUT/sizes.txt
python3 - $OUT/sizes.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 9: d[(int(w[0]), w[1])].append([float(v) for v in w[2:]])
for (s, m), rows in sorted(d.items()):
    print(f"{s:4d} MiB {m:9s} launch1 {st.median(r[0] for r in rows):6.1f} launch2 {st.median(r[1] for r in rows):6.1f}  B-A {sorted(set(r[5] for r in rows))}  x-B {sorted(set(r[6] for r in rows))}")
PY
