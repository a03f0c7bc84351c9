#!/usr/bin/env bash
# Session 45 call 1 (GPU machine): what the variants' build now prepares for a process's first split
# (a status word made and written, a split worker waiting) against main 473b2fa (base,
# .base). syr2k STANDARD, seven processes per build, base's and new's interleaved, each on a cache
# directory of its own build, --repeat 2: from process 4 on both runs split, run 1 being the
# process's first split. Then the GPU test subset on new.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT/logs
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
for prog in syr2k; do
  size=STANDARD
  echo "$prog $size native: $($b/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
  for d in $base $b; do n=$(basename $d | sed 's/hetero-//'); rm -rf /tmp/cache-b-$n; mkdir -p /tmp/cache-b-$n/pocl; done
  for proc in 1 2 3 4 5 6 7; do
    for d in $base $b; do
      n=$(basename $d | sed 's/hetero-//'); c=/tmp/cache-b-$n
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=debug timeout 120 \
            $d/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$out" > $OUT/logs/$prog-$size-$n-$proc.txt
      echo "$prog $size $n process $proc: $(echo "$out" | runs) $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+ ') $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%\)' | tr '\n' ' ') $(echo "$out" | grep -oE 'built with the program|split variants built in [0-9.]+ ms' | tr '\n' ' ')"
    done
  done
  echo "$prog $size native: $($b/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
done 2>&1 | tee $OUT/seq.txt
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $OUT/logs
echo "sequences after $((SECONDS - t0)) s"
# Issue 15: a profiling queue's launches with each flushed (HETERO_TEST_FLUSH_EVERY=1) under the
# default submit thread, against every 16th (the default) and native (session 43 measured 4.79
# against 6.40 only without the submit thread). Held to the GPU, five rounds interleaved.
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off HETERO_DEVICES=gpu "$@"; }
lc="$b/bench/launch_cost --launches 4096 --rounds 3 --patterns plain,profiling,profiling+event"
for round in 1 2 3 4 5; do
  $lc --platform NVIDIA 2>&1 | sed 's/^/native /'
  h $lc --platform Hetero 2>&1 | sed 's/^/every16 /'
  h HETERO_TEST_FLUSH_EVERY=1 $lc --platform Hetero 2>&1 | sed 's/^/each /'
done > $OUT/profiling.txt 2>&1
python3 - $OUT/profiling.txt <<'PY'
import sys, re, statistics, collections
t = collections.defaultdict(lambda: ([], []))
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) launch_cost .* pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) total_us=([0-9.]+)', line)
    if m:
        t[(m.group(2), m.group(1))][0].append(float(m.group(3))); t[(m.group(2), m.group(1))][1].append(float(m.group(4)))
for (pattern, config), (enq, tot) in sorted(t.items()):
    print("%-16s %-8s enqueue median %.2f us  total median %.2f us  (%d)" % (pattern, config, statistics.median(enq), statistics.median(tot), len(enq)))
PY
echo "launch costs after $((SECONDS - t0)) s"
cd $b && timeout 100 ctest -j8 -R "^engine\.auto-history$|^engine\.variants-built$|^host_copy\.split$|^icd\.(split-1|split-2)$" > $OUT/tests.txt 2>&1
grep -E "tests passed|tests failed|Failed|\*\*\*" $OUT/tests.txt | head -20
echo "after $((SECONDS - t0)) s"
