#!/usr/bin/env bash
# Session 46 call 1 (GPU machine): issue 15's launch-bound programs on main (5c4b1cf), native GPU,
# held to the GPU (HETERO_DEVICES=gpu) and default, interleaved round by round.
# Part 1, adi LARGE (200,000 launches of tiny kernels, 1.28x held on the H200 in session 40): which
# of Hetero's habits costs: the launch pipe (HETERO_SUBMIT_THREAD=off), its flush every 16th
# launch (HETERO_TEST_FLUSH_EVERY=0), against native launches made from another thread
# (call_clock's CALL_CLOCK_ASYNC=1, with the preload alone beside it); one diagnostic process each of
# held and native with the program's own calls timed (call_clock) and Hetero's NVIDIA calls counted.
# Part 2: the table, STANDARD and LARGE, fastest of two runs a process, until the time guard.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
lscpu | grep -E "^(Model name|NUMA node|CPU\(s\))" 
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
h() { env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-b "$@"; }
mkdir -p /tmp/xdg-b
pre=$b/bench/libcall_clock.so
# Part 1
p="$b/bench/polybench-adi --size LARGE --repeat 1 --no-check --each-run"
for round in 1 2 3 4; do
  [ $((SECONDS - t0)) -gt 170 ] && { echo "time: part 1 stopped before round $round"; break; }
  echo "adi native $($p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "adi native-preload $(LD_PRELOAD=$pre $p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "adi native-async $(CALL_CLOCK_ASYNC=1 LD_PRELOAD=$pre $p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "adi held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  echo "adi held-noflush $(h HETERO_DEVICES=gpu HETERO_TEST_FLUSH_EVERY=0 $p --platform Hetero --device all 2>&1 | runs)"
  echo "adi held-nopipe $(h HETERO_DEVICES=gpu HETERO_SUBMIT_THREAD=off $p --platform Hetero --device all 2>&1 | runs)"
  echo "adi default $(h $p --platform Hetero --device all 2>&1 | runs)"
done 2>&1 | tee $OUT/adi-large.txt
echo "part 1 after $((SECONDS - t0)) s"
LD_PRELOAD=$pre $p --platform NVIDIA --device gpu > $OUT/adi-native-clock.txt 2>&1
h HETERO_DEVICES=gpu HETERO_COUNT_BACKEND_CALLS=on LD_PRELOAD=$pre $p --platform Hetero --device all > $OUT/adi-held-clock.txt 2>&1
h HETERO_COUNT_BACKEND_CALLS=on LD_PRELOAD=$pre $p --platform Hetero --device all > $OUT/adi-default-clock.txt 2>&1
echo "diagnostics after $((SECONDS - t0)) s"
# Part 2
for round in 1 2 3 4 5 6; do
  for size in STANDARD LARGE; do
    for prog in convolution-2d convolution-3d fdtd-2d gemm jacobi-1d jacobi-2d lu doitgen adi; do
      [ $prog = adi ] && [ $size = LARGE ] && continue
      [ $((SECONDS - t0)) -gt 540 ] && { echo "time: stopped in round $round"; break 3; }
      q="$b/bench/polybench-$prog --size $size --repeat 2 --no-check --each-run"
      echo "$prog $size native $($q --platform NVIDIA --device gpu 2>&1 | runs)"
      echo "$prog $size held $(h HETERO_DEVICES=gpu $q --platform Hetero --device all 2>&1 | runs)"
      echo "$prog $size default $(h $q --platform Hetero --device all 2>&1 | runs)"
    done
  done
  echo "round $round after $((SECONDS - t0)) s" >&2
done > $OUT/table.txt
python3 - $OUT/adi-large.txt $OUT/table.txt <<'PY' | tee $OUT/summary.txt
import sys, statistics, collections
for path in sys.argv[1:]:
    t = collections.defaultdict(list)
    for line in open(path):
        f = line.split()
        try:
            vals = [float(x) for x in f if x.replace('.', '', 1).isdigit()]
        except ValueError:
            continue
        key = tuple(x for x in f if not x.replace('.', '', 1).isdigit())
        if vals: t[key].append(min(vals))
    for key, v in sorted(t.items()):
        nat = t.get(key[:-1] + ("native",))
        ratio = " %.3fx native" % (statistics.median(v) / statistics.median(nat)) if nat else ""
        print("%-34s median %9.3f ms  min %9.3f  max %9.3f  n=%d%s" % (" ".join(key), statistics.median(v), min(v), max(v), len(v), ratio))
PY
echo "after $((SECONDS - t0)) s"
