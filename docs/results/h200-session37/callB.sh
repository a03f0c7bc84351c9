#!/usr/bin/env bash
# Session 37 call B (one H200): is Hetero's slower second launch of gesummv's pattern (call A,
# 338-340 us enqueue-to-finished against native's 282-285) the kernel or the host's calls around
# it? launch_after_writes --until-done --rows --profile: each launch's device time (END - START)
# beside it; natively, held and default through this tree (e64adc2: device times placed whole), and
# held through main 7f5628b (.base: each end clamped on its own).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
law="--bytes 6760000 --rounds 15 --until-done --rows --profile"
for round in 1 2 3; do
  echo "== native"; $new/bench/launch_after_writes $law
  echo "== held-new"; h $new HETERO_DEVICES=gpu $new/bench/launch_after_writes --platform Hetero $law
  echo "== default-new"; h $new $new/bench/launch_after_writes --platform Hetero $law
  echo "== held-prev"; h $prev HETERO_DEVICES=gpu $new/bench/launch_after_writes --platform Hetero $law
done > $OUT/rows_profile.txt 2>&1
echo "rows after $((SECONDS - t0)) s"
cat $OUT/rows_profile.txt
