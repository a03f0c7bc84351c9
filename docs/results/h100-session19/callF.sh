#!/usr/bin/env bash
# Session 19 call F (one H100): with the enqueuing thread sending the pieces (call E: adi 16.0 -> 13.3 ms,
# one transfer 10.9), is the rest the marker after the pieces (HETERO_X_NOMARKER: the last piece's event
# stands for the write, the queue being in order) or a flush per piece (HETERO_X_NOFLUSH)?
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
cmake -S .scratch/trees/probewt -B /tmp/b-W -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-W -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
L=/tmp/b-W/icd/libHeteroOpenCL.so.1
rm -rf ~/.cache/hetero /tmp/cache-*
CS="HETERO_X_CALLER_SENDS=1"
SLOT_COST_BUILD=/tmp/b-W SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,nopieces,cs,cs-nomarker,cs-noflush,cs-both \
SLOT_COST_EXTRA="nopieces=XDG_CACHE_HOME=/tmp/cache-1 HETERO_X_NOPIECES=1;cs=XDG_CACHE_HOME=/tmp/cache-2 $CS;cs-nomarker=XDG_CACHE_HOME=/tmp/cache-3 $CS HETERO_X_NOMARKER=1;cs-noflush=XDG_CACHE_HOME=/tmp/cache-4 $CS HETERO_X_NOFLUSH=1;cs-both=XDG_CACHE_HOME=/tmp/cache-5 $CS HETERO_X_NOFLUSH=1 HETERO_X_NOMARKER=1" \
  timeout 300 etc/gpu-slot-cost.sh adi,convolution-3d 5 STANDARD 2>&1 | tail -5
cp $OUT/slot_cost.txt $OUT/slot_cost_standard.txt
echo "slot cost after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for v in "cs=$CS" "cs-nomarker=$CS HETERO_X_NOMARKER=1" "cs-noflush=$CS HETERO_X_NOFLUSH=1" "cs-both=$CS HETERO_X_NOFLUSH=1 HETERO_X_NOMARKER=1"; do
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
    if key[0] == 'h2d': v = sorted(d[key]); print(key, 'median ms %.3f' % v[len(v)//2])
PY
cd $OUT && awk '{print $2,$3,$4}' slot_cost_standard.txt | sort | awk '{k=$1" "$2; a[k]=a[k]" "substr($3,11)} END{for(k in a) print k, a[k]}' | sort
echo "done after $(( $(date +%s)-t0 )) s"
