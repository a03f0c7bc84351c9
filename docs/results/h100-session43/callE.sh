#!/usr/bin/env bash
# Session 43 call E (GPU machine, an H100 this session): call D's profiling-queue extra (about 3 us
# a launch, with or without the submit thread) against how often Hetero flushes launches without
# events (HETERO_TEST_FLUSH_EVERY: 16 by default, 0 never, 1 every launch), submit thread off, five
# rounds interleaved with native.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off "$@"; }
lc="$b/bench/launch_cost --launches 4096 --rounds 3 --patterns plain,profiling"
for round in 1 2 3 4 5; do
  $lc --platform NVIDIA 2>&1 | sed 's/^/native /'
  for every in 16 0 1; do h HETERO_TEST_FLUSH_EVERY=$every $lc --platform Hetero 2>&1 | sed "s/^/flush$every /"; done
done > $OUT/flush.txt 2>&1
python3 - $OUT/flush.txt <<'PY'
import sys, re, statistics, collections
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m: t[(m.group(2), m.group(1))].append(float(m.group(4)))
for (pattern, config), tot in sorted(t.items()):
    print("%-10s %-8s total median %.2f us (%d)" % (pattern, config, statistics.median(tot), len(tot)))
PY
