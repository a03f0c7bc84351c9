#!/usr/bin/env bash
# On the GPU machine (device run, carry .device): builds transform/ and its tests against the
# machine's libclang and PoCL, runs the transform test suites, and measures the abortable
# variant's cost on the NVIDIA GPU. Logs go to $OUT.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source .device/env.sh > "$OUT/env.log" 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
grep "transform/" "$OUT/cmake.log"
cmake --build /tmp/b -j16 --target hetero-transform hetero-abort-cost test_transform_unit test_transform \
  > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
ctest --test-dir /tmp/b -R "^transform" -j8 --output-on-failure > "$OUT/ctest.log" 2>&1
tail -5 "$OUT/ctest.log"
# The start check in three forms (HETERO_ABORT_START_CHECK); variants are generated afresh for each.
for mode in item group cached; do
  echo "== start check: $mode" >> "$OUT/abort_cost_gpu.txt"
  HETERO_TRANSFORM_CACHE=off HETERO_ABORT_START_CHECK=$mode /tmp/b/transform/hetero-abort-cost --repeat 30 \
    >> "$OUT/abort_cost_gpu.txt" 2>&1
done
cat "$OUT/abort_cost_gpu.txt"
