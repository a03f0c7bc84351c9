#!/usr/bin/env bash
# Session 19 call E (one H100): after whole writes in pieces (stagedWrite) adi, convolution-3d and lu
# launch slower (calls B-D; serial copies without pieces do not). Is it the backend being called from
# the copying threads? HETERO_X_CALLER_SENDS: the threads only copy, the enqueuing thread sends every
# piece in order as it is in. HETERO_X_NOPIECES: one transfer after a parallel copy.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
cmake -S .scratch/trees/probewt -B /tmp/b-W -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-W -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
L=/tmp/b-W/icd/libHeteroOpenCL.so.1
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=/tmp/b-W SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,W,W-serial,W-nopieces,W-callersends \
SLOT_COST_EXTRA="W=XDG_CACHE_HOME=/tmp/cache-W;W-serial=XDG_CACHE_HOME=/tmp/cache-Ws HETERO_X_NOPIECES=1 HETERO_X_SERIAL=1;W-nopieces=XDG_CACHE_HOME=/tmp/cache-Wn HETERO_X_NOPIECES=1;W-callersends=XDG_CACHE_HOME=/tmp/cache-Wc HETERO_X_CALLER_SENDS=1" \
  timeout 300 etc/gpu-slot-cost.sh adi,convolution-3d,lu 5 STANDARD 2>&1 | tail -6
cp $OUT/slot_cost.txt $OUT/slot_cost_standard.txt
echo "slot cost after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for v in "W=" "W-callersends=HETERO_X_CALLER_SENDS=1" "W-nopieces=HETERO_X_NOPIECES=1"; do
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
echo "done after $(( $(date +%s)-t0 )) s"
