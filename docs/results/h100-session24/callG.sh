#!/usr/bin/env bash
# Session 24 call G (one H100): 4ff4386 (plans only where the engine runs them) on NVIDIA + PoCL:
# syr2k STANDARD's default checked, 4 processes against one fresh cache directory, native between
# them; then the auto-mode, fixed-cost and unit tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero /tmp/xdg-*
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
for round in 1 2 3 4; do
  echo "round $round native $(env -u OCL_ICD_VENDORS $p --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  out=$(env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors XDG_CACHE_HOME=/tmp/xdg-new HETERO_LOG=info \
        $p --platform Hetero --device all 2>&1)
  echo "round $round default $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+|result=[A-Z]+' | tr '\n' ' ') $(echo "$out" | grep -oE 'split syr2k( \(planned\))?: 4096 work-groups, CPU did [0-9]+' | sed 's/: 4096 work-groups,//' | tr '\n' ';')"
done > $OUT/syr2k-default.txt 2>&1
cat $OUT/syr2k-default.txt
cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "engine.auto|fixed-cost|platform_unit|split history" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head -20
