#!/usr/bin/env bash
# Session 34 call G (one H200): held to the GPU, the launch and wait after a read took about 10 us
# longer than without one (calls E, F). Is it the read's pinned pieces? Held with every blocking
# transfer direct (HETERO_TEST_TRANSFERS_DIRECT=1, a measuring knob of this tree) against held and
# native: finish_after_launch --read, three processes each; convolution-2d, eight interleaved rounds.
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
  $new/bench/finish_after_launch --platform NVIDIA --rounds 30 --read | grep -E "mode=finish"
  h HETERO_DEVICES=gpu $new/bench/finish_after_launch --platform Hetero --rounds 30 --read | grep -E "mode=finish" | sed 's/^/held /'
  h HETERO_DEVICES=gpu HETERO_TEST_TRANSFERS_DIRECT=1 $new/bench/finish_after_launch --platform Hetero --rounds 30 --read | grep -E "mode=finish" | sed 's/^/held-direct /'
done
} > $OUT/finish-read.txt 2>&1
cat $OUT/finish-read.txt; echo "after $((SECONDS - t0)) s"
a="--size STANDARD --repeat 10 --no-check"
for r in 1 2 3 4 5 6 7 8; do
  echo "round $r native $($new/bench/polybench-convolution-2d $a --platform NVIDIA --device gpu 2>&1 | ms) held $(h HETERO_DEVICES=gpu $new/bench/polybench-convolution-2d $a --platform Hetero --device all 2>&1 | ms) held-direct $(h HETERO_DEVICES=gpu HETERO_TEST_TRANSFERS_DIRECT=1 $new/bench/polybench-convolution-2d $a --platform Hetero --device all 2>&1 | ms)"
done > $OUT/conv2d.txt 2>&1
cat $OUT/conv2d.txt; echo "after $((SECONDS - t0)) s"
