#!/usr/bin/env bash
# Hunts for a rare failure or hang of fuzz.api.split (issue 20): runs that test through ctest, so with
# exactly its environment (the build's HETERO_TEST_TWO_SLOTS, discrete memory, every launch split,
# chaos delays, the view lock), one seed after another until the time is up.
#   etc/fuzz-hunt.sh BUILD_DIR SECONDS [SEED...]
# Seeds: those given, once each, else random ones. For the GPU machine, build with
# -DHETERO_TEST_TWO_SLOTS=nvidia:0,pocl:0. The whole output of each run that does not pass (a hang
# includes every thread's stack, printed by the watchdog) is kept as seed-<seed>.log under $OUT (or
# /tmp/fuzz-hunt); one line per run, then the count. HETERO_FUZZ_STALL_SECONDS is 60 here unless
# set (the fuzzer's own default, 180, spends three minutes on each hang). A frame shown only as
# module+0xoffset: `addr2line -f -C -i -e module 0xoffset`.
set -uo pipefail
build=$1 seconds=$2; shift 2; seeds=("$@")
out=${OUT:-/tmp/fuzz-hunt}; mkdir -p "$out"
export HETERO_FUZZ_STALL_SECONDS=${HETERO_FUZZ_STALL_SECONDS:-60}
end=$(( $(date +%s) + seconds ))
runs=0 passed=0
while (( $(date +%s) < end )); do
  if (( ${#seeds[@]} )); then (( runs < ${#seeds[@]} )) || break; seed=${seeds[runs]}
  else seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); fi
  log=$out/seed-$seed.log start=$(date +%s)
  HETERO_FUZZ_SEED=$seed ctest --test-dir "$build" -R '^fuzz\.api\.split$' -V > "$log" 2>&1
  runs=$((runs + 1))
  if grep -q 'api_fuzz: PASS' "$log" && grep -q '100% tests passed' "$log"; then
    passed=$((passed + 1)); rm "$log"; verdict=PASS
  else
    # A sanitizer build's first report names the kind (etc/sanitize.sh builds them).
    verdict=$(grep -m1 -oE 'api_fuzz: (HANG|FAILED)|fatal signal [0-9]+|Timeout|No tests were found|runtime error: [a-z]+( [a-z]+)*|(AddressSanitizer|ThreadSanitizer): [a-z -]+[a-z]|LeakSanitizer has encountered a fatal error' "$log" || echo failed)
    verdict="${verdict#api_fuzz: } (kept $log)"
  fi
  echo "run $runs seed $seed: $verdict, $(( $(date +%s) - start )) s"
done
echo "fuzz-hunt: $passed of $runs runs passed; kept logs in $out"
(( passed == runs ))
