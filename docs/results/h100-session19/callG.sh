#!/usr/bin/env bash
# Session 19 call G (one H100): main after the re-merged launch hot path and the single-thread sends
# ("new") against 3e7534b ("old", .base, session 18's end): launch cost per pattern, all 21 PolyBench
# programs at STANDARD (native, new held to the GPU, new default, old default), transfers.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j4 --target HeteroOpenCL 2>&1 | grep -E "error:") &
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
    print(key, 'enqueue median %.2f min %.2f total median %.2f us (%d)' % (e[len(e)//2], e[0], t[len(t)//2], len(e)))
PY
echo "launch cost after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
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
    v = sorted(d[key]); print(key, 'median ms %.3f' % v[len(v)//2])
PY
echo "bandwidth after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
ALL=2mm,3mm,atax,bicg,correlation,covariance,doitgen,gemm,gemver,gesummv,gramschmidt,lu,mvt,syr2k,syrk,adi,convolution-2d,convolution-3d,fdtd-2d,jacobi-1d,jacobi-2d
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,held,new,old \
SLOT_COST_EXTRA="held=XDG_CACHE_HOME=/tmp/cache-held HETERO_DEVICES=gpu;new=XDG_CACHE_HOME=/tmp/cache-new;old=XDG_CACHE_HOME=/tmp/cache-old OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1" \
  timeout $(( 585 - ($(date +%s)-t0) )) etc/gpu-slot-cost.sh $ALL 2 STANDARD 2>&1 | tail -24
cp $OUT/slot_cost.txt $OUT/slot_cost_standard_21.txt
echo "done after $(( $(date +%s)-t0 )) s"
