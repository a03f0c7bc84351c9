#!/usr/bin/env bash
# Session 30 call B (one H200): where the launch-heavy programs' time goes at STANDARD (call A:
# convolution-3d 1.21x held / 1.30x default, gemm 1.09x, 3mm 1.07x, convolution-2d 1.10x,
# jacobi-1d 1.01x / 1.09x). (1) five programs, 2 interleaved rounds, kernel_ms (fastest of 10 phases
# in one process): native, held, held without the launch pipe (HETERO_SUBMIT_THREAD=off), default,
# default without the pipe; (2) backend calls of convolution-3d held and default
# (HETERO_COUNT_BACKEND_CALLS=on: direct against piped launches); (3) the launch-heavy programs
# and those named in issues 15/16 at LARGE: native GPU, held, default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2; do
  for p in convolution-3d gemm 3mm convolution-2d jacobi-1d; do
    a="--size STANDARD --repeat 10 --no-check"
    line="round $round $p native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    line+=" held $(h HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" held-nopipe $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default $(h $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default-nopipe $(h HETERO_SUBMIT_THREAD=off $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    echo "$line"
  done
done
} > $OUT/launch-heavy.txt 2>&1
cat $OUT/launch-heavy.txt; echo "launch-heavy after $((SECONDS - t0)) s"
{
  for cfg in held default; do
    e=""; [ $cfg = held ] && e="HETERO_DEVICES=gpu"
    echo "== convolution-3d STANDARD $cfg, --repeat 10"
    h $e HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-convolution-3d --size STANDARD --repeat 10 --no-check --platform Hetero --device all 2>&1 |
      grep -E "kernel_ms|NDRange|SetKernelArg|Flush|Marker|WaitFor|Finish|RetainEvent|ReleaseEvent|enqueued"
  done
} > $OUT/conv3d-calls.txt 2>&1
cut -c1-160 $OUT/conv3d-calls.txt; echo "calls after $((SECONDS - t0)) s"
timeout $(( 480 - (SECONDS - t0) )) python3 bench/run --build $new --sizes LARGE \
  --benchmarks gemm,3mm,2mm,convolution-2d,convolution-3d,jacobi-1d,jacobi-2d,adi,lu,doitgen,gesummv,syr2k,syrk \
  --repeat 2 --inner-repeat 3 --no-check --no-trace --configs native-gpu,hetero-gpu,hetero --out /tmp/large > $OUT/large.log 2>&1
echo "bench LARGE rc=$? after $((SECONDS - t0)) s"; tail -3 $OUT/large.log
cp /tmp/large/results.md $OUT/large-results.md 2>/dev/null; cp /tmp/large/runs.csv $OUT/large-runs.csv 2>/dev/null
sed -n '/against the native GPU/,/geomean/p' $OUT/large-results.md 2>/dev/null
