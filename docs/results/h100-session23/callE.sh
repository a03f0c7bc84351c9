#!/usr/bin/env bash
# Session 23 call E (one H100): transform_fuzz.icd failed in call D on three mutants of the corpus
# kernel structs.cl (scale_items: an int buffer read as {int, float}, so the floats are NaNs and
# denormals). Replayed with main before this session's changes (6b8fc62) and with this tree, split
# (HETERO_SPLIT=always) and whole on NVIDIA (HETERO_SPLIT=off): is it the split, or NVIDIA's floats?
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "built after $((SECONDS - t0)) s"
fuzz=$new/test/transform_fuzz/hetero_transform_fuzz
for b in prev new; do
  for split in always off; do
    for c in 8 12 13; do
      echo "== $b HETERO_SPLIT=$split case $c: $(cd /tmp && env OCL_ICD_FILENAMES=$(head -1 /tmp/hetero-$b/vendors/hetero.icd) OCL_ICD_VENDORS=/tmp/hetero-$b/vendors \
        HETERO_HISTORY_CACHE=off HETERO_CONFIG=/nonexistent HETERO_DEVICES=nvidia:0,pocl:0 HETERO_MEMORY=discrete HETERO_SPLIT=$split \
        HETERO_SPLIT_BUILD=eager HETERO_TRANSFORM_CACHE=off HETERO_FUZZ_SEED=776613702 HETERO_FUZZ_CASE=$c timeout 60 $fuzz icd 2>&1 | grep -E 'FAIL|failures')"
    done
  done
done > $OUT/fuzz-replay.txt 2>&1
cat $OUT/fuzz-replay.txt
