#!/usr/bin/env bash
# Session 46 call 3 (GPU machine): where default's extra 8-12 us on gemm STANDARD's one launch comes
# from, with splitting off (call 2: default-splitoff +8-12 us, held +1-4): the writes through the
# pinned host copy (HETERO_TEST_WRITES_DIRECT=1 writes each device's copy directly) or the host
# copies being pinned at all (HETERO_PINNED_BUDGET=0). Every process with call_clock preloaded:
# the launch call's median and the clFinish mean beside the kernel time; five runs a process.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-b "$@"; }
mkdir -p /tmp/xdg-b
pre=$b/bench/libcall_clock.so
one() {  # name, then the command: kernel ms of each run, the launch call's median us, clFinish's mean
  local name=$1; shift
  "$@" > /tmp/one.txt 2>&1
  echo "$name $(grep -E '^polybench run=' /tmp/one.txt | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' ')| launch $(grep -oE 'clEnqueueNDRangeKernel calls=[0-9]+ .*median_us=[0-9.]+' /tmp/one.txt | sed -E 's/.*median_us=//') finish $(grep -oE 'clFinish calls=[0-9]+ mean_us=[0-9.]+' /tmp/one.txt | sed -E 's/.*mean_us=//')"
}
q="$b/bench/polybench-gemm --size STANDARD --repeat 5 --no-check --each-run"
for round in 1 2 3 4 5 6; do
  one native env LD_PRELOAD=$pre $q --platform NVIDIA --device gpu
  one held h HETERO_DEVICES=gpu LD_PRELOAD=$pre $q --platform Hetero --device all
  one splitoff h HETERO_SPLIT=off LD_PRELOAD=$pre $q --platform Hetero --device all
  one splitoff-writesdirect h HETERO_SPLIT=off HETERO_TEST_WRITES_DIRECT=1 LD_PRELOAD=$pre $q --platform Hetero --device all
  one splitoff-unpinned h HETERO_SPLIT=off HETERO_PINNED_BUDGET=0 LD_PRELOAD=$pre $q --platform Hetero --device all
  one default h LD_PRELOAD=$pre $q --platform Hetero --device all
done | tee $OUT/gemm.txt
h HETERO_SPLIT=off HETERO_COUNT_BACKEND_CALLS=on LD_PRELOAD=$pre $q --platform Hetero --device all > $OUT/splitoff-diag.txt 2>&1
h HETERO_SPLIT=off HETERO_TEST_WRITES_DIRECT=1 HETERO_COUNT_BACKEND_CALLS=on LD_PRELOAD=$pre $q --platform Hetero --device all > $OUT/writesdirect-diag.txt 2>&1
python3 - $OUT/gemm.txt <<'PY' | tee $OUT/summary.txt
import sys, statistics, collections
k = collections.defaultdict(list); l = collections.defaultdict(list); f = collections.defaultdict(list)
for line in open(sys.argv[1]):
    left, _, right = line.partition("|")
    w = left.split()
    if len(w) < 3: continue
    k[w[0]].append(statistics.median(float(x) for x in w[2:]))  # runs 2-5
    r = right.split()
    try:
        l[w[0]].append(float(r[1])); f[w[0]].append(float(r[3]))
    except (IndexError, ValueError):
        pass
nat = statistics.median(k["native"])
for name in k:
    m = statistics.median(k[name])
    print("%-22s kernel (median of runs 2-5, then of processes) %.4f ms %+6.1f us | launch call median %.1f us | clFinish mean %.1f us" % (
        name, m, 1000 * (m - nat), statistics.median(l[name]) if l[name] else float("nan"), statistics.median(f[name]) if f[name] else float("nan")))
PY
echo "after $((SECONDS - t0)) s"
