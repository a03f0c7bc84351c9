#!/usr/bin/env bash
# Session 24 call C (one H100): d3c36b6 (call B's build plus: the plan is tried until one is
# measured, and a static or planned share is sent whole from pinned copies) against prev (main
# 0b958be). syr2k STANDARD, 5 interleaved rounds: native; a static split at 0.05; Hetero's default,
# each build with its own cache directory, so each round's process starts from what the earlier
# ones learned (new's history debug lines kept). A trace of a sixth default run of new. Then the
# bench runner, new against native: all 21 programs at STANDARD, and at LARGE the eight whose
# textbook ideal gains (session 23), 3 processes each timing its phase 4 times, history kept.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero /tmp/xdg-*
run() {  # build, then env assignments and the program's arguments
  local b=$1; shift
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@" --platform Hetero --device all --no-check
}
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
{
for round in 1 2 3 4 5; do
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
HETERO_TRACE=$OUT/syr2k-new-planned.json run $new HETERO_LOG=info XDG_CACHE_HOME=/tmp/xdg-new $p > $OUT/syr2k-new-planned.log 2>&1; gzip $OUT/*.json
rm -rf ~/.cache/hetero
timeout 300 python3 bench/run --build $new --sizes STANDARD --benchmarks all --repeat 3 --inner-repeat 4 --configs native-gpu,hetero \
  --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/standard.log 2>&1
echo "bench STANDARD rc=$? after $((SECONDS - t0)) s"; tail -28 $OUT/standard.log | head -24
timeout $(( 585 - (SECONDS - t0) )) python3 bench/run --build $new --sizes LARGE --benchmarks syr2k,syrk,atax,bicg,mvt,gemver,gesummv,doitgen \
  --repeat 3 --inner-repeat 4 --configs native-gpu,hetero --no-check --no-trace --timeout 40 --out $OUT/large > $OUT/large.log 2>&1
echo "bench LARGE rc=$? after $((SECONDS - t0)) s"; tail -16 $OUT/large.log | head -11
tar czf $OUT/bench.tgz -C $OUT standard large && rm -rf $OUT/standard $OUT/large
