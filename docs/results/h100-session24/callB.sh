#!/usr/bin/env bash
# Session 24 call B (one H100): auto mode's plan, measured from a fresh start. syr2k STANDARD,
# new only (call A compared it with prev), 5 processes in a row against one fresh cache directory
# with the history's debug lines (what it measured, what it planned), native between them. Then
# the bench runner over all 21 programs at STANDARD, native GPU against Hetero's default, 3
# processes each timing its phase 4 times (the history kept between them, as for a user's
# successive runs: the first process learns). Then the split
# engine's long tests that call A's ctest did not reach.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero /tmp/xdg-*
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
{
for round in 1 2 3 4 5; do
  echo "round $round native $(env -u OCL_ICD_VENDORS $p --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  out=$(env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors XDG_CACHE_HOME=/tmp/xdg-new HETERO_LOG=debug \
        $p --platform Hetero --device all --no-check 2>&1)
  echo "round $round default $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+')"
  echo "$out" | grep -E "split syr2k|history 6|GPU runs" | grep -v "whole [0-9.]* ms$" | sed "s/^/  /"
done
} > $OUT/syr2k-default.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; grep -E "^round" $OUT/syr2k-default.txt
rm -rf ~/.cache/hetero
timeout 400 python3 bench/run --build $new --sizes STANDARD --benchmarks all --repeat 3 --inner-repeat 4 --configs native-gpu,hetero \
  --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/standard.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"; tail -30 $OUT/standard.log
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "engine.corpus-12|engine.corpus-failing|engine.completion|engine.auto" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head -20
