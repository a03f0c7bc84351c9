#!/usr/bin/env bash
# Session 37 call K (one H200): call J found that without pinned host memory (HETERO_PINNED_BUDGET=0)
# held's second launches of place.c read from the L2 again. Does gesummv LARGE's gap (default
# 1.09-1.14x native, held 1.03-1.06x) close without it? Interleaved processes: native, held,
# default, each also with HETERO_PINNED_BUDGET=0.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
a="--size LARGE --repeat 5 --no-check"
for round in $(seq 1 12); do
  [ $((SECONDS - t0)) -gt 110 ] && break
  echo "gesummv LARGE native $($new/bench/polybench-gesummv $a --platform NVIDIA --device gpu 2>&1 | ms)"
  echo "gesummv LARGE held-prev $(h HETERO_DEVICES=gpu $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv LARGE held-new $(h HETERO_DEVICES=gpu HETERO_PINNED_BUDGET=0 $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv LARGE default-prev $(h $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv LARGE default-new $(h HETERO_PINNED_BUDGET=0 $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
# programs_table.py's "new" is HETERO_PINNED_BUDGET=0 here, "prev" the default budget.
python3 docs/results/h200-session37/programs_table.py $OUT/programs.txt | tee $OUT/programs.md
