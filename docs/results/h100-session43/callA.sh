#!/usr/bin/env bash
# Session 43 call A (GPU machine, an H100 this session): the payback rule (a process splits a kernel
# only where the launches it is expected to have left gain back loading the variants and its first
# split) against a3be212 (base, .base, built with its own bench programs). (1) syrk and syr2k
# STANDARD, five processes in a row per build on a fresh cache directory of its own, --repeat 2 (the
# bench runner's inner repeat); (2) issue 15's table: the bench runner on all 21 PolyBench programs
# at STANDARD, native GPU and default (held to the GPU never splits: the rule changes nothing
# there), three processes each (auto mode's history kept between a configuration's processes, in a
# cache directory per build), base then new.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
for prog in syrk syr2k; do
  echo "$prog native: $($b/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform NVIDIA --device gpu 2>&1 | runs)"
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    c=/tmp/cache-a-$prog-$n; rm -rf $c; mkdir -p $c/pocl
    for proc in 1 2 3 4 5; do
      out=$(env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent \
            XDG_CACHE_HOME=$c POCL_CACHE_DIR=$c/pocl HETERO_LOG=info timeout 120 \
            $d/bench/polybench-$prog --size STANDARD --repeat 2 --no-check --each-run --platform Hetero --device all 2>&1)
      echo "$prog $n process $proc: $(echo "$out" | runs) $(echo "$out" | grep -oE 'launches_whole=[0-9]+ launches_split_discrete=[0-9]+')"
    done
    grep -h "^kernel" $c/hetero/split-history-*.txt 2>/dev/null | awk '{print "    history:", $2, "launches", $3, $NF}'
  done
done 2>&1 | tee $OUT/seq.txt
echo "sequences after $((SECONDS - t0)) s"
for d in $base $b; do
  n=$(basename $d | sed 's/hetero-//')
  configs=native-gpu,hetero  # held (hetero-gpu) never splits: the rule changes nothing there
  mkdir -p /tmp/xdg-$n
  XDG_CACHE_HOME=/tmp/xdg-$n HETERO_COMMIT=$n timeout 225 python3 bench/run --build $d --sizes STANDARD --benchmarks all \
    --repeat 3 --configs $configs --no-check --no-trace --timeout 60 --out $OUT/runner-$n > $OUT/runner-$n.txt 2>&1
  echo "runner $n rc=$? after $((SECONDS - t0)) s"
done
tar -czf $OUT/runner-STANDARD.tar.gz -C $OUT runner-base runner-new 2>/dev/null && rm -rf $OUT/runner-base $OUT/runner-new
