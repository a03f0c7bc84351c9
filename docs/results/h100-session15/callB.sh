#!/usr/bin/env bash
# Session 15 call B (two GPUs): with a PoCL slot (writes through the host copy, so they are mirrored): d8112b2 (old) against new, spans on/off; one GPU as two slots + PoCL; N-way tests with NVIDIA slots.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j12 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j16 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
G4P=nvidia:0,nvidia:1,nvidia:2,nvidia:3,pocl:0 G2P=nvidia:0,nvidia:1,pocl:0
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2p,whole2p,new2p,old2,new2 \
SLOT_COST_EXTRA="old2p=$OLD HETERO_DEVICES=$G2P HETERO_SPLIT=always;whole2p=HETERO_TEST_NWAY_WHOLE_RESULTS=1 HETERO_DEVICES=$G2P HETERO_SPLIT=always;new2p=HETERO_DEVICES=$G2P HETERO_SPLIT=always;old2=$OLD HETERO_DEVICES=nvidia:0,nvidia:1 HETERO_SPLIT=always;new2=HETERO_DEVICES=nvidia:0,nvidia:1 HETERO_SPLIT=always" \
  timeout 230 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 1 EXTRALARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_pocl.txt
echo "XL done after $(( $(date +%s)-t0 )) s"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,held,old-two-p,new-two-p \
SLOT_COST_EXTRA="held=HETERO_DEVICES=nvidia:0;old-two-p=$OLD HETERO_DEVICES=nvidia:0,nvidia:0,pocl:0 HETERO_SPLIT=always;new-two-p=HETERO_DEVICES=nvidia:0,nvidia:0,pocl:0 HETERO_SPLIT=always" \
  timeout 120 etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k 2 LARGE 2>&1 | tail -9
cp $OUT/slot_cost.txt $OUT/slot_cost_large_one_pocl.txt
echo "one-GPU done after $(( $(date +%s)-t0 )) s"
env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always HETERO_TRACE=$OUT/trace-gemm-xl-2p-new.json HETERO_LOG=info timeout 40 $new/bench/polybench-gemm --platform Hetero --device gpu --no-check --repeat 3 --size EXTRALARGE 2>&1 | grep -E "kernel_ms|N-way" | cut -c1-160
for p in gemm 2mm syr2k; do
  env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$G2P HETERO_SPLIT=always timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --repeat 2 --size LARGE 2>&1 | tail -1 | grep -oE "benchmark=[a-z0-9]+|kernel_ms=[0-9.]+|max_rel_err=[^ ]+|pass[^ ]*|FAIL[^ ]*" | tr '\n' ' '; echo
done
left=$(( 575 - ($(date +%s)-t0) ))
echo "ctest with $left s left"
timeout $left ctest --test-dir $t -j8 --timeout 200 -R 'three-slots|nway' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
