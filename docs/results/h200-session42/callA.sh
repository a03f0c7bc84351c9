#!/usr/bin/env bash
# Session 42 call A (one H200): main with kernel lanes (devices/kernel_lanes.hpp) against 55126e3
# (base, .base). (1) The tests the launch and split paths touch, on NVIDIA + PoCL (every test with
# HETERO_TEST_LANE_CHECK=1); (2) lanes_race.cpp over three PoCL 5.0 slots, every launch split N-way
# (what icd.nway-cpu-split runs), base and new, five processes each, and once over NVIDIA + PoCL;
# (3) what lanes cost a split: syr2k and gesummv at STANDARD, static split at 10 %, base and new
# interleaved, five processes each (kernel time of runs 2-3).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 240 ctest --test-dir $b -j4 -R "^engine\.auto-discrete$|^host_copy\.|^icd\.(two-slots|two-slots-piped|one-slot-discrete|split-1|split-2|nway-own)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
h() { local d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
g++ -O1 -std=c++17 docs/results/h200-session42/lanes_race.cpp -o /tmp/lanes_race -lOpenCL -lpthread || exit 1
pocl3="HETERO_DEVICES=pocl:0,pocl:0,pocl:0 HETERO_MEMORY=discrete HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_CHAOS=6 HETERO_GPU_SLOTS=0,1 HETERO_SLOT_CONTEXTS=own"
for i in 1 2 3 4 5; do
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    h $d $pocl3 HETERO_TEST_LANE_CHECK=1 timeout 120 /tmp/lanes_race 6 100 > /tmp/race.out 2>&1
    echo "pocl3 $n run$i rc=$? $(grep -E "bad=|Assertion|LANE_CHECK" /tmp/race.out | head -2 | tr '\n' ' ')"
  done
done > $OUT/race.txt 2>&1
cat $OUT/race.txt
for d in $base $b; do
  n=$(basename $d | sed 's/hetero-//')
  echo "nvidia+pocl $n $(h $d HETERO_DEVICES=nvidia:0,pocl:0 HETERO_SPLIT=always HETERO_TEST_LANE_CHECK=1 timeout 120 /tmp/lanes_race 6 100 2>&1 | tail -2 | tr '\n' ' ')"
done
echo "race after $((SECONDS - t0)) s"
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
for round in 1 2 3 4 5; do
  for prog in syr2k gesummv; do
    p="bench/polybench-$prog --size STANDARD --repeat 3 --no-check --each-run"
    echo "$prog native $($b/$p --platform NVIDIA --device gpu 2>&1 | runs)"
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//')
      echo "$prog static10-$n $(h $d HETERO_SPLIT=always HETERO_CPU_SHARE=0.1 HETERO_SPLIT_BUILD=eager timeout 60 $b/$p --platform Hetero --device all 2>&1 | runs)"
    done
  done
done > $OUT/split.txt 2>&1
python3 - $OUT/split.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 5: d[(w[0], w[1])].append([float(x) for x in w[2:5]])
for (prog, cfg), rows in d.items():
    print(prog.ljust(10), cfg.ljust(14), "runs 1/2/3 median ms:", " ".join("%.3f" % st.median(c) for c in zip(*rows)), " n=%d" % len(rows))
PY
echo "after $((SECONDS - t0)) s"
