#!/usr/bin/env bash
# Session 23 call D (one H100): the static split's CPU share as one chunk, the CPU side's capture
# and diff of written objects on several threads. syr2k STANDARD (the one program whose real
# ideal pays), prev (main 6b8fc62) against new, interleaved, 3 rounds: native, static shares
# 0.05-0.07, and every launch split adaptively (HETERO_SPLIT=always); a trace of new at 0.06.
# Then the split tests and the new unit test on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero
export HETERO_HISTORY_CACHE=off  # no run learns from another
run() {  # build, then env assignments and the program's arguments
  local b=$1; shift
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_LOG=info "$@" --platform Hetero --device all --no-check
}
p="$new/bench/polybench-syr2k --size STANDARD --repeat 3"
{
for round in 1 2 3; do
  echo "round $round native $(env -u OCL_ICD_VENDORS $p --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  for cfg in 0.05 0.06 0.07 always; do
    for b in prev new; do
      dir=/tmp/hetero-$b
      if [ $cfg = always ]; then out=$(run $dir HETERO_SPLIT=always $p 2>&1); else out=$(run $dir HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "round $round $b $cfg $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\) in [0-9]+ chunks|[0-9]+ bytes moved, [0-9.]+ ms' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k-static.txt 2>&1
echo "measured after $((SECONDS - t0)) s"; cat $OUT/syr2k-static.txt
HETERO_TRACE=$OUT/syr2k-new-0.06.json run $new HETERO_CPU_SHARE=0.06 $p > $OUT/syr2k-new-0.06.log 2>&1; gzip $OUT/*.json
unset HETERO_HISTORY_CACHE
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head -20
