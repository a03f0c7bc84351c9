#!/usr/bin/env bash
# Session 39 call C (one H200): gesummv LARGE's kernel runs 10 % longer on the GPU in default mode
# (GPU + CPU, never split: 6 work-groups) than held or native (call B: device 0.355 against 0.321 ms).
# Which of default's habits does it: pinned host copies (HETERO_PINNED_BUDGET=0), the split
# machinery (HETERO_SPLIT=off), the CPU slot itself (HETERO_DEVICES=gpu). --profile, ten
# interleaved rounds, no history (none of these launches splits).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
one() { grep -E 'kernel_ms|profile' | tr '\n' ' ' | sed -E 's/.*kernel_ms=([0-9.]+).*device_ms_per_run=([0-9.]+) launch_us_median=([0-9.]+).*/kernel_ms \1 device_ms \2 launch_us \3/'; }
for prog in gesummv atax; do
p="$b/bench/polybench-$prog --size LARGE --repeat 5 --no-check --profile"
for round in $(seq 1 10); do
  echo "$prog native $($p --platform NVIDIA --device gpu 2>&1 | one)"
  echo "$prog held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | one)"
  echo "$prog default $(h $p --platform Hetero --device all 2>&1 | one)"
  echo "$prog default-unpinned $(h HETERO_PINNED_BUDGET=0 $p --platform Hetero --device all 2>&1 | one)"
  echo "$prog default-split-off $(h HETERO_SPLIT=off $p --platform Hetero --device all 2>&1 | one)"
  echo "$prog held-unpinned $(h HETERO_DEVICES=gpu HETERO_PINNED_BUDGET=0 $p --platform Hetero --device all 2>&1 | one)"
done
done > $OUT/runs.txt 2>&1
echo "runs after $((SECONDS - t0)) s"
python3 - $OUT/runs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 8:
        for i in (2, 4, 6): d[(w[0], w[1])][w[i]].append(float(w[i + 1]))
for (prog, cfg), m in d.items():
    print(prog.ljust(8), cfg.ljust(18), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
echo "after $((SECONDS - t0)) s"
