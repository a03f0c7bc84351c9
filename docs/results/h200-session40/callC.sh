#!/usr/bin/env bash
# Session 40 call C (one H200), main f5f1d54: where default mode (GPU + CPU) loses to held on the
# programs call B found (STANDARD: gemm 1.24x against 1.06x held, convolution-2d 1.21x against 0.97x,
# 3mm, adi, jacobi-1d). Five interleaved rounds of native, held and default with --profile (the
# launches' device time beside the kernel time), default with a history kept between its processes
# as the runner's were; then one default process of gemm and convolution-2d traced with HETERO_LOG=info.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+).*launches=([0-9]+) device_ms_per_run=([0-9.]+) launch_us_median=([0-9.]+) gap_us_median=([0-9.na]+).*/kernel_ms \1 launches \2 device_ms \3 launch_us \4 gap_us \5/'; }
rm -rf /tmp/xdg
for round in $(seq 1 5); do
  for prog in gemm convolution-2d 3mm jacobi-1d adi; do
    p="$b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --profile"
    echo "$prog native $($p --platform NVIDIA --device gpu 2>&1 | one)"
    echo "$prog held $(h HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu timeout 60 $p --platform Hetero --device all 2>&1 | one)"
    echo "$prog default $(h XDG_CACHE_HOME=/tmp/xdg timeout 60 $p --platform Hetero --device all 2>&1 | one)"
  done
done > $OUT/profile.txt 2>&1
echo "profile after $((SECONDS - t0)) s"
for prog in gemm convolution-2d; do
  h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=info HETERO_TRACE=$OUT/$prog-default.json $b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --platform Hetero --device all > $OUT/$prog-log.txt 2>&1
done
gzip -f $OUT/*.json
python3 - $OUT/profile.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    for i in range(2, len(w) - 1, 2):
        try: d[(w[0], w[1])][w[i]].append(float(w[i + 1]))
        except ValueError: pass
for (prog, cfg), m in d.items():
    print(prog.ljust(15), cfg.ljust(8), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
grep -E "split|probe|timed|decid|whole" $OUT/gemm-log.txt | cut -c1-300 | head -30
echo "after $((SECONDS - t0)) s"
