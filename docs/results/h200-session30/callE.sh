#!/usr/bin/env bash
# Session 30 call E (one H200): the merge kernels built with the split variants (this tree) against
# a22df58 (.base, built by the first split that merges). (1) syr2k LARGE, four processes per build
# against a fresh history cache of its own, and fresh NVIDIA and PoCL compile caches (CUDA_CACHE_PATH, POCL_CACHE_DIR), as on
# a fresh machine, the builds interleaved process by process; (2) the split candidates at LARGE
# through the bench runner (history kept between its processes): native GPU and default, this tree;
# (3) tests on NVIDIA + PoCL: the observability label, icd split suites, the engine's completion.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
rm -rf /tmp/xdg-* /tmp/nvcache-* /tmp/pocl-*
{
for r in 1 2 3 4; do
  for b in prev new; do
    dir=/tmp/hetero-$b
    out=$(h $dir XDG_CACHE_HOME=/tmp/xdg-$b CUDA_CACHE_PATH=/tmp/nvcache-$b POCL_CACHE_DIR=/tmp/pocl-$b HETERO_LOG=info $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform Hetero --device all --no-check 2>&1)
    echo "process $r $b $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') | $(echo "$out" | grep -oE 'split syr2k.*' | sed 's/5700 work-groups, //' | tr '\n' ';')"
  done
  echo "process $r native $(CUDA_CACHE_PATH=/tmp/nvcache-native $new/bench/polybench-syr2k --size LARGE --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
done
} > $OUT/syr2k-large.txt 2>&1
cut -c1-250 $OUT/syr2k-large.txt; echo "syr2k after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero
timeout 150 python3 bench/run --build $new --sizes LARGE --benchmarks syr2k,syrk,gemm,2mm,3mm,doitgen,gesummv \
  --repeat 3 --inner-repeat 3 --no-check --no-trace --configs native-gpu,hetero --out /tmp/large > $OUT/large.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"
cp /tmp/large/runs.csv $OUT/large-runs.csv 2>/dev/null
sed -n '/against the native GPU/,/geomean/p' /tmp/large/results.md 2>/dev/null
(cd $new && timeout $(( 560 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(split-1|split-2|split-give-up)$|^engine\.completion" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
