#!/usr/bin/env bash
# Session 43 call A (GPU machine): the payback rule (a process splits a kernel only where the
# launches it is expected to have left gain back loading the variants and its first split) against
# a3be212 (base, .base). (1) syrk and syr2k STANDARD, six processes in a row per build on a fresh
# cache directory of its own, --repeat 2 and --repeat 3 (the bench runner's inner repeat is 2);
# (2) the tests the launch and split paths touch, on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for repeat in 2 3; do
  for prog in syrk syr2k; do
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//')
      c=/tmp/cache-a-$prog-$n-$repeat; rm -rf $c; mkdir -p $c/pocl
      for proc in 1 2 3 4 5 6; do
        out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
              XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
              $b/bench/polybench-$prog --size STANDARD --repeat $repeat --no-check --each-run --platform Hetero --device all 2>&1)
        echo "$prog repeat$repeat $n process $proc: $(echo "$out" | grep -E '^polybench run=' | sed -E 's/.*run=([0-9]+) kernel_ms=([0-9.]+).*/run\1 \2/' | tr '\n' ' ') $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+')"
      done
      grep -h "^kernel" $c/hetero/split-history-*.txt 2>/dev/null | awk '{print "    history:", $2, "launches", $3, $NF}'
    done
  done
  echo "native repeat$repeat: syrk $($b/bench/polybench-syrk --size STANDARD --repeat $repeat --no-check --each-run --platform NVIDIA --device gpu 2>&1 | grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' ') syr2k $($b/bench/polybench-syr2k --size STANDARD --repeat $repeat --no-check --each-run --platform NVIDIA --device gpu 2>&1 | grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' ')"
done 2>&1 | tee $OUT/seq.txt
echo "sequences after $((SECONDS - t0)) s"
timeout 240 ctest --test-dir $b -j4 -R "^engine\.auto-|^host_copy\.|^icd\.(two-slots|two-slots-piped|one-slot-discrete|split-1|split-2|nway-own)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
