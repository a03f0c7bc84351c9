#!/usr/bin/env bash
# Session 37 call I (one H200): (1) is a slow launch one that reads its inputs from memory instead
# of the L2? callI/place.c's mode evict fills 256 MiB between the first and second launch; natively
# and through Hetero held. (2) The tests on NVIDIA + PoCL for e64adc2 (profiled commands' device
# times placed whole).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 &
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callI/place.c -o /tmp/place -lOpenCL -lm
for round in 1 2; do /tmp/place 15 NVIDIA "" none > $OUT/place_native_$round.txt 2>&1; done
wait
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
for round in 1 2; do h HETERO_DEVICES=gpu /tmp/place 15 Hetero "" none > $OUT/place_held_$round.txt 2>&1; done
python3 docs/results/h200-session37/place_table.py $OUT/place_*.txt | grep -E " (plain|padded|evict) "
echo "place after $((SECONDS - t0)) s"
(cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(one-slot|two-slots|one-slot-piped|split-1)$|^engine\.|^platform_unit" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
