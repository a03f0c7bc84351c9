#!/usr/bin/env bash
# Session 19 call B (one H100): where a launch's time goes (a scratch clock probe in the launch path),
# main (3e7534b, "M") against main with the launch hot-path branch merged again ("W") and the branch
# base (84977ac, "B"); whether session 18's transfers (pieces from several threads, parallel copies)
# slow adi and lu (knobs of the scratch tree: HETERO_X_NOPIECES, HETERO_X_SERIAL); whether pinning
# every run to the same cores (taskset) takes the noise between processes away.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
(cmake -S .scratch/trees/probe -B /tmp/b-M -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-M -j10 2>&1 | grep -E "error:") &
(cmake -S .scratch/trees/probewt -B /tmp/b-W -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-W -j4 --target HeteroOpenCL 2>&1 | grep -E "error:") &
(cmake -S .scratch/trees/84977ac -B /tmp/b-B -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-B -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"; ls /tmp/b-*/icd/libHeteroOpenCL.so.1
LC=/tmp/b-M/bench/launch_cost
for r in 1 2 3 4 5; do
  timeout 60 $LC --platform NVIDIA --launches 20000 --patterns plain,event | sed "s/^/round=$r native /"
  for v in M W B; do
    for cfg in held:gpu 1gc:gpu,cpu; do
      env OCL_ICD_FILENAMES=/tmp/b-$v/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=${cfg#*:} HETERO_X_CLOCK=1 \
        timeout 60 $LC --platform Hetero --launches 20000 --patterns plain,event 2>&1 | sed "s/^/round=$r $v-${cfg%%:*} /"
    done
  done
done > $OUT/launch_cost.txt 2>&1
python3 - $OUT/launch_cost.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list); pr = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', l)
    if m: d[(m[2], m[1])].append(float(m[3]))
    m = re.match(r'round=\d+ (\S+) launch_probe .* entry_to_args_us=(\S+) args_us=(\S+) backend_enqueue_us=(\S+) after_us=(\S+) total_us=(\S+)', l)
    if m: pr[m[1]].append(tuple(float(x) for x in m.groups()[1:]))
for key in sorted(d):
    e = sorted(d[key]); print(key, 'enqueue us median %.2f min %.2f (%d)' % (e[len(e)//2], e[0], len(e)))
for key in sorted(pr):
    cols = list(zip(*pr[key])); med = [sorted(c)[len(c)//2] for c in cols]
    print('probe', key, 'entry->args %.3f args %.3f backend %.3f after %.3f total %.3f us (medians)' % tuple(med))
PY
echo "launch cost after $(( $(date +%s)-t0 )) s"
for v in M W; do
  env OCL_ICD_FILENAMES=/tmp/b-$v/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_X_CLOCK=1 \
    /tmp/b-M/bench/polybench-adi --platform Hetero --device gpu --no-check --repeat 5 --size STANDARD 2>&1 | grep -E "launch_probe|kernel_ms" | sed "s/^/adi $v /"
done
rm -rf ~/.cache/hetero /tmp/cache-*
M="OCL_ICD_FILENAMES=/tmp/b-M/icd/libHeteroOpenCL.so.1"
SLOT_COST_BUILD=/tmp/b-M SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,M,M-nopieces,M-serial,W,B \
SLOT_COST_EXTRA="M=XDG_CACHE_HOME=/tmp/cache-M;M-nopieces=XDG_CACHE_HOME=/tmp/cache-Mn HETERO_X_NOPIECES=1;M-serial=XDG_CACHE_HOME=/tmp/cache-Ms HETERO_X_NOPIECES=1 HETERO_X_SERIAL=1;W=XDG_CACHE_HOME=/tmp/cache-W OCL_ICD_FILENAMES=/tmp/b-W/icd/libHeteroOpenCL.so.1;B=XDG_CACHE_HOME=/tmp/cache-B OCL_ICD_FILENAMES=/tmp/b-B/icd/libHeteroOpenCL.so.1" \
  timeout 200 etc/gpu-slot-cost.sh adi,lu 4 STANDARD 2>&1 | tail -5
cp $OUT/slot_cost.txt $OUT/slot_cost_unpinned.txt
echo "unpinned after $(( $(date +%s)-t0 )) s"
SLOT_COST_PREFIX="taskset -c 0-7" SLOT_COST_BUILD=/tmp/b-M SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,M,W \
SLOT_COST_EXTRA="M=XDG_CACHE_HOME=/tmp/cache-M;W=XDG_CACHE_HOME=/tmp/cache-W OCL_ICD_FILENAMES=/tmp/b-W/icd/libHeteroOpenCL.so.1" \
  timeout 150 etc/gpu-slot-cost.sh adi,lu 4 STANDARD 2>&1 | tail -5
cp $OUT/slot_cost.txt $OUT/slot_cost_pinned.txt
echo "done after $(( $(date +%s)-t0 )) s"
