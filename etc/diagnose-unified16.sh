#!/usr/bin/env bash
# Two problems seen only on the GPU machine (16 cores, PoCL 5.0), in one short call of the device
# tool on an existing build (it builds nothing):
#   source .device/env.sh && etc/diagnose-unified16.sh BUILD_DIR
# 1. engine.auto-unified saw no split: its long launch was sized by one launch, which stopped the
#    doubling early when that launch also paid for PoCL compiling (cold cache) or for the split
#    variants' build. Runs the test with a cold and a warm PoCL cache and prints spin's timings.
# 2. PoCL 4.0-5.0 abort in pocl_release_dlhandle_cache ("found->ref_count > 0") when one kernel
#    (one program hash) runs in two queues at once with different global offsets or sizes
#    (bench/tools/pocl_dlhandle_race.c). Runs that natively, then the unified-memory tests that
#    aborted, which now build the split variants with a hash per slot (slotOwnBuildOptions).
# Prints under 200 lines; a 5-minute budget. Success: 2a "same" and "one-context" abort (rc=134,
# the assertion) on PoCL 5.0 and "distinct" prints ok; 1 passes cold and warm with spin's whole
# time far above 0.5 ms (the first "calibrate ... whole" line is what the old test's spin took);
# 2b has no "ref_count" line and every test passed.
set -uo pipefail
build=${1:?usage: etc/diagnose-unified16.sh BUILD_DIR}
build=$(cd "$build" && pwd)
start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - start )) s"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== machine: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

echo "== 2a. PoCL alone (no Hetero): one kernel from several contexts, offsets and sizes varying"
race=$build/bench/pocl_dlhandle_race
for mode in same distinct one-context; do
  for threads in 2 16; do
    timeout 90 "$race" --mode $mode --threads $threads --launches 3000 > "$tmp/race.out" 2> "$tmp/race.err"
    rc=$?
    echo "$mode threads=$threads: rc=$rc $(tail -1 "$tmp/race.out")"
    grep -m1 -E "Assertion|abort|failed" "$tmp/race.err" | cut -c1-200
  done
done
head -1 "$tmp/race.out"

echo "== 1. engine.auto-unified, cold then warm PoCL cache ($(elapsed))"
for cache in cold warm; do
  [ $cache = cold ] && export POCL_CACHE_DIR=$tmp/pocl-cache && mkdir -p "$POCL_CACHE_DIR"
  HETERO_LOG=debug timeout 200 ctest --test-dir "$build" -R '^engine\.auto-unified$' -V --timeout 180 > "$tmp/auto.log" 2>&1
  echo "$cache: ctest rc=$?"
  grep -E "history [^ ]*/(spin|calibrate):" "$tmp/auto.log" | sed 's/^.*history [^/]*\//  /' | head -8
  grep -c "split spin (unified)" "$tmp/auto.log" | sed 's/^/  split launches of spin: /'
  grep -E "with expansion|^ *[0-9]+ > [0-9]+|test cases:|All tests passed" "$tmp/auto.log" | head -6
done
unset POCL_CACHE_DIR

# icd.three-slots-split may still abort (rarely): N-way splits over PoCL slots from several
# application queues put one slot's chunk variant on two queues at once (see the report).
echo "== 2b. the unified-memory tests (two PoCL slots) and icd.three-slots-split, three times each ($(elapsed))"
timeout 240 ctest --test-dir "$build" -R 'unified|^icd\.three-slots-split$' -E 'fuzz' -j8 --timeout 150 --repeat until-fail:3 \
  > "$tmp/unified.log" 2>&1
echo "ctest rc=$? ($(elapsed)); tests passed three times: $(grep -c ' Passed ' "$tmp/unified.log")"
grep -E "tests passed|tests failed|\*\*\*|Failed|Exception|Timeout" "$tmp/unified.log" | head -30
grep -h -m3 "ref_count" "$tmp/unified.log" | cut -c1-200

echo "== 2c. fuzz.api.one-slot once (PoCL's bug natively too: one kernel from three threads' queues) ($(elapsed))"
timeout 120 ctest --test-dir "$build" -R '^fuzz\.api\.one-slot$' --output-on-failure --timeout 100 > "$tmp/fuzz.log" 2>&1
echo "ctest rc=$?"
grep -E "tests passed|tests failed|seed|ref_count" "$tmp/fuzz.log" | head -6
echo "== done ($(elapsed))"
