#!/usr/bin/env bash
# Session 21 call G (one H100): tests of the launch path on NVIDIA + PoCL (session 20's unrun commits
# and this session's mends), then why launch-bound programs cost more with the CPU slot present
# (default) than held to the GPU: piped vs direct launches (HETERO_COUNT_BACKEND_CALLS) and the
# engine's counters and split lines (HETERO_LOG=info).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-tests
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build $new -j16 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
H="OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
run() { # name size repeat program env...
  local name=$1 size=$2 rep=$3 prog=$4; shift 4
  local plat=NVIDIA; case "$name" in held*|default*) plat=Hetero;; esac
  env "$@" timeout 60 $new/bench/polybench-$prog --platform $plat --device gpu --no-check --repeat $rep --size $size > /tmp/o.txt 2>&1
  echo "== $prog $size $name $(grep -o 'kernel_ms=[0-9.]*' /tmp/o.txt | tr '\n' ' ')"
  grep -E "backend calls: .*clEnqueue|backend calls: .*clFlush|backend calls: .*clSetKernelArg|backend calls: .*clWait|backend calls: .*clFinish|from [0-9]+ thread|launch pipe|counters:" /tmp/o.txt | sed 's/^/   /'
  echo "   split lines: $(grep -c 'split' /tmp/o.txt)"; grep -i "split" /tmp/o.txt | head -3 | cut -c1-250 | sed 's/^/   /'
}
rm -rf ~/.cache/hetero
for r in 1 2; do
  echo "### round $r after $(( $(date +%s)-t0 )) s"
  for p in fdtd-2d:LARGE jacobi-2d:LARGE adi:LARGE gemm:STANDARD 3mm:STANDARD; do
    rep=3; [ ${p%:*} = adi ] && rep=1
    run native ${p#*:} $rep ${p%:*}
    run held ${p#*:} $rep ${p%:*} $H HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=info
    run default ${p#*:} $rep ${p%:*} $H HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=info
    run default-nosplit ${p#*:} $rep ${p%:*} $H HETERO_COUNT_BACKEND_CALLS=on HETERO_LOG=info HETERO_SPLIT=off
  done
done > $OUT/diag.txt 2>&1
echo "diag after $(( $(date +%s)-t0 )) s"; grep "^==" $OUT/diag.txt
timeout $(( 560 - ($(date +%s)-t0) )) ctest --test-dir $new -j8 --timeout 200 -R 'icd.two-slots$|icd.one-slot|icd.split-1|piped|host_copy|engine.completion|programs_direct|call pipe|bench.(adi|gemm|convolution-2d|jacobi-1d).hetero' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
