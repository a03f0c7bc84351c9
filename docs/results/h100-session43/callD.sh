#!/usr/bin/env bash
# Session 43 call D (GPU machine, an H100 this session): why a launch on a profiling queue costs
# Hetero 1.7-2.4 us more than natively while a plain one costs nothing more (call B).
# bench/launch_cost, patterns plain and profiling, five rounds interleaved: native NVIDIA, Hetero
# held to the GPU with the submit thread (HETERO_SUBMIT_THREAD=auto, the default) and without it
# (off).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu "$@"; }
lc="$b/bench/launch_cost --launches 4096 --rounds 3 --patterns plain,profiling,profiling+event"
for round in 1 2 3 4 5; do
  $lc --platform NVIDIA 2>&1 | sed 's/^/native /'
  h HETERO_SUBMIT_THREAD=auto $lc --platform Hetero 2>&1 | sed 's/^/pipe /'
  h HETERO_SUBMIT_THREAD=off $lc --platform Hetero 2>&1 | sed 's/^/nopipe /'
done > $OUT/profiling.txt 2>&1
echo "after $((SECONDS - t0)) s"
python3 - $OUT/profiling.txt <<'PY'
import sys, re, statistics, collections
t = collections.defaultdict(lambda: ([], []))
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m:
        t[(m.group(2), m.group(1))][0].append(float(m.group(3))); t[(m.group(2), m.group(1))][1].append(float(m.group(4)))
for (pattern, config), (enq, tot) in sorted(t.items()):
    print("%-16s %-7s enqueue median %.2f us  total median %.2f us  (%d)" % (pattern, config, statistics.median(enq), statistics.median(tot), len(enq)))
PY
