#!/usr/bin/env bash
# Session 32 call C (one H200), this tree (kept binaries bounded and hashed): where a program that
# launches its kernels once spends the wall time it spends over "held to the GPU" (call A: atax and
# 2mm 40-70 ms more). atax STANDARD, native / held / default, five rounds of process wall times,
# then one process of each under perf (samples by library) and default's backend calls. Then tests.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "build after $((SECONDS - t0)) s"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-once "$@"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
P="$new/bench/polybench-atax --size STANDARD --repeat 1 --no-check"
cmd() { case $1 in native) echo "$P --platform NVIDIA --device gpu";;  # (run through h(): Hetero alone, so native found no NVIDIA platform: its rows are void) held) echo "env HETERO_DEVICES=gpu $P --platform Hetero --device all";; default) echo "$P --platform Hetero --device all";; esac; }
{
for round in 0 1 2 3 4 5; do
  for c in native held default; do
    t=$(date +%s%N); k=$(h $(cmd $c) 2>&1 | grep -oE 'kernel_ms=[0-9.]+'); echo "round $round $c $k wall_ms=$(ms $t)"
  done
done
h HETERO_COUNT_BACKEND_CALLS=on $(cmd default) 2>&1 | grep -E "backend calls" | sort -t' ' -k2 | cut -c1-200
} > $OUT/once-wall.txt 2>&1
grep -v "round 0" $OUT/once-wall.txt | cut -c1-200
if command -v perf >/dev/null; then
  for c in native held default; do
    h perf record -q -F 4999 -o /tmp/perf-$c.data $(cmd $c) >/dev/null 2>&1
    echo "== $c"; perf report -i /tmp/perf-$c.data --sort dso --stdio 2>/dev/null | grep -vE "^#|^$" | head -12
  done > $OUT/once-perf.txt 2>&1
  cat $OUT/once-perf.txt
else echo "no perf"; fi
echo "measured after $((SECONDS - t0)) s"
(cd $new && timeout $(( 570 - (SECONDS - t0) )) ctest -j8 -L "engine|observability|platform_unit" -R "" > $OUT/ctest-labels.txt 2>&1
 echo "ctest labels rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-labels.txt | head -20)
(cd $new && timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -R "^icd\.(kept|split-[123]$|split-give-up|two-slots$)" > $OUT/ctest-icd.txt 2>&1
 echo "ctest icd rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-icd.txt | head -20)
