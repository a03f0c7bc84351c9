#!/usr/bin/env bash
# Session 24 call A (one H100): auto mode's planned split and the stream-back left for whoever reads.
# syr2k STANDARD, prev (main 0b958be) against new, 4 interleaved rounds: native; a static split
# at 0.05 (the stream-back is what new no longer waits for); Hetero's default (auto mode), each
# build with its own cache directory so that each round's process starts from what the earlier
# rounds learned, as a user's successive runs do. Then a trace of new's default, and the split and
# unit tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "built after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf ~/.cache/hetero /tmp/xdg-*
run() {  # build, then env assignments and the program's arguments
  local b=$1; shift
  env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_LOG=info "$@" --platform Hetero --device all --no-check
}
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
{
for round in 1 2 3 4; do
  echo "round $round native $(env -u OCL_ICD_VENDORS $p --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  for cfg in 0.05 default; do
    for b in prev new; do
      dir=/tmp/hetero-$b
      if [ $cfg = default ]; then out=$(run $dir XDG_CACHE_HOME=/tmp/xdg-$b $p 2>&1); else out=$(run $dir HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|history|GPU runs" | sed "s/^/  [$round $b $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round $b $cfg $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\) in [0-9]+ chunks|[0-9]+ bytes moved, [0-9.]+ ms' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "measured after $((SECONDS - t0)) s"; cat $OUT/syr2k.txt
HETERO_TRACE=$OUT/syr2k-new-default.json run $new XDG_CACHE_HOME=/tmp/xdg-new $p > $OUT/syr2k-new-default.log 2>&1; gzip $OUT/*.json
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head -20
