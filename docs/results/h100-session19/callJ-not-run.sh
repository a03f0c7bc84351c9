#!/usr/bin/env bash
# Session 19 call J (one H100): adi costs +3.5 us per launch through Hetero at LARGE (200,000 launches,
# call I) but +1.6 at STANDARD (2,049): does the flush period (HETERO_TEST_FLUSH_EVERY, default 16)
# change NVIDIA's own enqueue cost over a long run? Held to the GPU, one run each, interleaved. First:
# does NVIDIA alone launch slower after commands from other threads (bench/tools/enqueue_threads)?
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new
cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 --target HeteroOpenCL polybench-adi enqueue_threads 2>&1 | grep -E "error:"
echo "built after $(( $(date +%s)-t0 )) s"
for r in 1 2 3; do
  for i in none main other other-queue threads copies; do timeout 30 $new/bench/enqueue_threads --platform NVIDIA --interlude $i; done
done
echo "enqueue_threads after $(( $(date +%s)-t0 )) s"
for r in 1 2; do
  [ $r = 2 ] && [ $(( $(date +%s)-t0 )) -gt 150 ] && break
  for s in STANDARD:3 LARGE:1; do
    $new/bench/polybench-adi --platform NVIDIA --device gpu --no-check --repeat ${s#*:} --size ${s%:*} 2>&1 | grep -o "kernel_ms=[0-9.]*" | sed "s/^/round=$r ${s%:*} native /"
    for f in 16 0 256; do
      env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu HETERO_TEST_FLUSH_EVERY=$f \
        timeout 20 $new/bench/polybench-adi --platform Hetero --device gpu --no-check --repeat ${s#*:} --size ${s%:*} 2>&1 | grep -o "kernel_ms=[0-9.]*" | sed "s/^/round=$r ${s%:*} held-flush$f /"
    done
    echo "after $(( $(date +%s)-t0 )) s"
  done
done
