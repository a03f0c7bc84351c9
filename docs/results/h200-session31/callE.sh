#!/usr/bin/env bash
# Session 31 call E (one H200), c428b58+: where a planned split of syr2k STANDARD spends the time
# between its own measure (8.64 ms) and what the application sees (kernel_ms 8.85). Four processes
# against one fresh history; the fourth traced, and a traced static
# split at 0.06 beside it.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 3 --platform Hetero --device all --no-check"
rm -rf /tmp/xdg
{
for r in 1 2 3; do echo "== process $r $(h XDG_CACHE_HOME=/tmp/xdg $p 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"; done
echo "== process 4 traced"
h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=debug HETERO_TRACE=$OUT/syr2k-std-p4.json $p 2>&1 | grep -E "history|split|kernel_ms|phase"
echo "== static 0.06 traced"
h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.06 HETERO_LOG=info HETERO_TRACE=$OUT/syr2k-std-static.json $p 2>&1 | grep -E "split|kernel_ms|phase"
echo "== native"; $new/bench/polybench-syr2k --size STANDARD --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -E "kernel_ms|phase"
} > $OUT/syr2k-std.txt 2>&1
cut -c1-220 $OUT/syr2k-std.txt
gzip -f $OUT/*.json
echo "after $((SECONDS - t0)) s"
