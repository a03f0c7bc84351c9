#!/usr/bin/env bash
# Session 37 call J (one H200): which of Hetero's habits leaves every second and third launch of
# callI/place.c reading from memory instead of the L2? Held to the GPU with one habit turned off at
# a time (HETERO_SUBMIT_THREAD=off: no launch pipe; HETERO_QUIET_WAITS=off; HETERO_PINNED_BUDGET=0: no
# pinned host memory; HETERO_BINARY_CACHE=off: the program built from source), processes interleaved
# with native ones.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new &
gcc -O2 -w -Iplatform/include docs/results/h200-session37/callI/place.c -o /tmp/place -lOpenCL -lm
wait
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg HETERO_DEVICES=gpu "$@"; }
for round in 1 2; do
  /tmp/place 10 NVIDIA "" none > $OUT/place_native_$round.txt 2>&1
  h /tmp/place 10 Hetero "" none > $OUT/place_held_$round.txt 2>&1
  h HETERO_SUBMIT_THREAD=off /tmp/place 10 Hetero "" none > $OUT/place_held_nopipe_$round.txt 2>&1
  h HETERO_QUIET_WAITS=off /tmp/place 10 Hetero "" none > $OUT/place_held_noquiet_$round.txt 2>&1
  h HETERO_PINNED_BUDGET=0 /tmp/place 10 Hetero "" none > $OUT/place_held_nopinned_$round.txt 2>&1
  h HETERO_BINARY_CACHE=off /tmp/place 10 Hetero "" none > $OUT/place_held_nocache_$round.txt 2>&1
done
echo "place after $((SECONDS - t0)) s"
python3 docs/results/h200-session37/place_table.py $OUT/place_*.txt | grep -E " (plain|made-only|out-late) "
