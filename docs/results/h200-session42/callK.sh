#!/usr/bin/env bash
# Session 42 call K (one H200): a process that has not loaded the split variants loads them for a
# split that pays only where the launches it has left earn the build back (new) against 5c8685b
# (base). syrk and syr2k STANDARD, five processes in a row per build on a fresh cache directory of
# its own, --repeat 2 (the bench runner's inner repeat), HETERO_LOG=info.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
for prog in syrk syr2k; do
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    c=/tmp/cache-k-$prog-$n; rm -rf $c; mkdir -p $c/pocl
    for proc in 1 2 3 4 5; do
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
            $b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$prog $n process $proc: $(echo "$out" | grep -E '^polybench run=' | sed -E 's/.*run=([0-9]+) kernel_ms=([0-9.]+).*/run\1 \2/' | tr '\n' ' ') $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+')"
    done
    grep -h perprocess $c/hetero/split-history-*.txt 2>/dev/null | cut -c1-40,200- | head -2 | sed 's/^/    history: /'
  done
done 2>&1 | tee $OUT/seq.txt
echo "after $((SECONDS - t0)) s"
