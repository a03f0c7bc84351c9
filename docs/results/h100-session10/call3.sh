#!/bin/bash
# Session 10 call 3: fuzz.api.split hung in call 2 (seed 1173853935: two threads in
# marker/barrier/flush/finish, one in map/unmap, 180 s). The same fuzzer binary against this tree's
# library and the one before issue 13's refactors (.base), interleaved; all threads' stacks by gdb.
source .device/env.sh
exec > >(tee $OUT/call3.log) 2>&1
start=$(date +%s)
(cmake -S .base -B /tmp/base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/base -j6 --target HeteroOpenCL 2>&1 | grep -E "error:") &
basepid=$!
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0 >/dev/null && cmake --build /tmp/b -j10 --target HeteroOpenCL hetero_api_fuzz 2>&1 | grep -E "error:"
wait $basepid; echo "builds $(( $(date +%s) - start )) s; gdb: $(which gdb)"
FZ="OCL_ICD_VENDORS=/tmp/b/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=nvidia:0,pocl:0 HETERO_MEMORY=discrete HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_CHAOS=5 HETERO_BACKEND_VIEW_LOCK=on HETERO_FUZZ_SECONDS=20 HETERO_FUZZ_STALL=40"
round=0
while [ $(( $(date +%s) - start )) -lt 480 ]; do
  round=$((round+1))
  for tree in new base; do
    lib=$([ $tree = new ] && echo /tmp/b/icd/libHeteroOpenCL.so.1 || echo /tmp/base/icd/libHeteroOpenCL.so.1)
    seed=$([ $((round % 2)) = 1 ] && echo 1173853935 || echo $RANDOM$RANDOM)
    log=$OUT/fuzz-$tree-$round.log
    if [ $tree = new ] && which gdb >/dev/null; then
      env $FZ OCL_ICD_FILENAMES=$lib HETERO_FUZZ_SEED=$seed timeout 100 gdb -q -batch -ex "handle SIGPIPE nostop" -ex run -ex "thread apply all bt 25" /tmp/b/test/fuzz/hetero_api_fuzz > $log 2>&1
    else
      env $FZ OCL_ICD_FILENAMES=$lib HETERO_FUZZ_SEED=$seed timeout 100 /tmp/b/test/fuzz/hetero_api_fuzz > $log 2>&1
    fi
    echo "round=$round tree=$tree seed=$seed rc=$? $(grep -E 'PASS|HANG|fatal' $log | head -1) t=$(( $(date +%s) - start ))"
    grep -q "PASS" $log && ! grep -q "HANG\|fatal" $log && rm -f $log
  done
done
