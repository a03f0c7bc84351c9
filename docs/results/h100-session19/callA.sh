#!/usr/bin/env bash
# Session 19 call A (one H100): bisect the launch hot-path branch (wt-event): which commit slowed adi and lu
# (session 18 call H). main before the merge (5be1695, full build: programs and tools), the merge (0d38b9e),
# the branch base (84977ac) and the branch after 4 (9fd75f6), 6 (88f15f6) and 9 (3f85120) commits.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
C="5be1695 0d38b9e 84977ac 9fd75f6 88f15f6 3f85120"
(cmake -S .scratch/trees/5be1695 -B /tmp/b-5be1695 -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-5be1695 -j4 2>&1 | grep -E "error:") &
for c in 0d38b9e 84977ac 9fd75f6 88f15f6 3f85120; do
  (cmake -S .scratch/trees/$c -B /tmp/b-$c -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-$c -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
done
wait
echo "built after $(( $(date +%s)-t0 )) s"; ls /tmp/b-*/icd/libHeteroOpenCL.so.1
B=/tmp/b-5be1695
for r in 1 2 3; do
  timeout 60 $B/bench/launch_cost --platform NVIDIA --launches 20000 --patterns plain,event | sed "s/^/round=$r native /"
  for c in $C; do
    env OCL_ICD_FILENAMES=/tmp/b-$c/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu,cpu \
      timeout 60 $B/bench/launch_cost --platform Hetero --launches 20000 --patterns plain,event | sed "s/^/round=$r c$c /"
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
extra=""
for c in $C; do extra="$extra;c$c=XDG_CACHE_HOME=/tmp/cache-$c OCL_ICD_FILENAMES=/tmp/b-$c/icd/libHeteroOpenCL.so.1"; done
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$B SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,$(echo $C | sed 's/\([0-9a-f]*\)/c\1/g; s/ /,/g') \
SLOT_COST_EXTRA="${extra#;}" timeout 420 etc/gpu-slot-cost.sh adi,lu 3 STANDARD 2>&1 | tail -6
echo "done after $(( $(date +%s)-t0 )) s"
