#!/usr/bin/env bash
# Session 41 call E (one H200): main as it stands (new: timed launches the direct way, complete
# ready events of other queues not named, the timing's side queue made during the launch before,
# PolyBench's --each-run) against ccbc4d6 (base, .base). (1) The tests the launch path touches, on
# NVIDIA + PoCL; (2) calls A-B's per-run comparison (gemm, 3mm, convolution-2d, convolution-3d at
# STANDARD, native, held and default, base and new, five interleaved processes, no history kept),
# with the time inside clEnqueueNDRangeKernel; (3) issue 15's table for all 21 programs at
# STANDARD with the new build: the bench runner, native GPU, held to the GPU, default, three
# processes each (history kept between a configuration's processes, as users run).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 200 ctest --test-dir $b -j4 -R "^engine\.auto-discrete$|^host_copy\.|^icd\.(two-slots|two-slots-piped|one-slot-discrete|split-1|split-2|nway-own)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*enqueue_ms=([0-9.]+).*/\1 \2/' | tr '\n' ' '; }
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
    if len(w) >= 8: d[(w[0], w[1])].append([float(x) for x in w[2:8]])
for (prog, cfg), rows in d.items():
    cols = list(zip(*rows))
    print(prog.ljust(15), cfg.ljust(12), '  '.join(f"run{i//2+1} {st.median(cols[i]):.3f}/{st.median(cols[i+1])*1e3:.0f}us" for i in range(0, 6, 2)),
          f" min-of-runs median {st.median(min(r[0], r[2], r[4]) for r in rows):.3f}")
PY
HETERO_COMMIT=36d9455 timeout 330 python3 bench/run --build $b --sizes STANDARD --benchmarks all --repeat 3 \
  --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/runner.txt 2>&1
echo "runner rc=$? after $((SECONDS - t0)) s"
tar -czf $OUT/standard.tar.gz -C $OUT standard && rm -rf $OUT/standard
tail -32 $OUT/runner.txt
echo "after $((SECONDS - t0)) s"
