#!/usr/bin/env bash
# Session 18 call G (one H100): transfers in pieces from 4 MiB (new = tree, 3a8a69c) against d0a190f
# (old, .base: from 16 MiB, 8 MiB pieces), interleaved; PolyBench LARGE total time, 1gc default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base
rm -rf $new $base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j6 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"; uptime
for r in 1 2 3; do
  timeout 60 $new/bench/bandwidth --platform NVIDIA --modes ordinary --sizes 4,8,16,64 --reps 9 | sed "s/^/round=$r native /"
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    for cfg in held:gpu 1gc:gpu,cpu; do
      env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=${cfg#*:} HETERO_SPLIT=off \
        timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,8,16,64 --reps 9 | sed "s/^/round=$r $v-${cfg%%:*} /"
    done
  done
done 2>&1 > $OUT/bandwidth_old_new.txt
python3 - $OUT/bandwidth_old_new.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[3], int(m[4]) >> 20, m[1])].append(float(m[5]))
for key in sorted(d):
    v = sorted(d[key]); print(key, 'median ms %.3f (%.1f GB/s)' % (v[len(v)//2], key[1] * 1.048576 / v[len(v)//2]))
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_METRIC=total_ms SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old,new \
SLOT_COST_EXTRA="old=XDG_CACHE_HOME=/tmp/cache-old $OLD;new=XDG_CACHE_HOME=/tmp/cache-new" \
  timeout 240 etc/gpu-slot-cost.sh gemm,2mm,3mm,atax,bicg,gesummv,mvt,syrk,syr2k,doitgen 2 LARGE 2>&1 | tail -13
cp $OUT/slot_cost.txt $OUT/slot_cost_large_1gc_total.txt
echo "done after $(( $(date +%s)-t0 )) s"
