#!/usr/bin/env bash
# Session 18 call H (one H100): the final tree (new) against d0a190f (old, .base): launch cost per pattern
# (the helper's launch hot path), transfers 4-64 MiB, PolyBench LARGE total time (1gc default) and the
# launch-bound programs' kernel time, then tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
rm -rf $new $base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j6 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
for r in 1 2 3 4 5; do
  timeout 60 $new/bench/launch_cost --platform NVIDIA --launches 20000 --patterns plain,event,profiling,profiling+event | sed "s/^/round=$r native /"
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    for cfg in held:gpu 1gc:gpu,cpu; do
      env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=${cfg#*:} \
        timeout 60 $new/bench/launch_cost --platform Hetero --launches 20000 --patterns plain,event,profiling,profiling+event | sed "s/^/round=$r $v-${cfg%%:*} /"
    done
  done
done > $OUT/launch_cost.txt 2>&1
python3 - $OUT/launch_cost.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', l)
    if m: d[(m[2], m[1])].append((float(m[3]), float(m[4])))
for key in sorted(d):
    e = sorted(x[0] for x in d[key]); t = sorted(x[1] for x in d[key])
    print(key, 'enqueue %.2f total %.2f us (median of %d)' % (e[len(e)//2], t[len(t)//2], len(e)))
PY
echo "launch cost after $(( $(date +%s)-t0 )) s"
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
for r in 1 2 3; do
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    for cfg in held:gpu 1gc:gpu,cpu; do
      env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=${cfg#*:} HETERO_SPLIT=off \
        timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,8,16,64 --reps 9 | sed "s/^/round=$r $v-${cfg%%:*} /"
    done
  done
done > $OUT/bandwidth_old_new.txt 2>&1
python3 - $OUT/bandwidth_old_new.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[3], int(m[4]) >> 20, m[1])].append(float(m[5]))
for key in sorted(d):
    v = sorted(d[key]); print(key, 'median ms %.3f' % v[len(v)//2])
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old,new \
SLOT_COST_EXTRA="old=XDG_CACHE_HOME=/tmp/cache-old $OLD;new=XDG_CACHE_HOME=/tmp/cache-new" \
  timeout 120 etc/gpu-slot-cost.sh gemm,2mm,3mm,atax,bicg,gesummv,mvt,syrk,syr2k,doitgen 2 LARGE 2>&1 | tail -13
cp $OUT/slot_cost.txt $OUT/slot_cost_large_1gc_total.txt
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old,new \
SLOT_COST_EXTRA="old=XDG_CACHE_HOME=/tmp/cache-old $OLD;new=XDG_CACHE_HOME=/tmp/cache-new" \
  timeout 120 etc/gpu-slot-cost.sh adi,jacobi-1d,jacobi-2d,fdtd-2d,lu,convolution-3d 3 STANDARD 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_standard_launch_bound.txt
echo "polybench after $(( $(date +%s)-t0 )) s"
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:")
left=$(( 580 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $t -j8 --timeout 120 -R 'host_copy|icd.two-slots$|icd.one-slot|observability|parallel|engine.completion|unified.forced' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
