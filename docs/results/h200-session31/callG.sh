#!/usr/bin/env bash
# Session 31 call G (one H200): adaptive chunks cut to end before the GPU gets to them (this tree,
# d5ec12b) against 101ca4d (.base: chunks double without bound). syr2k at STANDARD and LARGE, per
# build a fresh history and four processes of --repeat 3, builds and native interleaved process by
# process, two sequences each: the second process holds the adaptive probe. HETERO_LOG=info keeps
# each split's chunks. Then tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
run() {  # build size sequence process
  local out
  out=$(h /tmp/hetero-$1 XDG_CACHE_HOME=/tmp/xdg-$1-$2-$3 HETERO_LOG=info $new/bench/polybench-syr2k --size $2 --repeat 3 --platform Hetero --device all --no-check 2>&1)
  echo "$2 seq $3 process $4 $1 $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') | $(echo "$out" | grep -oE '^hetero: info: split syr2k.*' | sed -E 's/hetero: info: split syr2k//; s/[0-9]+ work-groups, //; s/ bytes moved//' | tr '\n' ';') | $(echo "$out" | grep -oE 'history [^ ]+: split [0-9.]+ ms, whole [0-9.]+ ms' | sed 's/history [^ ]*: //' | tr '\n' ';')"
}
rm -rf /tmp/xdg-*
{
for size in STANDARD LARGE; do
  for q in 1 2; do
    for r in 1 2 3 4; do
      run prev $size $q $r
      run new $size $q $r
      echo "$size seq $q process $r native $($new/bench/polybench-syr2k --size $size --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
    done
  done
done
} > $OUT/syr2k-sequences.txt 2>&1
cut -c1-230 $OUT/syr2k-sequences.txt; echo "syr2k after $((SECONDS - t0)) s"
(cd $new && timeout $(( 540 - (SECONDS - t0) )) ctest -j8 -R "^engine\.auto|^engine\.completion|^engine\.adaptive|split history|chunk deadline|^icd\.(split-1|split-2|split-give-up)$|^observability\." --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
