#!/usr/bin/env bash
# Session 34 call F (one H200): call E's launch and wait on fresh buffers with each round ending in a
# blocking read of the result (--read), as convolution-2d's phases do; natively, held and default,
# three processes each, interleaved; and convolution-2d itself, six interleaved rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for r in 1 2 3; do
  $new/bench/finish_after_launch --platform NVIDIA --rounds 30 --read | grep -E "mode=(finish|event)"
  h HETERO_DEVICES=gpu $new/bench/finish_after_launch --platform Hetero --rounds 30 --read | grep -E "mode=(finish|event)" | sed 's/^/held /'
  h $new/bench/finish_after_launch --platform Hetero --rounds 30 --read | grep -E "mode=(finish|event)" | sed 's/^/default /'
done
} > $OUT/finish-read.txt 2>&1
cat $OUT/finish-read.txt; echo "after $((SECONDS - t0)) s"
a="--size STANDARD --repeat 10 --no-check"
for r in 1 2 3 4 5 6; do
  echo "round $r native $($new/bench/polybench-convolution-2d $a --platform NVIDIA --device gpu 2>&1 | ms) held $(h HETERO_DEVICES=gpu $new/bench/polybench-convolution-2d $a --platform Hetero --device all 2>&1 | ms) default $(h $new/bench/polybench-convolution-2d $a --platform Hetero --device all 2>&1 | ms)"
done > $OUT/conv2d.txt 2>&1
cat $OUT/conv2d.txt; echo "after $((SECONDS - t0)) s"
