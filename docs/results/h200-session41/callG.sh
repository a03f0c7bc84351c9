#!/usr/bin/env bash
# Session 41 call G (one H200): main 2ba003a (new: also the timings no decision heard are written
# to the history at exit) against ccbc4d6 (base, .base), as the bench runner measures (each process
# times its phase twice and keeps the faster; auto mode's history kept between a configuration's
# processes, a fresh directory per build and program): gemm, 3mm, convolution-2d and
# convolution-3d at STANDARD, native, held and default, base and new, three interleaved rounds;
# then the bench runner (new) on the launch-heavy and one-launch programs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent "$@"; }
best() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | sort -n | head -1; }
rm -rf /tmp/xdg-*
for round in 1 2 3; do
  for prog in gemm 3mm convolution-2d convolution-3d; do
    p="bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run"
    echo "$prog native $($b/$p --platform NVIDIA --device gpu 2>&1 | best)"
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//')
      echo "$prog held-$n $(h $d HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu timeout 60 $b/$p --platform Hetero --device all 2>&1 | best)"
      echo "$prog default-$n $(h $d XDG_CACHE_HOME=/tmp/xdg-$n-$prog timeout 60 $b/$p --platform Hetero --device all 2>&1 | best)"
    done
  done
done > $OUT/runs.txt 2>&1
echo "runs after $((SECONDS - t0)) s"
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 3: d[(w[0], w[1])].append(float(w[2]))
for prog in dict.fromkeys(k[0] for k in d):
    n = st.median(d[(prog, 'native')])
    print(prog.ljust(15), '  '.join(f"{c} {st.median(d[(prog, c)]):.3f} ({st.median(d[(prog, c)]) / n:.3f}x)" for c in
                                   ['native', 'held-base', 'default-base', 'held-new', 'default-new']))
PY
HETERO_COMMIT=2ba003a timeout 120 python3 bench/run --build $b --sizes STANDARD --benchmarks gemm,3mm,convolution-2d,convolution-3d,jacobi-1d,adi \
  --repeat 3 --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/runner.txt 2>&1
echo "runner rc=$? after $((SECONDS - t0)) s"
tar -czf $OUT/standard.tar.gz -C $OUT standard && rm -rf $OUT/standard
grep -A12 "^program" $OUT/runner.txt
echo "after $((SECONDS - t0)) s"
