#!/usr/bin/env bash
# Session 22 call H (one H100): copies into the host copy and the pinned blocks with stores that
# bypass the caches (copyForTransfer) against main dc32375 ("prev", .base): the unit and host-copy
# tests on NVIDIA + PoCL; 3mm STANDARD per-position launch times (4 rounds); six programs whose
# writes go through the host copy (1 MiB to 64 MiB), kernel and total time (3 rounds, medians).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-nt prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
timeout 90 ctest --test-dir $new -j8 --timeout 80 -R 'parallel_for|copyFor|staged|host_copy|observability.counters' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head
CC="LD_PRELOAD=$new/bench/libcall_clock.so CALL_CLOCK_PERIOD=3 CALL_CLOCK_FINISH_PERIOD=2"
for r in 1 2 3 4; do
  for c in held default prev-held prev-default; do
    lib=$new/icd/libHeteroOpenCL.so.1; [ "${c#prev-}" != "$c" ] && lib=$prev/icd/libHeteroOpenCL.so.1
    e=""; [ "${c#prev-}" = held ] && e="HETERO_DEVICES=gpu"
    o=$(env OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent $e $CC $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
    echo "$c $(echo "$o" | grep -oE "kernel_ms=[0-9.]* total_ms=[0-9.]*") $(echo "$o" | grep -oE "clEnqueueNDRangeKernel calls=[0-9]+ mean_us=[0-9.]* positions_us=[0-9.,]*")"
  done
done > $OUT/3mm.txt 2>&1
sort $OUT/3mm.txt
echo "3mm after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_STAT=median SLOT_COST_CONFIGS=native,held,default,prev-default \
SLOT_COST_EXTRA="prev-default=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout $(( 300 - (SECONDS - t0) )) etc/gpu-slot-cost.sh 3mm,gemm,2mm,convolution-2d,gesummv,atax 3 STANDARD 2>&1 | tail -20
echo "done after $((SECONDS - t0)) s"
