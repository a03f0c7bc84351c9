#!/usr/bin/env bash
# Session 44 call A (GPU machine): building the split variants with the program where the history
# says a kernel splits (SplitHistory::prebuildVariants) against 8dfd7ae (base, .base). syr2k and
# syrk at STANDARD and LARGE, seven processes in a row per build on a fresh cache directory of its
# own, --repeat 2 (the bench runner's inner repeat), native before and after; then per-launch costs.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
for size in STANDARD LARGE; do
for prog in syr2k syrk; do
  echo "$prog $size native: $($b/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    c=/tmp/cache-a-$prog-$size-$n; rm -rf $c; mkdir -p $c/pocl
    for proc in 1 2 3 4 5 6 7; do
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
            $d/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$out" > $OUT/log-$prog-$size-$n-$proc.txt
      echo "$prog $size $n process $proc: $(echo "$out" | runs) $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+ ') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\)' | tr '\n' ' ') $(echo "$out" | grep -oE 'built with the program|split variants built in [0-9.]+ ms' | tr '\n' ' ')"
    done
    grep -h "^kernel" $c/hetero/split-history-*.txt 2>/dev/null | awk '{print "    history:", $2, "launches", $3, $(NF-1), $NF}'
  done
  echo "$prog $size native: $($b/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
done
done 2>&1 | tee $OUT/seq.txt
echo "sequences after $((SECONDS - t0)) s"
h() { d=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
lc="--launches 4096 --rounds 3 --patterns plain,event"
for round in 1 2 3; do
  $b/bench/launch_cost $lc --platform NVIDIA | sed 's/^/native /'
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    h $d HETERO_DEVICES=gpu $b/bench/launch_cost $lc --platform Hetero | sed "s/^/$n-held /"
    h $d $b/bench/launch_cost $lc --platform Hetero | sed "s/^/$n-default /"
  done
done > $OUT/launch.txt 2>&1
python3 - $OUT/launch.txt <<'PY'
import sys, re, statistics, collections
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m: t[(m.group(2), m.group(1))].append(float(m.group(4)))
for (pattern, config), tot in sorted(t.items()):
    print("%-8s %-14s total median %.2f us %s" % (pattern, config, statistics.median(tot), tot))
PY
echo "after $((SECONDS - t0)) s"
