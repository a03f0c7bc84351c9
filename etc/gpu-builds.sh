#!/usr/bin/env bash
# On the GPU machine: the builds a before/after call needs, at once (docs/results/h100-session*/call*.sh
# repeated this preamble). Builds this tree (Release) into NEW, and the Hetero library of each
# baseline source tree (a `git archive` of an earlier commit, carried in: .base/, ...) into its own
# directory, in parallel, most cores to NEW.
#   source .device/env.sh && etc/gpu-builds.sh NEW [--tests SLOTS] [DIR=SOURCE ...]
# --tests SLOTS: NEW with the tests, their two-slot configurations on SLOTS (nvidia:0,pocl:0);
# without it NEW has the library, the bench programs and tools only. A baseline is its library
# alone, or everything but its tests with GPU_BUILDS_BASELINE=all (its own bench programs).
# GPU_BUILDS_ARGS: more CMake arguments for NEW (e.g. -DHETERO_TEST_THREE_SLOTS=nvidia:0,nvidia:0,pocl:0).
# Example: etc/gpu-builds.sh /tmp/new --tests nvidia:0,pocl:0 /tmp/prev=.base
set -uo pipefail
cd "$(dirname "$0")/.."
new=${1:?usage: etc/gpu-builds.sh NEW [--tests SLOTS] [DIR=SOURCE ...]}
shift
tests=(-DHETERO_BUILD_TESTS=OFF)
if [ "${1:-}" = --tests ]; then
    tests=(-DHETERO_TEST_TWO_SLOTS="${2:?--tests needs the slots}")
    shift 2
fi
start=$SECONDS
cores=$(nproc)
baseJobs=3
newJobs=$((cores - baseJobs * $#))
[ "$newJobs" -lt 2 ] && newJobs=2
# shellcheck disable=SC2086
(cmake -S . -B "$new" -DCMAKE_BUILD_TYPE=Release "${tests[@]}" ${GPU_BUILDS_ARGS:-} >/dev/null && cmake --build "$new" -j"$newJobs" 2>&1 | grep -E "error:") &
for pair in "$@"; do
    dir=${pair%%=*} src=${pair#*=}
    (cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null &&
        cmake --build "$dir" -j"$baseJobs" --target "${GPU_BUILDS_BASELINE:-HeteroOpenCL}" 2>&1 | grep -E "error:") &
done
wait
status=0
for dir in "$new" "${@%%=*}"; do
    [ -e "$dir/icd/libHeteroOpenCL.so.1" ] || { echo "gpu-builds.sh: $dir has no libHeteroOpenCL" >&2; status=1; }
done
echo "built after $((SECONDS - start)) s"
exit $status
