#!/usr/bin/env bash
# Session 23 call C (one H100): syr2k STANDARD, the one program whose real ideal pays. (1) The split
# sides alone at CPU shares 0.04-0.08, interleaved, 3 rounds (where the real ideal's optimum is);
# (2) traces of the static split at 0.05 and 0.07 (where its time goes: call B measured 9.1-11.1 ms
# at 0.05 and 12.8-18 ms at 0.07 against 9.25 native and max(T_gpu, T_cpu) of the sides 8.7).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "built after $((SECONDS - t0)) s"
rm -rf ~/.cache/hetero
lib=$(head -1 $new/vendors/hetero.icd)
hetero() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=$new/vendors HETERO_LOG=info "$@" --platform Hetero --device all --no-check; }
native() { env -u OCL_ICD_VENDORS "$@" --platform NVIDIA --device gpu --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 3"
{
for round in 1 2 3; do
  echo "round $round native $(native $p 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
  for s in 0.04 0.05 0.06 0.07 0.08; do
    for side in gpu cpu; do
      echo "round $round $side-part-$s $(HETERO_CPU_SHARE=$s HETERO_TEST_SPLIT_ONLY=$side hetero $p 2>&1 | grep -oE 'kernel_ms=[0-9.]+')"
    done
  done
done
} > $OUT/syr2k-sides.txt 2>&1
echo "sides done after $((SECONDS - t0)) s"; cat $OUT/syr2k-sides.txt
for s in 0.05 0.07; do
  HETERO_TRACE=$OUT/syr2k-split-$s.json HETERO_CPU_SHARE=$s hetero $p > $OUT/syr2k-split-$s.log 2>&1
  grep -E "kernel_ms|split syr2k" $OUT/syr2k-split-$s.log
done
gzip $OUT/*.json; ls -la $OUT
