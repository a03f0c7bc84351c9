#!/usr/bin/env bash
# Session 19 call D (one H100): is it the enqueuing thread going to sleep while other threads copy (and
# waking up on another core) that slows adi's launches after parallel copies? HETERO_X_SPINWAIT: the
# caller of a parallel copy spins until its batch is done instead of sleeping; the clock probe also
# counts the cores the launches ran on.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
cmake -S .scratch/trees/probewt -B /tmp/b-W -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-W -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
L=/tmp/b-W/icd/libHeteroOpenCL.so.1
for r in 1 2; do
for v in "W=" "W-serial=HETERO_X_SERIAL=1 HETERO_X_NOPIECES=1" "W-spin=HETERO_X_SPINWAIT=1"; do
  env OCL_ICD_FILENAMES=$L HETERO_CONFIG=/nonexistent HETERO_X_CLOCK=1 ${v#*=} \
    /tmp/b-W/bench/polybench-adi --platform Hetero --device gpu --no-check --repeat 5 --size STANDARD 2>&1 | grep -E "launch_cpus|kernel_ms" | sed "s/^/adi ${v%%=*} /; s/polybench benchmark.*kernel_ms/kernel_ms/"
done
done
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=/tmp/b-W SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,W,W-serial,W-spin \
SLOT_COST_EXTRA="W=XDG_CACHE_HOME=/tmp/cache-W;W-serial=XDG_CACHE_HOME=/tmp/cache-Ws HETERO_X_NOPIECES=1 HETERO_X_SERIAL=1;W-spin=XDG_CACHE_HOME=/tmp/cache-Wp HETERO_X_SPINWAIT=1" \
  timeout 240 etc/gpu-slot-cost.sh adi,convolution-3d,lu 5 STANDARD 2>&1 | tail -6
cp $OUT/slot_cost.txt $OUT/slot_cost_standard.txt
echo "slot cost after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for v in "W=" "W-spin=HETERO_X_SPINWAIT=1"; do
    env OCL_ICD_FILENAMES=$L HETERO_CONFIG=/nonexistent HETERO_SPLIT=off ${v#*=} \
      timeout 60 /tmp/b-W/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,16,64 --reps 9 | sed "s/^/round=$r ${v%%=*} /"
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
echo "done after $(( $(date +%s)-t0 )) s"
