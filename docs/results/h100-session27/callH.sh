#!/usr/bin/env bash
# Session 27 call H (one H100): the final quiet waits (asked by spinning 50 us, then between 50 us
# sleeps; held from a split's submission until its CPU part is done) against prev (main 53eb424).
# split_cost (what a split whose CPU does nothing costs over the launch whole), syr2k STANDARD
# (static 0.05 and the default, the CPU's speed beside the GPU from the debug log; 4 interleaved
# rounds: prev, new, new with HETERO_QUIET_WAITS=off), then the split and unit tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
python3 bench/tools/split_cost.py --build $new,$prev --rounds 3 > $OUT/split_cost.txt 2>&1
echo "split_cost after $((SECONDS - t0)) s"; tail -20 $OUT/split_cost.txt
rm -rf ~/.cache/hetero /tmp/xdg-*
run() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for cfg in 0.05 default; do
    for c in prev new off; do
      b=$new; [ $c = prev ] && b=$prev; q=on; [ $c = off ] && q=off
      if [ $cfg = default ]; then out=$(run $b HETERO_LOG=debug HETERO_QUIET_WAITS=$q XDG_CACHE_HOME=/tmp/xdg-$c $p 2>&1)
      else out=$(run $b HETERO_LOG=debug HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|CPU .* us per 1000" | sed "s/^/  [$round $c $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round $c $cfg $(echo "$out" | ms) cpu_us_per_1000: $(echo "$out" | grep -oE 'CPU [0-9.]+ us per 1000' | grep -oE '[0-9.]+ ' | tr -d '\n') launches: $(echo "$out" | grep -oE 'split syr2k.*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" -E "corpus|icd.three-slots-split" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
