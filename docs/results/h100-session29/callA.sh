#!/usr/bin/env bash
# Session 29 call A (one GPU): (1) where a 1-D image array read puts its images in host memory,
# natively on NVIDIA and PoCL 5.0 (docs/results/h100-session29/scratch/img1darr.c, slice_pitch = 2 x row_pitch); (2) the new
# 1-D image array test with this tree's library and with prev's (7d8f07f: the extent of a 1-D array
# read counted rows, not slices), NVIDIA + PoCL; the image ICD suites; (3) per-launch cost now, and a
# perf profile of Hetero's enqueuing thread, held to the GPU and on GPU + CPU.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@"; }
gcc -O1 -o /tmp/img1darr docs/results/h100-session29/scratch/img1darr.c -lOpenCL
{
  echo "== native NVIDIA"; /tmp/img1darr NVIDIA
  echo "== native PoCL"; /tmp/img1darr Portable
  t="images: a write from host memory waits for a 1-D image array read*"
  for c in new prev new prev; do
    b=$new; [ $c = prev ] && b=$prev
    echo "== test, library $c, nvidia:0,pocl:0 discrete"
    h $b HETERO_DEVICES=nvidia:0,pocl:0 HETERO_MEMORY=discrete HETERO_CONFIG=/nonexistent $new/test/icd/hetero_icd_tests "$t" 2>&1 | tail -4
    echo "== test, library $c, held to nvidia:0"
    h $b HETERO_DEVICES=nvidia:0 HETERO_CONFIG=/nonexistent $new/test/icd/hetero_icd_tests "$t" 2>&1 | tail -4
  done
} > $OUT/images.txt 2>&1
cat $OUT/images.txt
echo "images after $((SECONDS - t0)) s"
(cd $new && timeout 200 ctest -j8 -R "^icd\.(one-slot|one-slot-discrete|two-slots|split-1|split-2|unified-alternate)$" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$?"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
echo "ctest after $((SECONDS - t0)) s"
timeout 150 python3 bench/tools/launch_cost.py --build $new --rounds 5 > $OUT/launch_cost.md 2>&1; tail -14 $OUT/launch_cost.md
echo "launch_cost after $((SECONDS - t0)) s"
for cfg in held gpucpu; do
  e=""; [ $cfg = held ] && e="HETERO_DEVICES=gpu"
  h $new $e HETERO_CONFIG=/nonexistent perf record -q -F 4999 -g -o /tmp/perf-$cfg.data -- $new/bench/launch_cost --platform Hetero --patterns plain --launches 4096 --rounds 40 > /dev/null 2>&1
  perf report -i /tmp/perf-$cfg.data --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^$' | grep -v '^#' | head -60 > $OUT/perf-$cfg.txt
  echo "== perf $cfg after $((SECONDS - t0)) s"; head -30 $OUT/perf-$cfg.txt | cut -c1-150
done
