#!/usr/bin/env bash
# Session 36 call C (one H200): gesummv LARGE's kernel after the default's writes. (1) natively and
# through Hetero, launch_after_writes --until-done --rows (gesummv's row-per-item reads of four
# 6.8 MB matrices) by how the writes were made; (2) gesummv LARGE, 12 processes each, interleaved:
# native, held, default, default with HETERO_TEST_WRITES_DIRECT=1 (writes straight to the GPU, not
# through the CPU's pinned host copy).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
{ $new/bench/launch_after_writes --bytes 6760000 --rounds 40 --until-done --rows
  echo "== held"; h HETERO_DEVICES=gpu $new/bench/launch_after_writes --platform Hetero --bytes 6760000 --rounds 30 --until-done --rows
  echo "== default"; h $new/bench/launch_after_writes --platform Hetero --bytes 6760000 --rounds 30 --until-done --rows
  echo "== default, writes direct"; h HETERO_TEST_WRITES_DIRECT=1 $new/bench/launch_after_writes --platform Hetero --bytes 6760000 --rounds 30 --until-done --rows
} > $OUT/rows.txt 2>&1
cat $OUT/rows.txt
echo "rows after $((SECONDS - t0)) s"
ms() { grep -oE 'kernel_ms=[0-9.]+ total_ms=[0-9.]+' | sed -E 's/kernel_ms=([0-9.]+) total_ms=([0-9.]+)/\1 \2/'; }
a="--size LARGE --repeat 5 --no-check"
for round in $(seq 1 12); do
  [ $((SECONDS - t0)) -gt 300 ] && break
  echo "gesummv native $($new/bench/polybench-gesummv $a --platform NVIDIA --device gpu 2>&1 | ms)"
  echo "gesummv held $(h HETERO_DEVICES=gpu $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv default $(h $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
  echo "gesummv direct $(h HETERO_TEST_WRITES_DIRECT=1 $new/bench/polybench-gesummv $a --platform Hetero --device all 2>&1 | ms)"
done > $OUT/programs.txt 2>&1
python3 - $OUT/programs.txt <<'PY' | tee $OUT/programs.md
import collections, statistics, sys
sys.path.insert(0, "bench/tools")
from tool_support import median_difference
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 4: t[(f[0], f[1])].append(float(f[2]))
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]; m = statistics.median(nat)
    print("%s: %d processes, native %.3f ms" % (prog, len(nat), m))
    for c in ("held", "default", "direct"):
        low, mid, high = median_difference(t[(prog, c)], nat)
        print("  %s %.3f (%.3f-%.3f)" % (c, 1 + mid / m, 1 + low / m, 1 + high / m))
PY
echo "after $((SECONDS - t0)) s"
