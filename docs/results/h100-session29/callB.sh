#!/usr/bin/env bash
# Session 29 call B (one GPU): where a profiled launch with an event loses 3 us against native
# (call A: 17.0 against 14.0). (1) Hetero's backend calls and the time inside them
# (HETERO_COUNT_BACKEND_CALLS=on), held to the GPU; (2) launch_cost, native against Hetero held and
# GPU + CPU, with commands that have events flushed at once (as main) and every 16th
# (HETERO_TEST_FLUSH_EVENTS=off, a scratch knob), 5 interleaved rounds; native's own flush cost.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
lc="$new/bench/launch_cost --launches 4096 --rounds 5"
h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $lc --platform Hetero --patterns profiling+event > $OUT/counts.txt 2>&1
grep -E "launch_cost|NDRange|Flush|Event|SetKernelArg" $OUT/counts.txt | cut -c1-160
for r in 1 2 3 4 5; do
  echo "== round $r native"; $lc --platform NVIDIA --patterns plain,flush,event,profiling,profiling+event
  for f in on off; do
    echo "== round $r held flush_events=$f"; h HETERO_DEVICES=gpu HETERO_TEST_FLUSH_EVENTS=$f $lc --platform Hetero --patterns plain,event,profiling,profiling+event
    echo "== round $r gpu+cpu flush_events=$f"; h HETERO_TEST_FLUSH_EVENTS=$f $lc --platform Hetero --patterns plain,event,profiling,profiling+event
  done
done > $OUT/rounds.txt 2>&1
echo "rounds after $((SECONDS - t0)) s"
python3 - $OUT/rounds.txt <<'PY'
import re, sys, statistics, collections
cfg = None; d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"== round \d+ (.*)", line)
    if m: cfg = m.group(1); continue
    m = re.match(r'launch_cost platform="[^"]*" pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m: d[(cfg, m.group(1))].append((float(m.group(2)), float(m.group(3))))
for (c, p), v in sorted(d.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    print(f"{p:18s} {c:26s} enqueue {statistics.median(x[0] for x in v):6.2f}  total {statistics.median(x[1] for x in v):6.2f}  (total {min(x[1] for x in v):.2f}-{max(x[1] for x in v):.2f})")
PY
