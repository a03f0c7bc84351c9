#!/usr/bin/env bash
# Session 27 call A (one H100): main's head (53eb424), no code change. Does the CPU's part of a split
# run slower beside the GPU because PoCL's worker threads (one per core) compete with threads that
# spin while the GPU runs? syr2k STANDARD, 3 interleaved rounds: native NVIDIA, native PoCL (the CPU
# alone), static shares 0.05-0.07 and Hetero's default, each with PoCL's worker count at the core
# count (PoCL's own default) and below it (POCL_CPU_MAX_CU_COUNT). Then which threads use the CPU
# during a static split (top -H).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node0' > $OUT/machine.txt; cat $OUT/machine.txt
new=/tmp/hetero-new
etc/gpu-builds.sh $new
rm -rf ~/.cache/hetero /tmp/xdg-*
cores=$(nproc)
run() {  # env assignments, then the program's arguments, through Hetero
  env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors "$@" --platform Hetero --device all --no-check
}
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for cu in $cores $((cores - 1)) $((cores - 2)); do
    echo "round $round pocl cu=$cu $(POCL_CPU_MAX_CU_COUNT=$cu $new/bench/polybench-syr2k --size STANDARD --repeat 3 --platform Portable --device cpu --no-check 2>&1 | ms)"
    for cfg in 0.05 0.06 0.07 default; do
      if [ $cfg = default ]; then
        [ $cu = $((cores - 2)) ] && continue
        out=$(run HETERO_LOG=info POCL_CPU_MAX_CU_COUNT=$cu XDG_CACHE_HOME=/tmp/xdg-$cu $p 2>&1)
      else
        out=$(run HETERO_LOG=info POCL_CPU_MAX_CU_COUNT=$cu HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1)
      fi
      echo "$out" | grep -E "split syr2k" | sed "s/^/  [$round cu=$cu $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round cu=$cu $cfg $(echo "$out" | ms) launches: $(echo "$out" | grep -oE 'split syr2k: .*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; cut -c1-220 $OUT/syr2k.txt
# Which threads use the CPU while static splits run (share 0.06, PoCL's default worker count).
run HETERO_LOG=warn HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.06 $new/bench/polybench-syr2k --size STANDARD --repeat 400 > /dev/null 2>&1 &
sleep 4; pid=$(pgrep -f 'polybench-syr2k --size STANDARD --repeat 400' | head -1)
top -H -b -n 2 -d 1 -p $pid | tail -40 > $OUT/top.txt
wait; echo "top after $((SECONDS - t0)) s"; cat $OUT/top.txt | head -30
