#!/usr/bin/env bash
# Session 38 call A (one H200), b7d0bd4 with callA/probes.diff applied (trace spans in the split's
# tail, not landed): where a planned split's time goes after its GPU kernel ends.
# (1) natively (merge_after.c): a 4 MiB merge kernel after a long kernel, enqueued when the host saw
# the kernel end (then clFinish, clWaitForEvents or polling) or ahead of it (another queue with the
# kernel's event in its wait list, or the same queue); (2) through Hetero (main + probe spans in
# discrete_split.cpp's tail, not landed): syr2k STANDARD, four processes on a fresh history, the
# fourth traced; a static 0.05 split traced; native beside.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
gcc -O2 -o /tmp/merge_after docs/results/h200-session38/callA/merge_after.c -lOpenCL
{ for n in 1000000 3000000; do echo "== spin $n"; /tmp/merge_after 30 $n; done; } > $OUT/merge_after.txt 2>&1
cat $OUT/merge_after.txt
echo "native after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 3 --platform Hetero --device all --no-check"
{
for seq in 1 2; do
rm -rf /tmp/xdg
for r in 1 2 3; do echo "== seq $seq process $r $(h XDG_CACHE_HOME=/tmp/xdg $p 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"; done
echo "== seq $seq process 4 traced"
h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=info HETERO_TRACE=$OUT/syr2k-p4-$seq.json $p 2>&1 | grep -E "split|kernel_ms"
echo "== seq $seq process 5 $(h XDG_CACHE_HOME=/tmp/xdg $p 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
echo "== native $($new/bench/polybench-syr2k --size STANDARD --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
done
echo "== static 0.05 traced"
h HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 HETERO_TRACE=$OUT/syr2k-static.json $p 2>&1 | grep -E "kernel_ms"
} > $OUT/syr2k.txt 2>&1
cat $OUT/syr2k.txt
gzip -f $OUT/*.json
echo "after $((SECONDS - t0)) s"
