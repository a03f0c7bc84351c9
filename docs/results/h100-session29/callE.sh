#!/usr/bin/env bash
# Session 29 call E (one GPU): where gesummv LARGE's one launch loses 55 us through Hetero (session 24:
# 0.383 against 0.328 ms), and gemm LARGE's. (1) 3 interleaved rounds, --repeat 6: native, held to
# the GPU, default; (2) default and held once more with a trace, the backend calls counted and the
# debug log.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3; do
  for prog in gesummv gemm; do
    p="$new/bench/polybench-$prog --size LARGE --repeat 6 --no-check"
    echo "round $round $prog native $($p --platform NVIDIA --device gpu 2>&1 | ms) held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | ms) default $(h $p --platform Hetero --device all 2>&1 | ms)"
  done
done
} > $OUT/rounds.txt 2>&1
cat $OUT/rounds.txt
for prog in gesummv gemm; do
  p="$new/bench/polybench-$prog --size LARGE --repeat 6 --no-check --platform Hetero --device all"
  for c in held default; do
    e=""; [ $c = held ] && e="HETERO_DEVICES=gpu"
    h $e HETERO_TRACE=/tmp/trace-$prog-$c.json HETERO_LOG=debug HETERO_COUNT_BACKEND_CALLS=on $p > /tmp/log-$prog-$c.txt 2>&1
    grep -vE "^hetero: backend calls: [0-9]+ cl(Get|Retain|Release)" /tmp/log-$prog-$c.txt | cut -c1-250 | tail -60
  done
done > $OUT/logs.txt 2>&1
tar czf $OUT/traces.tar.gz -C /tmp $(cd /tmp && ls trace-*.json) log-gesummv-held.txt log-gesummv-default.txt log-gemm-held.txt log-gemm-default.txt
echo "after $((SECONDS - t0)) s"
