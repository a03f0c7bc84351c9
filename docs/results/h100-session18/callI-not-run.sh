#!/usr/bin/env bash
# Session 18 call I (one H100): which commit of the launch hot-path merge slowed adi and lu (call H):
# main before the merge (5be1695, full build: the programs), the merge (0d38b9e), and the helper's
# branch after 4 (9fd75f6), 6 (88f15f6) and 9 (3f85120) commits; launch-bound programs, default mode.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
(cmake -S .scratch/trees/5be1695 -B /tmp/b-5be1695 -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-5be1695 -j4 2>&1 | grep -E "error:") &
for c in 0d38b9e 9fd75f6 88f15f6 3f85120; do
  (cmake -S .scratch/trees/$c -B /tmp/b-$c -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/b-$c -j3 --target HeteroOpenCL 2>&1 | grep -E "error:") &
done
wait
echo "built after $(( $(date +%s)-t0 )) s"; ls /tmp/b-*/icd/libHeteroOpenCL.so.1
extra=""
for c in 5be1695 0d38b9e 9fd75f6 88f15f6 3f85120; do extra="$extra;c$c=XDG_CACHE_HOME=/tmp/cache-$c OCL_ICD_FILENAMES=/tmp/b-$c/icd/libHeteroOpenCL.so.1"; done
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=/tmp/b-5be1695 SLOT_COST_REPEAT=5 SLOT_COST_CONFIGS=native,c5be1695,c0d38b9e,c9fd75f6,c88f15f6,c3f85120 \
SLOT_COST_EXTRA="${extra#;}" timeout 400 etc/gpu-slot-cost.sh adi,lu 2 STANDARD 2>&1 | tail -6
echo "done after $(( $(date +%s)-t0 )) s"
