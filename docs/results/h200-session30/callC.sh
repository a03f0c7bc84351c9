#!/usr/bin/env bash
# Session 30 call C (one H200): (1) why syr2k LARGE's default took 55 ms against 5.2 in call B's
# second process (a planned 0.67 % CPU share): four processes against one fresh history cache,
# HETERO_LOG=debug, the last one traced; (2) gesummv LARGE default against held (call B: +30-47 us
# for its one launch): backend calls of each.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
rm -rf /tmp/xdg
{
for r in 1 2 3 4; do
  tr=""; [ $r = 4 ] && tr="HETERO_TRACE=$OUT/syr2k-large-4.json"
  echo "== process $r"
  h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=debug $tr $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check 2>&1 |
    grep -vE "backend calls|compil|build" | head -60
done
echo "== native"; $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform NVIDIA --device gpu --no-check
cat /tmp/xdg/hetero/split-history-*.txt | grep -i syr2k
} > $OUT/syr2k-large.txt 2>&1
gzip -f $OUT/syr2k-large-4.json
grep -E "kernel_ms|plan|split syr2k|CPU did|==" $OUT/syr2k-large.txt | cut -c1-220 | head -50
echo "syr2k after $((SECONDS - t0)) s"
{
for r in 1 2; do
  echo "== native"; $new/bench/polybench-gesummv --size LARGE --repeat 5 --platform NVIDIA --device gpu --no-check
  for cfg in held default; do
    e="HETERO_HISTORY_CACHE=off"; [ $cfg = held ] && e="$e HETERO_DEVICES=gpu"
    echo "== $cfg"; h $e HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=info $new/bench/polybench-gesummv --size LARGE --repeat 5 --platform Hetero --device all --no-check 2>&1 | grep -vE "clGet|clCreate(Context|Program|Kernel)|clBuild|Release(Program|Context)"
  done
done
} > $OUT/gesummv-large.txt 2>&1
grep -E "==|kernel_ms" $OUT/gesummv-large.txt | cut -c1-200
echo "after $((SECONDS - t0)) s"
