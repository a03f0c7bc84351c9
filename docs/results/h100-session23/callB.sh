#!/usr/bin/env bash
# Session 23 call B (one H100): (1) what Hetero's split engine gives syr2k, the one program whose
# real ideal pays at STANDARD (call A: +5.9 % at a CPU share of 0.05), at fixed CPU shares near that
# optimum, against native and the default, interleaved, 3 rounds; (2) the real ideal at LARGE for the
# programs whose textbook ideal gains 4 % or more at STANDARD and whose GPU is not launch-bound.
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
{
for size in STANDARD LARGE; do
  for round in 1 2 3; do
    for cfg in native default 0.03 0.05 0.07 0.10; do
      p="$new/bench/polybench-syr2k --size $size --repeat 3"
      case $cfg in
        native) out=$(native $p 2>&1) ;;
        default) out=$(hetero $p 2>&1) ;;
        *) out=$(HETERO_CPU_SHARE=$cfg hetero $p 2>&1) ;;
      esac
      echo "syr2k $size round=$round cfg=$cfg $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+|total_ms=[0-9.]+' | tr '\n' ' ') $(echo "$out" | grep -oE 'work_groups_(total|cpu)=[0-9]+|bytes_(host_to_device|device_to_host|between_devices)=[0-9]+|launches_split_discrete=[0-9]+' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k-static.txt 2>&1
echo "static done after $((SECONDS - t0)) s"; cat $OUT/syr2k-static.txt | head -50
timeout $(( 585 - (SECONDS - t0) )) python3 bench/run --build $new --sizes LARGE \
  --benchmarks syr2k,syrk,doitgen,gesummv,mvt,gemver,atax,bicg --repeat 1 \
  --configs native-gpu,native-cpu,hetero,gpu-part-0.0,gpu-part-0.02,gpu-part-0.05,gpu-part-0.1,cpu-part-0.02,cpu-part-0.05,cpu-part-0.1 \
  --no-check --no-trace --timeout 60 --out $OUT/large > $OUT/large.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"
tail -14 $OUT/large.log
