#!/usr/bin/env bash
# Session 34 call E (one H200): what waiting for one launch on fresh buffers costs natively by how
# the host waits (bench/tools/finish_after_launch.c: clFinish, a marker's event as Hetero's clFinish
# does, the launch's own event), three processes; and the same program through Hetero held and default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
{
for r in 1 2 3; do
  $new/bench/finish_after_launch --platform NVIDIA --rounds 30
  h HETERO_DEVICES=gpu $new/bench/finish_after_launch --platform Hetero --rounds 30 | sed 's/^/held /'
  h $new/bench/finish_after_launch --platform Hetero --rounds 30 | sed 's/^/default /'
done
$new/bench/finish_after_launch --platform NVIDIA --rounds 30 --bytes 1048576
h HETERO_DEVICES=gpu $new/bench/finish_after_launch --platform Hetero --rounds 30 --bytes 1048576 | sed 's/^/held /'
} > $OUT/finish.txt 2>&1
cat $OUT/finish.txt; echo "after $((SECONDS - t0)) s"
