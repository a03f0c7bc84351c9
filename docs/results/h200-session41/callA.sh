#!/usr/bin/env bash
# Session 41 call A (one H200): a launch auto mode times goes straight to the profiling side queue
# (launchDirect) instead of the ordinary way; new (working tree) against ccbc4d6 (base, .base).
# (1) The tests the change touches, on NVIDIA + PoCL; (2) gemm, 3mm, convolution-2d and
# convolution-3d at STANDARD (the new build's programs), every run of --repeat 3 (--each-run): native, held to the GPU and
# default, base and new, five interleaved processes each, no history kept between processes (each
# learns from nothing: run 1 loads the kernel, run 2 is the one auto mode times); (3) the scratch
# program dirty.c (issue 16: does a pinned write cost more when the host wrote its source just before?).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
gcc -O2 docs/results/h200-session41/callA/dirty.c -lOpenCL -o /tmp/dirty && /tmp/dirty > $OUT/dirty.txt 2>&1
echo "dirty rc=$? after $((SECONDS - t0)) s"; cat $OUT/dirty.txt
timeout 240 ctest --test-dir $b -j4 -R "^engine\.auto-discrete$|^host_copy\.|^icd\.(two-slots|split-1|nway-own)$" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
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
echo "after $((SECONDS - t0)) s"
