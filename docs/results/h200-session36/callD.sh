#!/usr/bin/env bash
# Session 36 call D (one H200): the kept "whole, untimed" verdict (this tree) against main a6f598c
# (.base: every launch of a splittable kernel decided afresh). (1) launch_cost.py with 1,024
# work-groups per launch (more than the H200's 132 compute units: auto mode's history decides
# every launch) and with 4 (fits at once), interleaved processes of native, held and GPU + CPU of
# both builds; (2) gemm STANDARD kernel_ms, interleaved processes; gemm's launch call in one
# process of each (call_clock); (3) tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
timeout 170 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 10 --patterns plain,event --groups 1024 > $OUT/launch_cost_1024.md 2>$OUT/launch_cost.err
cat $OUT/launch_cost_1024.md; echo "launch_cost 1024 after $((SECONDS - t0)) s"
timeout 100 python3 bench/tools/launch_cost.py --build $new --baseline $prev --rounds 6 --patterns plain,event --groups 4 > $OUT/launch_cost_4.md 2>>$OUT/launch_cost.err
cat $OUT/launch_cost_4.md; echo "launch_cost 4 after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
for round in $(seq 1 12); do
  [ $((SECONDS - t0)) -gt 390 ] && break
  a="--size STANDARD --repeat 10 --no-check"
  echo "gemm STANDARD native $($new/bench/polybench-gemm $a --platform NVIDIA --device gpu 2>&1 | ms)"
  for b in prev new; do
    echo "gemm STANDARD held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-gemm $a --platform Hetero --device all 2>&1 | ms)"
    echo "gemm STANDARD default-$b $(h /tmp/hetero-$b $new/bench/polybench-gemm $a --platform Hetero --device all 2>&1 | ms)"
  done
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
python3 - $OUT/programs.txt <<'PY' | tee $OUT/programs.md
import collections, statistics, sys
sys.path.insert(0, "bench/tools")
from tool_support import median_difference
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 4: t[(f[0] + " " + f[1], f[2])].append(float(f[3]))
configs = ["held-prev", "held-new", "default-prev", "default-new"]
print("| program | processes | native ms | " + " | ".join(c + " / native (95 %)" for c in configs) + " | default new / prev (95 %) |")
print("|---|---:|---:|" + "---|" * (len(configs) + 1))
for prog in dict.fromkeys(k[0] for k in t):
    nat = t[(prog, "native")]; m = statistics.median(nat)
    cells = []
    for c in configs:
        low, mid, high = median_difference(t[(prog, c)], nat)
        cells.append("%.3f (%.3f-%.3f)" % (1 + mid / m, 1 + low / m, 1 + high / m))
    pm = statistics.median(t[(prog, "default-prev")])
    low, mid, high = median_difference(t[(prog, "default-new")], t[(prog, "default-prev")])
    cells.append("%.3f (%.3f-%.3f)" % (1 + mid / pm, 1 + low / pm, 1 + high / pm))
    print("| %s | %d | %.3f | %s |" % (prog, len(nat), m, " | ".join(cells)))
PY
for b in prev new; do for c in held default; do echo "== gemm $c-$b"
  d=; [ $c = held ] && d=HETERO_DEVICES=gpu
  h /tmp/hetero-$b $d CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-gemm --size STANDARD --repeat 20 --no-check --platform Hetero --device all 2>&1 | grep -E "kernel_ms|clEnqueueNDRange|clFinish" | cut -c1-200
done; done > $OUT/calls.txt 2>&1; cat $OUT/calls.txt
(cd $new && timeout $(( 590 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(one-slot|two-slots|one-slot-piped|split-1)$|^engine\.|^platform_unit" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
