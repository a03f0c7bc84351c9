#!/usr/bin/env bash
# On the GPU machine (device run, carry .device): builds transform/ and its tests against the
# machine's libclang and PoCL, runs the transform test suites, builds the corpus' variants on the
# NVIDIA GPU, and measures the abortable variant's cost there. Logs go to $OUT.
#   transform/tools/gpu_check.sh [--all-modes]   (--all-modes: every HETERO_ABORT_START_CHECK form)
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source .device/env.sh > "$OUT/env.log" 2>&1
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
grep "transform/" "$OUT/cmake.log"
cmake --build /tmp/b -j16 --target hetero-transform hetero-abort-cost hetero-variants-check test_transform_unit \
  test_transform > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
ctest --test-dir /tmp/b -R "^transform" -j8 --output-on-failure > "$OUT/ctest.log" 2>&1
tail -5 "$OUT/ctest.log"
/tmp/b/transform/hetero-variants-check test/transform/corpus/*.cl > "$OUT/variants_gpu.txt" 2>&1
grep -v " ok$" "$OUT/variants_gpu.txt"
modes=cached
[ "${1:-}" = "--all-modes" ] && modes="item group cached"
for mode in $modes; do
  echo "== start check: $mode" >> "$OUT/abort_cost_gpu.txt"
  HETERO_TRANSFORM_CACHE=off HETERO_ABORT_START_CHECK=$mode /tmp/b/transform/hetero-abort-cost --repeat 30 \
    >> "$OUT/abort_cost_gpu.txt" 2>&1
done
cat "$OUT/abort_cost_gpu.txt"
