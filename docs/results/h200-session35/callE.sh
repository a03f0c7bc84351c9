#!/usr/bin/env bash
# Session 35 call E (one H200): main c31ca23 (this tree) against 98980b9 (.base: the session's start)
# where call D's two processes per configuration put Hetero above native at LARGE: gesummv and
# convolution-3d (--repeat 5); held and default of both builds, interleaved, kernel_ms and
# total_ms, medians and 95 % bootstrap intervals. No tests (call C ran them on this tree).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+ total_ms=[0-9.]+' | sed -E 's/kernel_ms=([0-9.]+) total_ms=([0-9.]+)/\1 \2/'; }
for round in $(seq 1 30); do
  for p in gesummv convolution-3d; do
    [ $((SECONDS - t0)) -gt 200 ] && break 2
    a="--size LARGE --repeat 5 --no-check"
    echo "$p native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      echo "$p held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
    for b in prev new; do
      echo "$p default-$b $(h /tmp/hetero-$b $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
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
        t[(f[0], f[1], 0)].append(float(f[2])); t[(f[0], f[1], 1)].append(float(f[3]))
configs = ["held-prev", "held-new", "default-prev", "default-new"]
for metric, name in ((0, "kernel_ms"), (1, "total_ms")):
    print("\n%s: ratio to native's median (95 %%)\n" % name)
    print("| program | processes | native ms | " + " | ".join(configs) + " | held new / prev |")
    print("|---|---:|---:|" + "---|" * (len(configs) + 1))
    for prog in dict.fromkeys(k[0] for k in t):
        nat = t[(prog, "native", metric)]
        m = statistics.median(nat)
        cells = []
        for c in configs:
            low, mid, high = median_difference(t[(prog, c, metric)], nat)
            cells.append("%.3f (%.3f-%.3f)" % (1 + mid / m, 1 + low / m, 1 + high / m))
        pm = statistics.median(t[(prog, "held-prev", metric)])
        low, mid, high = median_difference(t[(prog, "held-new", metric)], t[(prog, "held-prev", metric)])
        cells.append("%.3f (%.3f-%.3f)" % (1 + mid / pm, 1 + low / pm, 1 + high / pm))
        print("| %s | %d | %.3f | %s |" % (prog, len(nat), m, " | ".join(cells)))
PY
echo "after $((SECONDS - t0)) s"
