#!/usr/bin/env bash
# Session 39 call E (one H200): natively, do pinned blocks made between an application's buffers
# move those buffers and slow gesummv (callE/pinlayout.c)? First version (a simpler kernel, no tmp):
# 20 rounds of the four modes in one process (callE/first.txt). Second: PolyBench's kernel, each
# mode in processes of its own (5 rounds each, as --repeat 5), 8 processes per mode, interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
gcc -O2 -w -o /tmp/pinlayout docs/results/h200-session39/callE/pinlayout.c -lOpenCL || exit 1
for proc in $(seq 1 8); do
  for m in plain pin-each pin-other slab; do /tmp/pinlayout 5 NVIDIA $m | grep -v '^#'; done
done > $OUT/pinlayout.txt 2>&1
python3 - $OUT/pinlayout.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 8 and not line.startswith('#'): d[w[0]].append([float(v) for v in w[1:]])
cols = ["launch1", "launch2", "launch3", "wA GB/s", "wB GB/s", "B-A MiB", "x-B MiB"]
for m, rows in d.items():
    print(m.ljust(10), "  ".join(f"{c} {st.median(r[i] for r in rows):.2f} [{min(r[i] for r in rows):.2f}..{max(r[i] for r in rows):.2f}]" for i, c in enumerate(cols)))
PY
