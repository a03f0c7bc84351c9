#!/usr/bin/env bash
# Session 36 call B (one H200): does NVIDIA run a kernel slower after writes from pinned memory
# (Hetero's default sends a write through the CPU's pinned host copy) than after writes from
# ordinary memory? launch_after_writes --until-done, natively, 4 buffers of 6.8 MB (gesummv LARGE's
# matrices), 1 MiB and 16 MiB; then through Hetero held and default at 6.8 MB.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
for b in 6760000 1048576 16777216; do
  $new/bench/launch_after_writes --bytes $b --rounds 40 --until-done
done > $OUT/native.txt 2>&1
echo "native after $((SECONDS - t0)) s"
{ echo "== held"; h HETERO_DEVICES=gpu $new/bench/launch_after_writes --platform Hetero --bytes 6760000 --rounds 30 --until-done
  echo "== default"; h $new/bench/launch_after_writes --platform Hetero --bytes 6760000 --rounds 30 --until-done; } > $OUT/hetero.txt 2>&1
echo "after $((SECONDS - t0)) s"
cat $OUT/native.txt $OUT/hetero.txt
