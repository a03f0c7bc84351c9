#!/usr/bin/env bash
# Session 47 call 2 (GPU machine): why the CPU side of syr2k's split is 2.5-3x slower than in
# session 23 (call 1: cpu-part-0.02 8.0-8.6 ms, cpu-part-0.05 17-21 ms; session 23 4.7-5.6 ms at
# 0.04). syr2k STANDARD, three rounds interleaved: PoCL natively, Hetero held to the CPU, the CPU
# side alone at 0.05 (lazy and eager variants, host copies unpinned, no submit thread), a static
# split at 0.05, each with main's build and with session 23's (f2240e5, carried as .base);
# the machine's CPUs; a trace and perf profile of the CPU side.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new old=/tmp/hetero-f2240e5
if [ -e $b/icd/libHeteroOpenCL.so.1 ]; then
  (cmake -S .base -B $old -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF && cmake --build $old -j16 --target HeteroOpenCL) > $OUT/build.txt 2>&1
else etc/gpu-builds.sh $b $old=.base > $OUT/build.txt 2>&1; fi
echo "build after $((SECONDS - t0)) s"; ls $old/icd/ | head -3
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core|Socket|NUMA|MHz"; cat /proc/loadavg; cat /sys/fs/cgroup/cpu.max 2>/dev/null; taskset -p $$; } > $OUT/machine.txt 2>&1
cat $OUT/machine.txt
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
# Each build alone in a vendors directory of its own (ocl-icd reads the directory, Khronos' loader the file name).
h() { lib=$1; shift; mkdir -p /tmp/v-$(basename $(dirname $(dirname $lib))); echo $lib > /tmp/v-$(basename $(dirname $(dirname $lib)))/hetero.icd
  env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-$(basename $(dirname $(dirname $lib))) HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off XDG_CACHE_HOME=/tmp/xdg-c2 "$@"; }
mkdir -p /tmp/xdg-c2
newlib=$(head -1 $b/vendors/hetero.icd); oldlib=$(ls $old/icd/libHeteroOpenCL.so* | head -1)
p="$b/bench/polybench-syr2k --size STANDARD --repeat 3 --no-check --each-run"
for round in 1 2 3; do
  echo "native-cpu - $($p --platform Portable --device cpu 2>&1 | runs)"
  for which in new old; do
    lib=$newlib; [ $which = old ] && lib=$oldlib
    echo "held-cpu $which $(h $lib HETERO_DEVICES=cpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "part-lazy $which $(h $lib HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "part-eager $which $(h $lib HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "part-unpinned $which $(h $lib HETERO_PINNED_BUDGET=0 HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "part-nopipe $which $(h $lib HETERO_SUBMIT_THREAD=off HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all 2>&1 | runs)"
    echo "static-0.05 $which $(h $lib HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 $p --platform Hetero --device all 2>&1 | runs)"
  done
  echo "native-gpu - $($p --platform NVIDIA --device gpu 2>&1 | runs)"
done > $OUT/syr2k.txt 2>&1
echo "rounds after $((SECONDS - t0)) s"
cat $OUT/syr2k.txt
h $newlib HETERO_LOG=info HETERO_TRACE=/tmp/part-new.json HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all > $OUT/part-new-log.txt 2>&1
h $newlib HETERO_LOG=info HETERO_TRACE=/tmp/static-new.json HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 $p --platform Hetero --device all > $OUT/static-new-log.txt 2>&1
h $oldlib HETERO_LOG=info HETERO_TRACE=/tmp/part-old.json HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.05 HETERO_TEST_SPLIT_ONLY=cpu $p --platform Hetero --device all > $OUT/part-old-log.txt 2>&1
tar -czf $OUT/traces.tar.gz -C /tmp part-new.json static-new.json part-old.json 2>/dev/null
if command -v perf >/dev/null; then
  for which in new old; do lib=$newlib; [ $which = old ] && lib=$oldlib
    h $lib HETERO_SPLIT_BUILD=eager HETERO_CPU_SHARE=0.2 HETERO_TEST_SPLIT_ONLY=cpu perf record -o /tmp/perf-$which.data -F 999 -g -- $b/bench/polybench-syr2k --size STANDARD --repeat 10 --no-check --platform Hetero --device all > /dev/null 2>&1
    perf report -i /tmp/perf-$which.data --no-children --sort comm,dso,symbol --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -40 > $OUT/perf-$which.txt
  done
  head -25 $OUT/perf-new.txt; head -25 $OUT/perf-old.txt
else echo "no perf"; fi
echo "after $((SECONDS - t0)) s"
