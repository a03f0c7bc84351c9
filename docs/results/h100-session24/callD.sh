#!/usr/bin/env bash
# Session 24 call D (one H100): 8771dec (call C's build, whose plans grew to the CPU's limit and
# then lost in a slower run, plus: 80 % of the balance, a slower CPU speed believed at once, a
# smaller re-plan tried at once after a loss) against prev (main 0b958be). syr2k STANDARD, 6
# interleaved rounds: native, a static split at 0.05, Hetero's default (each build with its own
# cache directory, so each round starts from what the earlier ones learned; new's history debug
# lines kept). Then the split and unit tests on NVIDIA + PoCL (without icd.three-slots-split,
# which aborts in PoCL 5.0 since session 13).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero /tmp/xdg-*
run() {  # build, then env assignments and the program's arguments
  local b=$1; shift
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@" --platform Hetero --device all --no-check
}
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
{
for round in 1 2 3 4 5 6; do
  echo "round $round native $(env -u OCL_ICD_VENDORS $p --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  for cfg in 0.05 default; do
    for b in prev new; do
      dir=/tmp/hetero-$b
      if [ $cfg = default ]; then out=$(run $dir HETERO_LOG=debug XDG_CACHE_HOME=/tmp/xdg-$b $p 2>&1); else out=$(run $dir HETERO_LOG=info HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|history 6|GPU runs" | grep -v "whole [0-9.]* ms$" | sed "s/^/  [$round $b $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round $b $cfg $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\) in [0-9]+ chunks|[0-9]+ bytes moved, [0-9.]+ ms' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; cut -c1-200 $OUT/syr2k.txt
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" -E "icd.three-slots-split" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head -20
