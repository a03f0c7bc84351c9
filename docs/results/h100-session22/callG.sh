#!/usr/bin/env bash
# Session 22 call G (one H100): which step of a write through the CPU's host copy makes 3mm's first
# launch after it slower, with a diagnostic build (not committed: HETERO_DIAG_* switches in
# clEnqueueWriteBuffer's path through the host copy): SKIP_READERS (the transfer's event not kept as
# the host copy's reader), SKIP_HOLDS (the host copy not marked as holding the write), FROM_USER (the
# memcpy into the host copy, then the transfer from the application's memory), NO_MEMCPY (the
# transfer from the host copy without filling it: wrong results, unchecked). 3 rounds, interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
diag=/tmp/hetero-diag
etc/gpu-builds.sh $diag >/dev/null
lib=$diag/icd/libHeteroOpenCL.so.1
CC="LD_PRELOAD=$diag/bench/libcall_clock.so CALL_CLOCK_PERIOD=3 CALL_CLOCK_FINISH_PERIOD=2"
run3mm() {  # name, env...
  local name=$1; shift
  o=$(env OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent HETERO_COUNT_BACKEND_CALLS=on $CC "$@" $diag/bench/polybench-3mm --platform Hetero --device gpu --no-check --repeat 30 --size STANDARD 2>&1)
  echo "$o" | grep -oE "kernel_ms=[0-9.]* total_ms=[0-9.]*" | sed "s/^/$name /"
  echo "$o" | grep -E "call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite)|backend calls: [0-9]+ clEnqueueNDRangeKernel \(NVIDIA" |
    sed -E "s/ tenths_us=[^ ]*//; s/ \(NVIDIA CUDA, dispatch [0-9a-fx]*\)//; s/median_us.*//; s/^/  $name /"
}
for r in 1 2 3; do
  echo "== round $r"
  run3mm held HETERO_DEVICES=gpu
  run3mm default
  run3mm writes-direct HETERO_TEST_WRITES_DIRECT=1
  run3mm skip-readers HETERO_DIAG_SKIP_READERS=1
  run3mm skip-holds HETERO_DIAG_SKIP_HOLDS=1
  run3mm from-user HETERO_DIAG_FROM_USER=1
  run3mm no-memcpy HETERO_DIAG_NO_MEMCPY=1
done > $OUT/3mm-diag.txt 2>&1
grep kernel_ms $OUT/3mm-diag.txt | sort | awk '{k[$1]=k[$1]" "$2; t[$1]=t[$1]" "$3} END{for(c in k) print c, k[c], "|", t[c]}' | sed 's/kernel_ms=//g; s/total_ms=//g' | sort
grep -E "NDRange" $OUT/3mm-diag.txt | sed -E 's/call_clock: clEnqueueNDRangeKernel calls=[0-9]+//; s/hetero: backend calls: [0-9]+ clEnqueueNDRangeKernel/NV/; s/ us each.*//' | sort
