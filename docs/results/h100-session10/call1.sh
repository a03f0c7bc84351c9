#!/bin/bash
# Session 10 call 1: what session 9 left unrun on the GPU. GPU tests (NVIDIA + PoCL), fuzzer seeds
# with the lock auto, the lock's own cost (same build, lock auto vs off), split_cost against the
# tree before the fixed-cost merge (.base = 1652cd9^1).
source .device/env.sh
exec > >(tee $OUT/call1.log) 2>&1
start=$(date +%s)
(cmake -S .base -B /tmp/base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/base -j6 2>&1 | grep -E "error:") &
basepid=$!
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build /tmp/b -j10 2>&1 | grep -E "error:"
wait $basepid; echo "builds $(( $(date +%s) - start )) s"
timeout 200 ctest --test-dir /tmp/b -R "^icd\.|^engine\.|^observability\.|fixed-cost|worker|^fuzz\.|^host_copy" -E "unified" -j8 --timeout 190 --output-on-failure > $OUT/ctest.log 2>&1
echo "ctest rc=$? $(( $(date +%s) - start )) s"; grep -E "tests passed|tests failed|\(Failed|\(Timeout|\*\*\*Exc|SEGV" $OUT/ctest.log | head -20
FZ="OCL_ICD_FILENAMES=/tmp/b/icd/libHeteroOpenCL.so.1 OCL_ICD_VENDORS=/tmp/b/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=nvidia:0,pocl:0 HETERO_MEMORY=discrete HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_CHAOS=5 HETERO_FUZZ_SECONDS=15"
for s in "1189982322 3" "3810522406 3" "1 1" "3259113859 3"; do set -- $s
  env $FZ HETERO_FUZZ_SEED=$1 HETERO_FUZZ_THREADS=$2 timeout 60 /tmp/b/test/fuzz/hetero_api_fuzz > $OUT/fuzz-$1.log 2>&1
  echo "fuzz seed=$1 threads=$2 rc=$? $(tail -1 $OUT/fuzz-$1.log)"
done
gcc -O2 -o /tmp/launch_cost bench/tools/launch_cost.c -lOpenCL
for round in 1 2 3 4; do
  /tmp/launch_cost --platform NVIDIA --rounds 3 --patterns plain,event,profiling+event | sed "s/^/round=$round lock=native devices=nvidia /"
  for lock in auto off; do for devices in nvidia:0 nvidia:0,pocl:0; do
    env OCL_ICD_FILENAMES=/tmp/b/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=$devices HETERO_BACKEND_VIEW_LOCK=$lock \
      /tmp/launch_cost --platform Hetero --rounds 3 --patterns plain,event,profiling+event | sed "s/^/round=$round lock=$lock devices=$devices /"
  done; done
done > $OUT/launch_cost-lock.txt 2>&1
echo "lock A/B $(( $(date +%s) - start )) s"
timeout 180 python3 bench/tools/split_cost.py --build /tmp/b,/tmp/base --rounds 3 --sizes 1,16,64 > $OUT/split_cost.md 2> $OUT/split_cost.err
echo "split_cost rc=$? $(( $(date +%s) - start )) s"; head -60 $OUT/split_cost.md; tail -5 $OUT/split_cost.err
