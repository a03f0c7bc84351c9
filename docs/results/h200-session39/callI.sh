#!/usr/bin/env bash
# Session 39 call I (one H200): host copies carved from pinned slabs of 32 MiB multiples (new)
# against main b22fc4a (base). (1) The tests the change touches, on NVIDIA + PoCL; (2) gesummv LARGE
# --profile, default mode, ten interleaved rounds; (3) the first run's total time (where the pinning
# happens: --repeat 1), gesummv and atax LARGE, ten interleaved rounds; (4) twelve programs at LARGE,
# default mode, kernel time, three interleaved rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 150 ctest --test-dir $b -j4 -R "^host_copy\.|^icd\.(two-slots|split-1)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
h() { local d=/tmp/hetero-$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+) total_ms=([0-9.]+).*device_ms_per_run=([0-9.]+).*/kernel_ms \1 total_ms \2 device_ms \3/'; }
two() { grep -E 'kernel_ms' | sed -E 's/.*kernel_ms=([0-9.]+) total_ms=([0-9.]+).*/kernel_ms \1 total_ms \2/'; }
p="$b/bench/polybench-gesummv --size LARGE --repeat 5 --no-check --profile"
for round in $(seq 1 10); do
  echo "gesummv native $($p --platform NVIDIA --device gpu 2>&1 | one)"
  for v in base new; do echo "gesummv $v $(h $v $p --platform Hetero --device all 2>&1 | one)"; done
  for prog in gesummv atax; do
    for v in base new; do echo "first-$prog $v $(h $v $b/bench/polybench-$prog --size LARGE --repeat 1 --no-check --platform Hetero --device all 2>&1 | two)"; done
  done
done > $OUT/gesummv.txt 2>&1
echo "gesummv after $((SECONDS - t0)) s"
for round in 1 2 3; do
  for prog in gesummv atax bicg mvt gemver syr2k syrk doitgen 2mm 3mm gemm convolution-2d; do
    p="$b/bench/polybench-$prog --size LARGE --repeat 3 --no-check"
    for v in base new; do echo "$prog $v $(h $v timeout 60 $p --platform Hetero --device all 2>&1 | two)"; done
  done
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
python3 - $OUT/gesummv.txt $OUT/programs.txt <<'PY'
import sys, statistics as st, collections
for f in sys.argv[1:]:
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(f):
        w = line.split()
        if len(w) >= 4 and len(w) % 2 == 0:
            for i in range(2, len(w), 2):
                try: d[(w[0], w[1])][w[i]].append(float(w[i + 1]))
                except ValueError: pass
    for (prog, cfg), m in sorted(d.items()):
        print(prog.ljust(15), cfg.ljust(7), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
echo "after $((SECONDS - t0)) s"
