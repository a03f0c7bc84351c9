#!/usr/bin/env bash
# Session 18 call F (one H100): large blocking writes not through a host copy go through pinned pieces
# (new = tree, caf501d) against 48e83d3 (old, .base): Hetero held to the GPU (HETERO_DEVICES=gpu: no
# CPU slot, so whole writes go straight to the GPU), interleaved, nothing else running; PolyBench
# EXTRALARGE total time held to the GPU; tests on NVIDIA + PoCL after the measurements.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
rm -rf $new $base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j6 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"; uptime
for r in 1 2 3; do
  timeout 60 $new/bench/bandwidth --platform NVIDIA --modes ordinary --sizes 16,64,256 --reps 7 | sed "s/^/round=$r native /"
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    for cfg in held:gpu 1gc:gpu,cpu; do
      env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=${cfg#*:} HETERO_SPLIT=off \
        timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 16,64,256 --reps 7 | sed "s/^/round=$r $v-${cfg%%:*} /"
    done
  done
done 2>&1 > $OUT/bandwidth_old_new.txt
python3 - $OUT/bandwidth_old_new.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[1], m[3], int(m[4]) >> 20)].append(float(m[5]))
for key in sorted(d):
    v = sorted(d[key]); print(key, 'median ms %.3f (%.1f GB/s)' % (v[len(v)//2], key[2] * 1.048576 / v[len(v)//2]))
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,oldheld,newheld \
SLOT_COST_EXTRA="oldheld=$OLD HETERO_DEVICES=gpu;newheld=HETERO_DEVICES=gpu" \
  timeout 150 etc/gpu-slot-cost.sh gemm,2mm,atax,gesummv,mvt,syrk 2 EXTRALARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_held_total.txt
echo "polybench after $(( $(date +%s)-t0 )) s"
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:")
timeout 150 ctest --test-dir $t -j8 --timeout 140 -R 'host_copy|icd.two-slots$|icd.one-slot|observability|parallel' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
