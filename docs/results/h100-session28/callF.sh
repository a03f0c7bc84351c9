#!/usr/bin/env bash
# Session 28 call F (one H100): the narrower wait of a write from host memory (4abe120: only for the
# reads into its source still in flight) against prev (aa66adb: for every command ahead of it).
# (1) write_behind: a whole write enqueued behind a 10 ms kernel, 1/16/64 MiB, native NVIDIA, prev
# and new, GPU + CPU and held to the GPU, 3 interleaved rounds; (2) the new write tests and the
# ICD suites on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@"; }
wb="$new/bench/write_behind --rounds 9 --ms 10 --mib 1,16,64"
for round in 1 2 3; do
  echo "== round $round native"; $wb --platform NVIDIA
  for c in prev new; do
    b=$new; [ $c = prev ] && b=$prev
    echo "== round $round $c (GPU + CPU)"; h $b $wb --platform Hetero
    echo "== round $round $c (held to the GPU)"; h $b HETERO_DEVICES=gpu $wb --platform Hetero
  done
done > $OUT/write_behind.txt 2>&1
echo "write_behind after $((SECONDS - t0)) s"; cat $OUT/write_behind.txt
cd $new && timeout $(( 580 - (SECONDS - t0) )) ctest -j8 -R "^icd\.(one-slot|one-slot-discrete|two-slots|two-slots-writes-direct|two-slots-piped|split-1|split-2|unified-alternate|released-handle-race)$" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
