#!/usr/bin/env bash
# Session 27 call G (one H100): how fast the CPU's part of a split runs beside the GPU (the
# history's "CPU us per 1000 work-items in one chunk", HETERO_LOG=debug), quiet waits off, on, and
# on with PoCL's workers one fewer than the cores (POCL_CPU_MAX_CU_COUNT=15: one core left to the
# NVIDIA thread that still spins). syr2k STANDARD, static share 0.05 and the default, 6 interleaved
# rounds; CPU alone (native PoCL, 16 and 15 workers) in each round.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
rm -rf ~/.cache/hetero /tmp/xdg-*
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5 6; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms) pocl16 $($new/bench/polybench-syr2k --size STANDARD --repeat 2 --platform Portable --device cpu --no-check 2>&1 | ms) pocl15 $(POCL_CPU_MAX_CU_COUNT=15 $new/bench/polybench-syr2k --size STANDARD --repeat 2 --platform Portable --device cpu --no-check 2>&1 | ms)"
  for cfg in 0.05 default; do
    for c in off on on15; do
      q=${c%15}; cu=""; [ $c = on15 ] && cu="POCL_CPU_MAX_CU_COUNT=15"
      if [ $cfg = default ]; then out=$(run HETERO_LOG=debug HETERO_QUIET_WAITS=$q $cu XDG_CACHE_HOME=/tmp/xdg-$c $p 2>&1)
      else out=$(run HETERO_LOG=debug HETERO_QUIET_WAITS=$q $cu HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|CPU .* us per 1000" | sed "s/^/  [$round $c $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round $c $cfg $(echo "$out" | ms) cpu_us_per_1000: $(echo "$out" | grep -oE 'CPU [0-9.]+ us per 1000' | grep -oE '[0-9.]+' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; cut -c1-230 $OUT/syr2k.txt
