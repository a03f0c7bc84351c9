#!/usr/bin/env bash
# Session 19 call I (one H100): main at the end of the session ("new") at LARGE: 18 PolyBench programs
# native, held to the GPU and default (correlation, covariance and gramschmidt left out: seconds
# each); transfers against 3e7534b ("old", session 18's end); from how many threads adi's commands
# reach NVIDIA.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j4 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_COUNT_BACKEND_CALLS=on \
  $new/bench/polybench-adi --platform Hetero --device gpu --no-check --repeat 2 --size STANDARD 2>&1 | grep -E "enqueued on|kernel_ms"
for r in 1 2; do
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_SPLIT=off \
      timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 16,64,256 --reps 7 | sed "s/^/round=$r $v /"
  done
done > $OUT/bandwidth.txt 2>&1
python3 - $OUT/bandwidth.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[3], int(m[4]) >> 20, m[1])].append(float(m[5]))
for key in sorted(d):
    v = sorted(d[key]); print(key, 'ms', ' '.join('%.3f' % x for x in v))
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
L=2mm,3mm,atax,bicg,doitgen,gemm,gemver,gesummv,lu,mvt,syr2k,syrk,adi,convolution-2d,convolution-3d,fdtd-2d,jacobi-1d,jacobi-2d
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,held,default \
  timeout $(( 215 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh $L 1 LARGE 2>&1 | tail -21
echo "done after $(( $(date +%s)-t0 )) s"
