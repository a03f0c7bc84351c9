#!/usr/bin/env bash
# Session 29 call F (one GPU): does the way a wait is made cost a short kernel its time? A ~0.3 ms
# (and ~0.05 ms) one-work-item kernel, then clFinish, a marker and clWaitForEvents, the kernel's
# event and clWaitForEvents, ... (docs/results/h100-session29/scratch/finish_latency.c), natively and through Hetero held to
# the GPU and on GPU + CPU, 3 interleaved rounds; gesummv LARGE's backend calls untraced.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
gcc -O2 -Iplatform/include -Ibench/tools -o /tmp/fl docs/results/h100-session29/scratch/finish_latency.c -lOpenCL
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
for r in 1 2 3; do
  for ms in 0.3 0.05; do
    echo "== round $r ms=$ms native"; /tmp/fl NVIDIA $ms 200
    echo "== round $r ms=$ms held"; h HETERO_DEVICES=gpu /tmp/fl Hetero $ms 200
    echo "== round $r ms=$ms gpu+cpu"; h /tmp/fl Hetero $ms 200
  done
done > $OUT/finish_latency.txt 2>&1
python3 - $OUT/finish_latency.txt <<'PY'
import re, sys, statistics, collections
d = collections.defaultdict(list); cfg = None
for line in open(sys.argv[1]):
    m = re.match(r"== round \d+ (.*)", line)
    if m: cfg = m.group(1); continue
    m = re.search(r'mode="([^"]*)" median_us=([0-9.]+)', line)
    if m: d[(cfg, m.group(1))].append(float(m.group(2)))
for (c, mode), v in sorted(d.items()):
    print(f"{c:22s} {mode:32s} {statistics.median(v):8.1f} us  ({min(v):.1f}-{max(v):.1f})")
PY
p="$new/bench/polybench-gesummv --size LARGE --repeat 6 --no-check --platform Hetero --device all"
h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $p 2>&1 | grep -vE "cl(Get|Create|Build|Release)" | cut -c1-160
echo "after $((SECONDS - t0)) s"
