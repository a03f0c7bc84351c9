#!/usr/bin/env bash
# Session 43 call C (GPU machine, an H100 this session): the payback rule at LARGE, where a split
# gains milliseconds a launch (syr2k LARGE: 6-10 % on an H100, issue 16): the rule as revised after
# call A (the first split gains too, beyond its extra) against a3be212 (base, .base). syrk and syr2k
# LARGE, five processes in a row per build on a fresh cache directory of its own, --repeat 2, and
# native.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
for prog in syr2k syrk; do
  echo "$prog native: $($b/bench/polybench-$prog --size LARGE --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    c=/tmp/cache-c-$prog-$n; rm -rf $c; mkdir -p $c/pocl
    for proc in 1 2 3 4 5; do
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
            $d/bench/polybench-$prog --size LARGE --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$prog $n process $proc: $(echo "$out" | runs) $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+ ') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\)' | tr '\n' ' ')"
    done
    grep -h "^kernel" $c/hetero/split-history-*.txt 2>/dev/null | awk '{print "    history:", $2, "launches", $3, $NF}'
  done
  echo "$prog native: $($b/bench/polybench-$prog --size LARGE --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
done 2>&1 | tee $OUT/seq.txt
echo "after $((SECONDS - t0)) s"
