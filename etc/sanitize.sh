#!/usr/bin/env bash
# Builds Hetero with sanitizers into build dirs of their own and runs the tests that exercise it
# through the ICD loader (docs/results/sanitizers.md has the latest results):
#   asan  ASan + UBSan (build-asan/): the ICD suite in every configuration, the split engine's
#         corpus and completion tests, unified memory, the exit stress tests and the API fuzzer
#   tsan  TSan (build-tsan/): the threaded tests (engine, queues/events, stress, fuzzer)
#   ci    ASan + UBSan on the subset .ci/run runs (a few minutes)
# Usage: etc/sanitize.sh [asan|tsan|ci|all] [extra ctest arguments...]   (default: all)
# "Clean" means every test passes and no sanitizer printed a report: a report fails its test
# (UBSan does not recover, ASan/LSan/TSan exit non-zero).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
shift || true
jobs=${HETERO_SANITIZE_JOBS:-$(nproc)}
supp=$PWD/etc/sanitizers

# The test programs are instrumented (CMake option HETERO_SANITIZE), so the sanitizer runtime is
# loaded before the ICD loader dlopens libHeteroOpenCL and no LD_PRELOAD is needed. PoCL, LLVM and
# ocl-icd are not instrumented: only their own leaks are suppressed (etc/sanitizers/lsan.supp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0:strict_init_order=1:check_initialization_order=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$supp/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp}
export TSAN_OPTIONS=${TSAN_OPTIONS:-suppressions=$supp/tsan.supp:halt_on_error=0:second_deadlock_stack=1:exitcode=66}
# Hetero's own transform cache would let one test skip work another did: every run does it all.
export HETERO_TRANSFORM_CACHE=off

# The tests a sanitizer build runs. clinfo (icd.clinfo, icd.wrong-devices) is not instrumented and
# not Hetero's; the bench and transform suites do not go through the ICD platform's threads.
asan_tests='^(icd\.(one-slot|one-slot-discrete|two-slots|split-[0-9]+|split-give-up|split-piped|unified-.*|released-handle-race|submit-turn-end|three-slots-split|nway-.*)|engine\.|unified\.(auto|forced|adaptive|cpu-share)|stress\.|fuzz\.|observability\.counters)'
tsan_tests='^(engine\.(completion|corpus-11|unified-13|auto-nway|quiet-wait)|icd\.(one-slot|split-[12]$|two-slots-piped|split-piped|unified-split-1|released-handle-race|submit-turn-end|nway-on|nway-own|nway-cpu$|nway-unalike|nway-failed-bring)|stress\.exit-after-(threads|finish)|unified\.forced-22|fuzz\.|call pipe:)'
ci_tests='^(icd\.(one-slot|one-slot-piped|split-1|released-handle-race)|stress\.exit-after-threads|fuzz\.api\.split)$'
targets="hetero_icd_tests hetero_engine_tests hetero_completion_tests hetero_unified_tests hetero_exit_after_finish hetero_auto_tests
         hetero_api_fuzz hetero_observability_tests hetero_fixed_cost_tests test_call_pipe"

build() {  # dir sanitizers
    cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHETERO_SANITIZE="$2" -DHETERO_BUILD_BENCH=OFF \
        ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
    # shellcheck disable=SC2086
    cmake --build "$1" -j"$jobs" --target $targets
}

run() {  # dir regex
    local start=$SECONDS
    ctest --test-dir "$1" -R "$2" -j"$jobs" --output-on-failure "${@:3}"
    echo "sanitize.sh: $1 -R '$2': $((SECONDS - start)) s"
}

case $mode in
asan) build build-asan address,undefined && run build-asan "$asan_tests" "$@" ;;
tsan) build build-tsan thread && run build-tsan "$tsan_tests" "$@" ;;
ci) build build-asan address,undefined && run build-asan "$ci_tests" "$@" ;;
all)
    build build-asan address,undefined && run build-asan "$asan_tests" "$@"
    build build-tsan thread && run build-tsan "$tsan_tests" "$@"
    ;;
*) echo "usage: etc/sanitize.sh [asan|tsan|ci|all] [ctest arguments...]" >&2; exit 2 ;;
esac
