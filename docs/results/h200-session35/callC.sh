#!/usr/bin/env bash
# Session 35 call C (one H200): a large non-blocking write submitted with nothing ahead of it still
# running goes through pinned pieces (this tree, wip/staged-writes) against main 791cac2 (.base:
# held to the GPU it went straight to NVIDIA from ordinary memory). Programs with 16-64 MiB inputs,
# kernel_ms and total_ms, interleaved rounds of native, held (both builds) and default (this tree),
# medians and 95 % bootstrap intervals; write_behind held (a write behind a running kernel must
# still go directly); the backend calls of one held run; then tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+ total_ms=[0-9.]+' | sed -E 's/kernel_ms=([0-9.]+) total_ms=([0-9.]+)/\1 \2/'; }
for round in $(seq 1 30); do
  for p in convolution-2d convolution-3d atax; do
    [ $((SECONDS - t0)) -gt 360 ] && break 2
    a="--size STANDARD --repeat 10 --no-check"
    echo "$p native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      echo "$p held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
    echo "$p default-new $(h $new $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
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
configs = ["held-prev", "held-new", "default-new"]
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
for r in 1 2 3; do
  echo "== write_behind round $r native"; $new/bench/write_behind --platform NVIDIA --mib 1,16,32,64
  for b in prev new; do echo "== write_behind round $r held-$b"; h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/write_behind --platform Hetero --mib 1,16,32,64; done
done > $OUT/write_behind.txt 2>&1
echo "write_behind after $((SECONDS - t0)) s"
for b in prev new; do echo "== convolution-2d held-$b, backend calls"
h /tmp/hetero-$b HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on CALL_CLOCK_FINISH_PERIOD=2 LD_PRELOAD=$new/bench/libcall_clock.so $new/bench/polybench-convolution-2d --size STANDARD --repeat 20 --no-check --platform Hetero --device all 2>&1 | grep -E "kernel_ms|Write|NDRange|Map|call_clock: (clEnqueueNDRange|clFinish|clEnqueueWrite)" | cut -c1-200; done > $OUT/calls.txt
(cd $new && timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -R "^observability\.|^icd\.(one-slot|one-slot-discrete|two-slots|one-slot-piped|split-1)$|^host_copy\.|^engine\.completion" --output-on-failure > $OUT/ctest.txt 2>&1
 echo "tests rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
