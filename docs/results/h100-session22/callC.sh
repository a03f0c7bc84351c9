#!/usr/bin/env bash
# Session 22 call C (one H100): small whole writes straight to the GPU until the context splits
# (this tree) against main dc32375 ("prev", .base): tests on NVIDIA + PoCL; 3mm STANDARD with
# call_clock's per-position launch times, interleaved, 5 rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-tests prev=/tmp/hetero-prev
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
timeout 240 ctest --test-dir $new -j8 --timeout 200 -R 'observability|host_copy|icd.two-slots$|icd.split-1$|bench.(3mm|gemm|2mm|gesummv).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
CC="LD_PRELOAD=$new/bench/libcall_clock.so CALL_CLOCK_PERIOD=3 CALL_CLOCK_FINISH_PERIOD=2"
run3mm() {  # name, library (empty: native), env...
  local name=$1 lib=$2; shift 2
  if [ -z "$lib" ]; then
    o=$(env $CC "$@" $new/bench/polybench-3mm --platform NVIDIA --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  else
    o=$(env OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent $CC "$@" $new/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  fi
  echo "$o" | grep -oE "kernel_ms=[0-9.]* total_ms=[0-9.]*" | sed "s/^/$name /"
  echo "$o" | grep -E "call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite)" | sed -E "s/ tenths_us=[^ ]*//; s/^/  $name /"
}
for r in 1 2 3 4 5; do
  echo "== round $r"
  run3mm native ""
  run3mm held $new/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=gpu
  run3mm default $new/icd/libHeteroOpenCL.so.1
  run3mm prev-default $prev/icd/libHeteroOpenCL.so.1
  run3mm prev-held $prev/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=gpu
done > $OUT/3mm.txt 2>&1
echo "3mm after $((SECONDS - t0)) s"
grep kernel_ms $OUT/3mm.txt | sort | awk '{k[$1]=k[$1]" "$2; t[$1]=t[$1]" "$3} END{for(c in k) print c, k[c]; for(c in t) print c, t[c]}' | sed 's/kernel_ms=//g; s/total_ms=//g' | sort
grep NDRange $OUT/3mm.txt | sed -E 's/call_clock: clEnqueueNDRangeKernel calls=[0-9]+//; s/median_us.*//' | sort
