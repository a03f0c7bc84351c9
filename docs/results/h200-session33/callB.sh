#!/usr/bin/env bash
# Session 33 call B (one H200): why the default costs more than held to the GPU where nothing
# splits (call A: jacobi-1d LARGE 1.245x against held's 1.016x, both processes; gesummv LARGE
# 0.366 against 0.335 ms; 3mm STANDARD). Main as in call A (be2c543). kernel_ms, four interleaved
# rounds: native, held, default, default without splits (HETERO_SPLIT=off), both without the
# launch pipe; then the backend calls of held and default; gesummv with writes straight to the GPU.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4; do
  for ps in "jacobi-1d LARGE" "jacobi-1d STANDARD" "gesummv LARGE" "3mm STANDARD"; do
    set -- $ps; p=$1 s=$2
    r=10; [ $s = STANDARD ] && [ $p = jacobi-1d ] && r=2
    a="--size $s --repeat $r --no-check"
    line="round $round $p $s native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    line+=" held $(h HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default $(h $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" nosplit $(h HETERO_SPLIT=off $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" held-nopipe $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default-nopipe $(h HETERO_SUBMIT_THREAD=off $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default-direct $(h HETERO_TEST_WRITES_DIRECT=1 $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    echo "$line"
  done
done
} > $OUT/rounds.txt 2>&1
cat $OUT/rounds.txt; echo "rounds after $((SECONDS - t0)) s"
for cfg in held default; do
  e="HETERO_DEVICES=gpu,cpu"; [ $cfg = held ] && e="HETERO_DEVICES=gpu"
  for ps in "jacobi-1d LARGE" "3mm STANDARD"; do
    set -- $ps
    echo "== $1 $2 $cfg --repeat 10"
    h $e HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=info $new/bench/polybench-$1 --size $2 --repeat 10 --no-check --platform Hetero --device all 2>&1 | grep -vE "^\s*$" | cut -c1-220 | head -60
  done
done > $OUT/calls.txt 2>&1
grep -E "==|kernel_ms|NDRange|SetKernelArg|Flush|Marker|WaitFor|Finish|RetainEvent|ReleaseEvent|GetEventProfilingInfo|CreateUserEvent|SetEventCallback|Barrier|split|whole" $OUT/calls.txt | cut -c1-200 | head -80
echo "calls after $((SECONDS - t0)) s"
