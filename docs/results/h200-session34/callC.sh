#!/usr/bin/env bash
# Session 34 call C (one H200): main's launch path against issue 15's targets with enough processes
# to see through NVIDIA's per-process launch cost (4.0 or 5.5 us, calls A-B): launch_cost.py with
# 20 interleaved processes per configuration and the median differences' 95 % bootstrap intervals;
# four launch-bound programs, 12 interleaved rounds of native, held and default, the same statistics.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
timeout 200 python3 bench/tools/launch_cost.py --build $new --rounds 20 --patterns plain,event,all-args > $OUT/launch_cost.md 2>$OUT/launch_cost.err
cat $OUT/launch_cost.md; echo "launch_cost after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
for round in $(seq 1 12); do
  for ps in "convolution-3d STANDARD" "convolution-2d STANDARD" "jacobi-1d LARGE" "adi STANDARD"; do
    [ $((SECONDS - t0)) -gt 520 ] && break 2
    set -- $ps; p=$1 s=$2
    a="--size $s --repeat 10 --no-check"
    echo "$p $s native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    echo "$p $s held $(h HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    echo "$p $s default $(h $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
  done
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
python3 - $OUT/programs.txt <<'PY' | tee $OUT/programs.md
import collections, statistics, sys
sys.path.insert(0, "bench/tools"); sys.path.insert(0, "bench")
from tool_support import median_difference
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 4:
        t[(f[0] + " " + f[1], f[2])].append(float(f[3]))
print("| program | processes | native ms | held / native (95 %) | default / native (95 %) |")
print("|---|---:|---:|---|---|")
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]
    cells = []
    for c in ("held", "default"):
        low, mid, high = median_difference(t[(prog, c)], nat)
        m = statistics.median(nat)
        cells.append("%.3f (%.3f-%.3f)" % (1 + mid / m, 1 + low / m, 1 + high / m))
    print("| %s | %d | %.3f | %s | %s |" % (prog, len(nat), statistics.median(nat), cells[0], cells[1]))
PY
