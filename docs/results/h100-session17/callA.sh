#!/usr/bin/env bash
# Session 17 call A (four GPUs + PoCL): first run on 4 GPUs: checked sanity runs split 4 ways, the N-way tests on NVIDIA, partial brings (new vs 530d42a) at XL, then 21 programs at LARGE native / 2 GPUs / 4 GPUs / 4 GPUs + CPU in auto mode.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j20 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j24 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader
nvidia-smi topo -m 2>&1 | head -8
H="env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent"
for cfg in "4g:HETERO_DEVICES=nvidia" "4gc:HETERO_DEVICES=gpu,cpu"; do
  for p in gemm 3mm syr2k 2mm; do
    rm -rf ~/.cache/hetero
    o=$($H ${cfg#*:} HETERO_SPLIT=always HETERO_LOG=info timeout 60 $new/bench/polybench-$p --platform Hetero --device gpu --repeat 2 --size STANDARD 2>&1)
    echo "$p ${cfg%%:*} always: $(echo "$o" | grep -oE 'kernel_ms=[0-9.]*|result=[A-Z]*' | tr '\n' ' ') $(echo "$o" | grep -oE 'launches_split_nway=[0-9]*|work_groups_slot[0-4]=[0-9]*' | tr '\n' ' ')"
  done
done
echo "sanity after $(( $(date +%s)-t0 )) s"
timeout 130 ctest --test-dir $t -j8 --timeout 120 -R 'nway|auto-nway|icd.three-slots$' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -30
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
G2P=nvidia:0,nvidia:1,pocl:0
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2p,new2p,new4g \
SLOT_COST_EXTRA="old2p=$OLD HETERO_DEVICES=$G2P HETERO_SPLIT=always;new2p=HETERO_DEVICES=$G2P HETERO_SPLIT=always;new4g=HETERO_DEVICES=nvidia HETERO_SPLIT=always" \
  timeout 120 etc/gpu-slot-cost.sh 3mm,2mm,gemm 1 EXTRALARGE 2>&1 | tail -5
cp $OUT/slot_cost.txt $OUT/slot_cost_xl_brings.txt
echo "brings after $(( $(date +%s)-t0 )) s"
rm -rf ~/.cache/hetero /tmp/cache-*
left=$(( 575 - ($(date +%s)-t0) ))
echo "LARGE sweep with $left s left"
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,2g,4g,4g+cpu \
SLOT_COST_EXTRA="2g=XDG_CACHE_HOME=/tmp/cache-2g HETERO_DEVICES=nvidia:0,nvidia:1;4g=XDG_CACHE_HOME=/tmp/cache-4g HETERO_DEVICES=nvidia;4g+cpu=XDG_CACHE_HOME=/tmp/cache-4gc" \
  timeout $left etc/gpu-slot-cost.sh gemm,2mm,3mm,syrk,syr2k,doitgen,correlation,covariance,gramschmidt,lu,fdtd-2d,jacobi-2d,convolution-2d,convolution-3d,atax,bicg,gemver,gesummv,mvt,adi,jacobi-1d 1 LARGE 2>&1 | tail -24
cp $OUT/slot_cost.txt $OUT/slot_cost_large.txt
echo "done after $(( $(date +%s)-t0 )) s"
