#!/usr/bin/env bash
# Session 29 call C (one GPU): syr2k STANDARD's static split, where the CPU's time within a launch
# goes (session 23: its one chunk started 0.56 ms after the launch) and whether PoCL with fewer
# threads than cores (POCL_CPU_MAX_CU_NUM=15, 14: NVIDIA's spinning thread and the application's
# beside them) does its share sooner. (1) a trace of each share (0.05, 0.07); (2) 3 interleaved
# rounds: native, shares 0.05 and 0.07 with 16 (PoCL's default here), 15 and 14 PoCL threads.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
for s in 0.05 0.07; do
  run HETERO_CPU_SHARE=$s HETERO_TRACE=/tmp/trace-$s.json $p > /dev/null 2>&1
  gzip -c /tmp/trace-$s.json > $OUT/syr2k-trace-$s.json.gz
done
echo "traces after $((SECONDS - t0)) s"
{
for round in 1 2 3; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for s in 0.05 0.07; do
    for cu in 16 15 14; do
      out=$(run POCL_CPU_MAX_CU_NUM=$cu HETERO_LOG=debug HETERO_CPU_SHARE=$s $p 2>&1)
      echo "round $round share=$s cu=$cu $(echo "$out" | ms) cpu_us_per_1000: $(echo "$out" | grep -oE 'CPU [0-9.]+ us per 1000' | grep -oE '[0-9.]+ ' | tr -d '\n') launches: $(echo "$out" | grep -oE 'split syr2k.*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "rounds after $((SECONDS - t0)) s"; cut -c1-200 $OUT/syr2k.txt
