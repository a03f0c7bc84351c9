#!/usr/bin/env bash
# Session 19 call C (one H100): call B found that the kept threads of parallel copies slow adi's launches
# (serial copies: 1.21x native, kept threads 1.56x). Which way of copying in parallel leaves the launches
# alone: threads made per copy and joined (HETERO_X_SPAWN), kept threads that end after 20 ms idle
# (HETERO_X_IDLE_MS), or serial copies; and what each costs the transfers. Tree: main + the launch
# hot-path branch merged again + the scratch knobs and clock probe.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
cmake -S .scratch/trees/probewt -B /tmp/b-W -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-W -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
L=/tmp/b-W/icd/libHeteroOpenCL.so.1
for v in "W=" "W-serial=HETERO_X_SERIAL=1 HETERO_X_NOPIECES=1" "W-spawn=HETERO_X_SPAWN=1" "W-idle=HETERO_X_IDLE_MS=20"; do
  env OCL_ICD_FILENAMES=$L HETERO_CONFIG=/nonexistent HETERO_X_CLOCK=1 ${v#*=} \
    /tmp/b-W/bench/polybench-adi --platform Hetero --device gpu --no-check --repeat 5 --size STANDARD 2>&1 | grep -E "launch_probe|kernel_ms" | sed "s/^/adi ${v%%=*} /"
done
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=/tmp/b-W SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,W,W-serial,W-spawn,W-idle \
SLOT_COST_EXTRA="W=XDG_CACHE_HOME=/tmp/cache-W;W-serial=XDG_CACHE_HOME=/tmp/cache-Ws HETERO_X_NOPIECES=1 HETERO_X_SERIAL=1;W-spawn=XDG_CACHE_HOME=/tmp/cache-Wp HETERO_X_SPAWN=1;W-idle=XDG_CACHE_HOME=/tmp/cache-Wi HETERO_X_IDLE_MS=20" \
  timeout 240 etc/gpu-slot-cost.sh adi,convolution-3d,jacobi-1d 4 STANDARD 2>&1 | tail -6
cp $OUT/slot_cost.txt $OUT/slot_cost_standard.txt
echo "slot cost after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for v in "W=" "W-serial=HETERO_X_SERIAL=1 HETERO_X_NOPIECES=1" "W-spawn=HETERO_X_SPAWN=1" "W-idle=HETERO_X_IDLE_MS=20"; do
    env OCL_ICD_FILENAMES=$L HETERO_CONFIG=/nonexistent HETERO_SPLIT=off ${v#*=} \
      timeout 60 /tmp/b-W/bench/bandwidth --platform Hetero --modes ordinary --sizes 4,8,16,64 --reps 9 | sed "s/^/round=$r ${v%%=*} /"
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
