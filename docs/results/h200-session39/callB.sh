#!/usr/bin/env bash
# Session 39 call B (one H200): (1) bench/tools/bandwidth.py, never run on the H200: Hetero's
# migrations against native pinned transfers, both directions (issue 16's >= 80 %); (2) gesummv
# LARGE, whose default (GPU + CPU) stays 1.06-1.12x native while held is 1.02-1.04x: native, held and
# default with --profile (the kernel's device time, and the kernel time around it), eight interleaved
# rounds, the default with a history kept between its processes as a user's machine would; (3) one
# default run traced.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 200 python3 bench/tools/bandwidth.py --build $b --reps 5 > $OUT/bandwidth.md 2>&1
echo "bandwidth rc=$? after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
p="$b/bench/polybench-gesummv --size LARGE --repeat 5 --no-check --profile"
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+).*device_ms_per_run=([0-9.]+) launch_us_median=([0-9.]+).*/kernel_ms \1 device_ms \2 launch_us \3/'; }
rm -rf /tmp/xdg; h XDG_CACHE_HOME=/tmp/xdg $p --platform Hetero --device all > /dev/null 2>&1  # the history's first process
for round in $(seq 1 8); do
  echo "native $($p --platform NVIDIA --device gpu 2>&1 | one)"
  echo "held $(h HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | one)"
  echo "default $(h XDG_CACHE_HOME=/tmp/xdg $p --platform Hetero --device all 2>&1 | one)"
  echo "default-nohist $(h HETERO_HISTORY_CACHE=off $p --platform Hetero --device all 2>&1 | one)"
done > $OUT/gesummv.txt 2>&1
echo "gesummv after $((SECONDS - t0)) s"
h XDG_CACHE_HOME=/tmp/xdg HETERO_LOG=info HETERO_TRACE=$OUT/gesummv-default.json $b/bench/polybench-gesummv --size LARGE --repeat 5 --no-check --platform Hetero --device all > $OUT/traced.txt 2>&1
gzip -f $OUT/*.json
cat $OUT/bandwidth.md
python3 - $OUT/gesummv.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 7:
        for i in (1, 3, 5): d[w[0]][w[i]].append(float(w[i + 1]))
for cfg, m in d.items():
    print(cfg.ljust(15), '  '.join(f"{k} median {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
grep -E "kernel_ms|split|decid" $OUT/traced.txt | cut -c1-300 | head -20
echo "after $((SECONDS - t0)) s"
