#!/usr/bin/env bash
# Session 19 call H (one H100): the enqueuing thread copies a piece itself only when no other thread
# has taken it ("new", working tree) against HEAD b1ea5ae ("prev": it copied any piece left while
# waiting): transfers and the launch-bound programs; then the tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests prev=/tmp/hetero-prev
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j13 2>&1 | grep -E "error:") &
(cmake -S .base -B $prev -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $prev -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for v in prev new; do
    lib=$new; [ $v = prev ] && lib=$prev
    env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_SPLIT=off \
      timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,16,64 --reps 9 | sed "s/^/round=$r $v /"
  done
done > $OUT/bandwidth.txt 2>&1
python3 - $OUT/bandwidth.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[3], int(m[4]) >> 20, m[1])].append(float(m[5]))
for key in sorted(d):
    if key[0] == 'h2d': v = sorted(d[key]); print(key, 'median ms %.3f' % v[len(v)//2])
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,prev,new \
SLOT_COST_EXTRA="new=XDG_CACHE_HOME=/tmp/cache-new;prev=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout 90 etc/gpu-slot-cost.sh adi,convolution-3d,lu 3 STANDARD 2>&1 | tail -5
echo "slot cost after $(( $(date +%s)-t0 )) s"
left=$(( 400 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $new -j8 --timeout 120 -R 'host_copy|icd.two-slots$|icd.one-slot|observability|parallel|whole write|engine.completion|unified.forced|bench.(gemm|atax|gesummv).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
