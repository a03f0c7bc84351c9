#!/usr/bin/env bash
# Session 39 call A (one H200): where convolution-3d's launches lose through Hetero held to the GPU
# (1.19-1.31x native at STANDARD and LARGE since session 30, though launch_cost's plain launches
# are within 0.2 us of native). convolution-3d: one 2-D launch per plane, six arguments set before
# each. (1) kernel time, ten interleaved rounds: native, held (pipe auto / off / on), default;
# (2) --profile: device time per launch and the device's gap between launches; (3) Hetero's backend
# calls per entry point, held; (4) perf, held and native, if the machine has it.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
for size in LARGE STANDARD; do
  p="$b/bench/polybench-convolution-3d --size $size --repeat 5 --no-check"
  for round in $(seq 1 10); do
    echo "$size native $($p --platform NVIDIA --device gpu 2>&1 | ms)"
    echo "$size held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | ms)"
    echo "$size held-pipe-off $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off $p --platform Hetero --device all 2>&1 | ms)"
    echo "$size held-pipe-on $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=on $p --platform Hetero --device all 2>&1 | ms)"
    echo "$size default $(h $p --platform Hetero --device all 2>&1 | ms)"
  done
done > $OUT/times.txt 2>&1
echo "times after $((SECONDS - t0)) s"
p="$b/bench/polybench-convolution-3d --size LARGE --repeat 5 --no-check --profile"
for round in 1 2 3; do
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | grep -E 'kernel_ms|profile' | tr '\n' ' ')"
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | grep -E 'kernel_ms|profile' | tr '\n' ' ')"
done | sed -E 's/platform=.*kernel_ms/kernel_ms/; s/max_rel.*polybench profile//' > $OUT/profile.txt 2>&1
echo "profile after $((SECONDS - t0)) s"
h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on $b/bench/polybench-convolution-3d --size LARGE --repeat 5 --no-check --platform Hetero --device all > $OUT/calls.txt 2>&1
which perf nsys ncu > $OUT/tools.txt 2>&1
if command -v perf > /dev/null; then
  p="$b/bench/polybench-convolution-3d --size LARGE --repeat 40 --no-check"
  perf record -q -g -o /tmp/perf-native.data $p --platform NVIDIA --device gpu > /dev/null 2>&1
  h HETERO_DEVICES=gpu perf record -q -g -o /tmp/perf-held.data $p --platform Hetero --device all > /dev/null 2>&1
  for v in native held; do
    perf report -i /tmp/perf-$v.data --no-children --sort comm,dso,sym --stdio 2>/dev/null | grep -v "^$" | grep -E "^ +[0-9]" | head -60 > $OUT/perf-$v.txt
  done
fi
echo "perf after $((SECONDS - t0)) s"
python3 - $OUT/times.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 3: d[(w[0], w[1])].append(float(w[2]))
for k, v in sorted(d.items()):
    print(f"{k[0]:9s} {k[1]:14s} n={len(v):2d} median {st.median(v):7.3f} min {min(v):7.3f} max {max(v):7.3f}")
PY
cat $OUT/profile.txt
grep -E "NDRange|SetKernelArg|Flush|from [0-9]+ thread" $OUT/calls.txt | cut -c1-200
echo "after $((SECONDS - t0)) s"
