#!/bin/bash
# Session 10 call 2: after issue 13's refactors (backend calls through devices/, one storage
# interface): the GPU tests (icd, engine, observability, host_copy, fuzz, bench.*.hetero) and the
# launch cost against the tree before them (.base).
source .device/env.sh
export CTEST_FILTER='^icd\.|^engine\.|^observability\.|^host_copy|^fuzz\.|fixed-cost|^bench\..*\.hetero$'
export TEST_SECONDS=420
bash etc/gpu-compare.sh .base tests,launch 2>&1 | tee $OUT/call2.log
