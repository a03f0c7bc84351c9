#!/usr/bin/env bash
# Session 35 call A (one H200): deferred events share the Hetero queue's reference to the backend
# queue (this tree, wip/deferred-queue-keepalive) against main 98980b9 (.base: each deferred event
# retains the backend queue). One-launch programs, kernel_ms, interleaved rounds of native, held and
# default of each build, medians and 95 % bootstrap intervals; the backend calls of one held run;
# then tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
for round in $(seq 1 40); do
  for p in convolution-2d gemm; do
    [ $((SECONDS - t0)) -gt 400 ] && break 2
    a="--size STANDARD --repeat 10 --no-check"
    echo "$p STANDARD native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      echo "$p STANDARD held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
      echo "$p STANDARD default-$b $(h /tmp/hetero-$b $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
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
        t[(f[0] + " " + f[1], f[2])].append(float(f[3]))
configs = ["held-prev", "held-new", "default-prev", "default-new"]
print("| program | processes | native ms | " + " | ".join(c + " / native (95 %)" for c in configs) + " | new / prev held (95 %) |")
print("|---|---:|---:|" + "---|" * (len(configs) + 1))
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]
    m = statistics.median(nat)
    cells = []
    for c in configs:
        low, mid, high = median_difference(t[(prog, c)], nat)
        cells.append("%.3f (%.3f-%.3f)" % (1 + mid / m, 1 + low / m, 1 + high / m))
    pm = statistics.median(t[(prog, "held-prev")])
    low, mid, high = median_difference(t[(prog, "held-new")], t[(prog, "held-prev")])
    cells.append("%.3f (%.3f-%.3f)" % (1 + mid / pm, 1 + low / pm, 1 + high / pm))
    print("| %s | %d | %.3f | %s |" % (prog, len(nat), m, " | ".join(cells)))
PY
for b in prev new; do echo "== convolution-2d held-$b, backend calls"
h /tmp/hetero-$b HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-convolution-2d --size STANDARD --repeat 10 --no-check --platform Hetero --device all 2>&1 | grep -E "kernel_ms|Marker|Flush|WaitFor|NDRange|CommandQueue" | cut -c1-160; done
(cd $new && timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(one-slot|two-slots|one-slot-piped|split-1)$|^engine\.completion" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
