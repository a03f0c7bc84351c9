#!/usr/bin/env bash
# Session 43 call B (GPU machine, an H100 this session): the launch-heavy programs of issue 15's
# table, whose medians of three processes swung in call A (native convolution-3d 1.08-1.69 ms from
# process to process): convolution-3d and jacobi-1d STANDARD, ten rounds of native GPU, held to the
# GPU and default, interleaved, kernel time of each run (--repeat 2); launch_cost.py (native, held,
# default); where perf exists, held convolution-3d's profile.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-b "$@"; }
mkdir -p /tmp/xdg-b
for round in $(seq 1 10); do
  for prog in convolution-3d jacobi-1d; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run"
    echo "$prog native $($p --platform NVIDIA --device gpu 2>&1 | runs)"
    echo "$prog held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "$prog default $(h $p --platform Hetero --device all 2>&1 | runs)"
  done
done > $OUT/launch-heavy.txt 2>&1
echo "launch-heavy after $((SECONDS - t0)) s"
python3 - $OUT/launch-heavy.txt <<'PY'
import sys, statistics, collections
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 3: t[(f[0], f[1])].append(min(map(float, f[2:])))
for (prog, cfg), v in sorted(t.items()):
    print("%-15s %-8s median %.3f ms  min %.3f  max %.3f  (fastest of 2 runs, %d processes)" % (prog, cfg, statistics.median(v), min(v), max(v), len(v)))
PY
timeout 150 python3 bench/tools/launch_cost.py --build $b --rounds 5 > $OUT/launch_cost.txt 2>&1
echo "launch_cost rc=$? after $((SECONDS - t0)) s"; tail -12 $OUT/launch_cost.txt
if command -v perf >/dev/null; then
  h HETERO_DEVICES=gpu perf record -o /tmp/perf.data -F 4999 -g -- $b/bench/polybench-convolution-3d --size STANDARD --repeat 30 --no-check --platform Hetero --device all > /dev/null 2>&1
  perf report -i /tmp/perf.data --no-children --sort dso,symbol --stdio 2>/dev/null | grep -v "^$" | grep -E "^ +[0-9]" | head -60 > $OUT/perf-held.txt
  echo "perf after $((SECONDS - t0)) s"; head -25 $OUT/perf-held.txt
else
  echo "no perf"
fi
