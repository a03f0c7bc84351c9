#!/usr/bin/env bash
# Session 41 call B (one H200): new (working tree: a timed launch goes straight to the side queue,
# and a launch names no other queue's event already complete, DiscreteStorage::readyFor; the
# bandwidth tool's native modes send a source the host wrote just before) against ccbc4d6 (base).
# (1) timed_shape.c natively (what a timed launch's shape costs); (2) gemm default with
# HETERO_COUNT_BACKEND_CALLS=on (the backend calls of three runs), and jacobi-1d's held and default; (3) the tests the change touches,
# on NVIDIA + PoCL; (4) call A's runs again, base and new; (5) bandwidth.py, base as baseline, twice.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
gcc -O2 docs/results/h200-session41/callB/timed_shape.c -lOpenCL -o /tmp/timed_shape && /tmp/timed_shape > $OUT/timed_shape.txt 2>&1
echo "timed_shape rc=$? after $((SECONDS - t0)) s"; cat $OUT/timed_shape.txt
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
for d in $base $b; do
  echo "== $d"; h $d HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=debug $b/bench/polybench-gemm --size STANDARD --repeat 3 --no-check --each-run --platform Hetero --device all 2>&1 | grep -E "backend calls|^polybench run|history" | grep -v "clGetDeviceInfo\|clGetPlatformInfo\|clGetProgram\|clGetKernel" | cut -c1-190
done > $OUT/gemm-calls.txt 2>&1
grep -E "NVIDIA|polybench run|history|==" $OUT/gemm-calls.txt | cut -c1-190
for mode in held default; do  # jacobi-1d held and default: which thread makes the launches (the pipe's?)
  extra=; [ $mode = held ] && extra=HETERO_DEVICES=gpu
  echo "== jacobi-1d $mode"; h $b $extra HETERO_COUNT_BACKEND_CALLS=on $b/bench/polybench-jacobi-1d --size STANDARD --repeat 3 --no-check --platform Hetero --device all 2>&1 | grep -E "NVIDIA|kernel_ms" | grep -v "clGetDeviceInfo\|clGetPlatformInfo\|clGetProgram\|clGetKernel" | cut -c1-40,90-250
done > $OUT/jacobi-calls.txt 2>&1
cat $OUT/jacobi-calls.txt
timeout 240 ctest --test-dir $b -j4 -R "^engine\.auto-discrete$|^host_copy\.|^icd\.(two-slots|two-slots-piped|split-1|split-2|nway-own)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
runs() { grep -E '^polybench run=' | sed -E 's/.*run=([0-9]+) kernel_ms=([0-9.]+).*/\2/' | tr '\n' ' '; }
for round in 1 2 3 4 5; do
  for prog in gemm 3mm convolution-2d convolution-3d; do
    p="bench/polybench-$prog --size STANDARD --repeat 3 --no-check --each-run"
    echo "$prog native $($b/$p --platform NVIDIA --device gpu 2>&1 | runs)"
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//')
      echo "$prog held-$n $(h $d HETERO_DEVICES=gpu timeout 60 $b/$p --platform Hetero --device all 2>&1 | runs)"
      echo "$prog default-$n $(h $d timeout 60 $b/$p --platform Hetero --device all 2>&1 | runs)"
    done
  done
done > $OUT/runs.txt 2>&1
echo "runs after $((SECONDS - t0)) s"
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 5: d[(w[0], w[1])].append([float(x) for x in w[2:5]])
for (prog, cfg), rows in d.items():
    cols = list(zip(*rows))
    print(prog.ljust(15), cfg.ljust(12), '  '.join(f"run{i+1} {st.median(c):.3f} [{min(c):.3f}-{max(c):.3f}]" for i, c in enumerate(cols)),
          f" min-of-runs median {st.median(min(r) for r in rows):.3f}")
PY
for round in 1 2; do
  timeout 100 python3 bench/tools/bandwidth.py --build $b --baseline $base --sizes 1,2,4,8,16 --reps 9 > $OUT/bandwidth-$round.md 2>&1
  echo "bandwidth $round rc=$? after $((SECONDS - t0)) s"
done
grep -v done $OUT/bandwidth-1.md $OUT/bandwidth-2.md | grep "^\S*| [0-9]" | cut -c1-400
echo "after $((SECONDS - t0)) s"
