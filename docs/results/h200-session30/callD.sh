#!/usr/bin/env bash
# Session 30 call D (one H200): call C's second process again, traced: where syr2k LARGE's planned
# probe spent 254 ms (its CPU chunk took 3.1 ms, starting 1.1 ms in). Two processes against one fresh
# history cache, each traced; then a static 2 % split in a fresh process, traced, and its phases.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
p="$new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check --phase-times"
$new/bench/polybench-syr2k --help 2>&1 | grep -q phase-times || p="${p% --phase-times}"
rm -rf /tmp/xdg
{
for r in 1 2; do
  echo "== process $r"
  h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=debug HETERO_TRACE=$OUT/syr2k-p$r.json $p 2>&1 | grep -vE "backend calls" | grep -E "history|split|kernel_ms|phase|plan"
done
echo "== static 0.02"
h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.02 HETERO_LOG=info HETERO_TRACE=$OUT/syr2k-static.json $p 2>&1 | grep -E "split|kernel_ms|phase"
} > $OUT/syr2k.txt 2>&1
cat $OUT/syr2k.txt | cut -c1-220
gzip -f $OUT/*.json
echo "after $((SECONDS - t0)) s"
