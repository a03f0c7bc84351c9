#!/usr/bin/env bash
# Session 30 call G (one H200): the review's mends (8444bd7: merge kernels prepared in discrete
# contexts only; the backend-calls programs merged). The observability label and engine.completion
# on NVIDIA + PoCL; syr2k LARGE, three processes against fresh history and compile caches.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "build after $((SECONDS - t0)) s"
(cd $new && timeout 90 ctest -j8 -R "^observability\.|^engine\.completion" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent "$@"; }
rm -rf /tmp/xdg /tmp/nvcache /tmp/pocl-cache
for r in 1 2 3; do
  echo "process $r $(h XDG_CACHE_HOME=/tmp/xdg CUDA_CACHE_PATH=/tmp/nvcache POCL_CACHE_DIR=/tmp/pocl-cache HETERO_LOG=info $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+|split syr2k.*ms$' | tr '\n' ' ')"
done | tee $OUT/syr2k-large.txt
echo "after $((SECONDS - t0)) s"
