#!/usr/bin/env bash
# Session 31 call D (one H200): a split kept only when it measured at least 1 % faster than running
# whole (this tree, c428b58+) against 980c29b (.base). syr2k at LARGE (where no share gains 2 %) and
# STANDARD (where a planned split gains about 4 %): per build a fresh history, five processes of
# --repeat 3 (the runner's --inner-repeat 3), the builds and native interleaved process by process,
# three sequences at LARGE and two at STANDARD. HETERO_LOG=info keeps each split's line.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
run() {  # build size sequence process
  local out
  out=$(h /tmp/hetero-$1 XDG_CACHE_HOME=/tmp/xdg-$1-$2-$3 HETERO_LOG=info $new/bench/polybench-syr2k --size $2 --repeat 3 --platform Hetero --device all --no-check 2>&1)
  echo "$2 seq $3 process $4 $1 $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') splits=$(echo "$out" | grep -c '^hetero: info: split syr2k') | $(echo "$out" | grep -oE 'history [^ ]+: split [0-9.]+ ms, whole [0-9.]+ ms' | sed 's/history [^ ]*: //' | tr '\n' ';')"
}
rm -rf /tmp/xdg-*
{
for size in LARGE STANDARD; do
  seqs=3; [ $size = STANDARD ] && seqs=2
  for q in $(seq 1 $seqs); do
    for r in 1 2 3 4 5; do
      run prev $size $q $r
      run new $size $q $r
      echo "$size seq $q process $r native $($new/bench/polybench-syr2k --size $size --repeat 3 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
    done
  done
done
} > $OUT/syr2k-sequences.txt 2>&1
cut -c1-200 $OUT/syr2k-sequences.txt; echo "after $((SECONDS - t0)) s"
