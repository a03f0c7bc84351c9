#!/usr/bin/env bash
# Session 15 call C (two GPUs + PoCL): N-way tests with NVIDIA slots after the merge kernels are built with the variants; the first split; default (auto) mode over the 21 programs, d8112b2 (old) against new, kernel and total time.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j8 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
timeout 150 ctest --test-dir $t -j6 --timeout 140 -R 'icd.nway|bench.(gemm|2mm|syr2k|atax|jacobi-2d|fdtd-2d).three-slots|engine.auto-nway' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
G2P=nvidia:0,nvidia:1,pocl:0
for b in new base; do
  rm -rf ~/.cache/hetero
  echo "== first splits, $b"
  env OCL_ICD_FILENAMES=/tmp/hetero-$b/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_LOG=info timeout 40 $new/bench/polybench-gemm --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -E "N-way" | cut -c1-200
done
rm -rf ~/.cache/hetero /tmp/cache-old /tmp/cache-new
left=$(( 560 - ($(date +%s)-t0) ))
echo "default mode with $left s left"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=3 SLOT_COST_CONFIGS=native,old-default,new-default \
SLOT_COST_EXTRA="old-default=XDG_CACHE_HOME=/tmp/cache-old OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_DEVICES=$G2P;new-default=XDG_CACHE_HOME=/tmp/cache-new HETERO_DEVICES=$G2P" \
  timeout $left etc/gpu-slot-cost.sh 2mm,3mm,adi,atax,bicg,convolution-2d,convolution-3d,correlation,covariance,doitgen,fdtd-2d,gemm,gemver,gesummv,gramschmidt,jacobi-1d,jacobi-2d,lu,mvt,syr2k,syrk 1 STANDARD 2>&1 | tail -25
echo "done after $(( $(date +%s)-t0 )) s"
