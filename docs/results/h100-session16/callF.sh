#!/usr/bin/env bash
# Session 16 call F (two GPUs + PoCL), the final tree against 3710b0c: launch cost (the submitting turn replaced the submission mutex), every launch split at EXTRALARGE, the ICD/engine/N-way tests on NVIDIA.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base t=/tmp/hetero-tests
(cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j10 2>&1 | grep -E "error:") &
(cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j10 2>&1 | grep -E "error:") &
(cmake -S . -B $t -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:1,pocl:0 >/dev/null && cmake --build $t -j12 2>&1 | grep -E "error:") &
wait
echo "built after $(( $(date +%s)-t0 )) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2 3; do
  for c in native old-held new-held old-default new-default; do
    case $c in
      native) o=$($new/bench/launch_cost --platform NVIDIA --launches 20000 --rounds 3 --patterns plain,event 2>&1);;
      old-held) o=$(env OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu $new/bench/launch_cost --platform Hetero --launches 20000 --rounds 3 --patterns plain,event 2>&1);;
      new-held) o=$(env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu $new/bench/launch_cost --platform Hetero --launches 20000 --rounds 3 --patterns plain,event 2>&1);;
      old-default) o=$(env OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $new/bench/launch_cost --platform Hetero --launches 20000 --rounds 3 --patterns plain,event 2>&1);;
      new-default) o=$(env OCL_ICD_FILENAMES=$new/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent $new/bench/launch_cost --platform Hetero --launches 20000 --rounds 3 --patterns plain,event 2>&1);;
    esac
    echo "$o" | grep -E "^launch_cost" | sed "s/^/round=$r config=$c /"
  done
done > $OUT/launch_cost.txt 2>&1
python3 - $OUT/launch_cost.txt <<'PY'
import re, sys, statistics, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.search(r'config=(\S+) .*pattern=(\S+) .*enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m: d[(m[1], m[2])].append((float(m[3]), float(m[4])))
for k in sorted(d): print(k, "enqueue median %.2f us, total median %.2f us (n=%d)" % (statistics.median(x[0] for x in d[k]), statistics.median(x[1] for x in d[k]), len(d[k])))
PY
echo "launch cost after $(( $(date +%s)-t0 )) s"
G2P=nvidia:0,nvidia:1,pocl:0
OLD="OCL_ICD_FILENAMES=$base/icd/libHeteroOpenCL.so.1"
rm -rf ~/.cache/hetero
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,old2p,new2p \
SLOT_COST_EXTRA="old2p=$OLD HETERO_DEVICES=$G2P HETERO_SPLIT=always;new2p=HETERO_DEVICES=$G2P HETERO_SPLIT=always" \
  timeout 120 etc/gpu-slot-cost.sh gemm,syrk,syr2k,2mm,3mm 1 EXTRALARGE 2>&1 | tail -8
cp $OUT/slot_cost.txt $OUT/slot_cost_xl.txt
echo "XL after $(( $(date +%s)-t0 )) s"
left=$(( 345 - ($(date +%s)-t0) ))
timeout $left ctest --test-dir $t -j6 --timeout 150 -R '^icd\.(one-slot|two-slots|split-1|submit-turn-end|released-handle-race|nway-on|nway-off|nway-failed-mirror)$|^engine\.(completion|auto-nway)$|^bench\.(gemm|2mm|3mm|syrk)\.three-slots$|^stress\.exit' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $(( $(date +%s)-t0 )) s"; grep -E "tests passed|\*\*\*|Failed|Timeout|Passed" $OUT/ctest.txt | head -30
