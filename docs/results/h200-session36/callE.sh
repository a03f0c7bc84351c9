#!/usr/bin/env bash
# Session 36 call E (one H200): call D's launch_cost comparison again with 30 interleaved processes
# per configuration (NVIDIA's launch takes about 4.0 or 5.5 us for a whole process, so a few
# processes do not resolve tenths of a microsecond): this tree against a6f598c (.base), 1,024 and
# 4 work-groups per launch.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
for g in 1024 4; do
  timeout 150 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 30 --patterns plain,event --groups $g > $OUT/launch_cost_$g.md 2>>$OUT/launch_cost.err
  cat $OUT/launch_cost_$g.md; echo "launch_cost $g after $((SECONDS - t0)) s"
done
