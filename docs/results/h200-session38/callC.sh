#!/usr/bin/env bash
# Session 38 call C (one H200), d25977a: syr2k STANDARD's real ideal at shares 0.04-0.08, each side of
# the static split alone (HETERO_TEST_SPLIT_ONLY), beside native, the static splits and auto mode
# (a fresh history, five processes), three interleaved rounds; syr2k LARGE: native against auto mode.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check"
{
for round in 1 2 3; do
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
  for s in 0.04 0.05 0.06 0.07 0.08; do
    echo "gpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=gpu $p --platform Hetero --device all 2>&1 | ms)"
    echo "cpu-part-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | ms)"
    echo "static-$s $(h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$s $p --platform Hetero --device all 2>&1 | ms)"
  done
  rm -rf /tmp/xdg
  for proc in 1 2 3 4 5; do
    echo "auto-p$proc $(h XDG_CACHE_HOME=/tmp/xdg $p --platform Hetero --device all 2>&1 | ms)"
  done
done
} > $OUT/standard.txt 2>&1
echo "standard after $((SECONDS - t0)) s"
pl="$b/bench/polybench-syr2k --size LARGE --repeat 5 --no-check"
{
for round in 1 2; do
  rm -rf /tmp/xdg
  for proc in 1 2 3 4; do
    echo "native $($pl --platform NVIDIA --device gpu 2>&1 | ms)"
    echo "auto-p$proc $(h XDG_CACHE_HOME=/tmp/xdg $pl --platform Hetero --device all 2>&1 | ms)"
  done
done
} > $OUT/large.txt 2>&1
echo "large after $((SECONDS - t0)) s"
python3 - $OUT/standard.txt $OUT/large.txt <<'PY'
import sys, statistics as st, collections
for f in sys.argv[1:]:
    print("==", f)
    d = collections.defaultdict(list)
    for line in open(f):
        w = line.split()
        if len(w) == 2:
            d[w[0]].append(float(w[1]))
    for k, v in d.items():
        print(f"{k:14s} n={len(v)} median {st.median(v):7.3f} min {min(v):7.3f} max {max(v):7.3f}  {' '.join('%.3f' % x for x in v)}")
PY
echo "after $((SECONDS - t0)) s"
