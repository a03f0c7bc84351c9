#!/usr/bin/env bash
# Session 38 call B (one H200): the split's tail after its GPU kernel, before and after.
# base = b7d0bd4 (main at the session's start), mid = 9a21a10 (merge ahead), new = d25977a (merge
# ahead + the application's wait watching awake from the tail's near end). syr2k STANDARD:
# (1) a static 0.05 split, 10 interleaved rounds of native / base / mid / new; (2) auto mode, a fresh
# history per build, two sequences of five processes, interleaved by process; (3) new traced.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
etc/gpu-builds.sh /tmp/hetero-new /tmp/hetero-base=.base /tmp/hetero-mid=.mid > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
b=/tmp/hetero-new
h() { local d=/tmp/hetero-$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check"
{
for round in $(seq 1 10); do
  echo "static native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
  for v in base mid new; do
    echo "static $v $(h $v HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 $p --platform Hetero --device all 2>&1 | ms)"
  done
done
} > $OUT/static.txt 2>&1
echo "static after $((SECONDS - t0)) s"
{
for seq in 1 2; do
  for v in base mid new; do rm -rf /tmp/xdg-$v; done
  for proc in 1 2 3 4 5; do
    echo "auto seq$seq p$proc native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
    for v in base mid new; do
      echo "auto seq$seq p$proc $v $(h $v XDG_CACHE_HOME=/tmp/xdg-$v $p --platform Hetero --device all 2>&1 | ms)"
    done
  done
done
} > $OUT/auto.txt 2>&1
echo "auto after $((SECONDS - t0)) s"
for v in base new; do
  h $v HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 HETERO_LOG=info HETERO_TRACE=$OUT/static-$v.json $p --platform Hetero --device all 2>&1 | grep -E "kernel_ms|merges" | cut -c1-400
done > $OUT/traced.txt 2>&1
gzip -f $OUT/*.json
python3 - $OUT/static.txt $OUT/auto.txt <<'PY'
import sys, statistics as st, collections
for f in sys.argv[1:]:
    d = collections.defaultdict(list)
    for line in open(f):
        w = line.split()
        if len(w) >= 3 and w[-1].replace('.', '').isdigit():
            key = w[0] + ' ' + (w[-2] if w[0] == 'static' else w[2] + ' ' + w[-2])
            d[key].append(float(w[-1]))
    for k, v in sorted(d.items()):
        print(f"{k:24s} n={len(v):2d} median {st.median(v):7.3f} min {min(v):7.3f} max {max(v):7.3f}")
PY
cat $OUT/traced.txt
echo "after $((SECONDS - t0)) s"
