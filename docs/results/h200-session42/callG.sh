#!/usr/bin/env bash
# Session 42 call G (one H200): call F's runner found syrk's and syr2k's second default process at
# 159 and 122 ms (session 41's call E, before the history saved at exit: 4.8 and 9.3) and syrk's
# third at 5.83 ms against 4.78 native. Whether the lanes (this session) or the learning (session
# 41's 2ba003a) makes them: syrk and syr2k STANDARD, four processes in a row per build, each build
# with a fresh cache directory of its own (Hetero's history and kept binaries, XDG_CACHE_HOME; PoCL's
# compile cache, POCL_CACHE_DIR), base 55126e3 and new, HETERO_LOG=info (lane builds, splits).
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
    c=/tmp/cache-$prog-$n; rm -rf $c; mkdir -p $c/pocl
    for proc in 1 2 3 4; do
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
            $b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$prog $n process $proc: $(echo "$out" | grep -E '^polybench run=' | sed -E 's/.*run=([0-9]+) kernel_ms=([0-9.]+).*/run\1 \2/' | tr '\n' ' ')"
      echo "$out" | grep -E "lane|split launch|split of|runs whole|probe|timed" | sed 's/^/    /' | head -12
    done
  done
done > $OUT/seq.txt 2>&1
cat $OUT/seq.txt | grep -E "process" 
echo "after $((SECONDS - t0)) s"
