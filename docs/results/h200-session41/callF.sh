#!/usr/bin/env bash
# Session 41 call F (one H200), main 36d9455: the runner's situation in call E (auto mode's history
# kept between processes, each process timing its phase twice): gemm and convolution-2d at STANDARD
# in default mode, three processes in a row sharing a fresh history directory, every run's times
# (--each-run) and the history's debug lines; held to the GPU beside them.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
for prog in gemm convolution-2d; do
  rm -rf /tmp/xdg-$prog
  for proc in 1 2 3; do
    echo "== $prog process $proc held: $(h HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu $b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1 | grep '^polybench run' | tr '\n' ' ')"
    echo "== $prog process $proc default"
    h XDG_CACHE_HOME=/tmp/xdg-$prog HETERO_LOG=debug $b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1 | grep -E "^polybench run|history|split|probe" | cut -c1-200
  done
  ls -la /tmp/xdg-$prog/hetero 2>&1 | tail -3; head -c 600 /tmp/xdg-$prog/hetero/split-history-*.txt
done
echo "after $((SECONDS - t0)) s"
