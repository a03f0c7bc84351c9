#!/usr/bin/env bash
# Session 48 call 1 (GPU machine).
# 1. The first process that wants a split no longer holds its launch for the variants' build
#    (this tree) against main 1392252 (.base): syr2k, syrk and gemm STANDARD, native GPU and
#    default, five processes each, the history and kept binaries in a fresh cache directory per
#    runner invocation (base, this tree, base, this tree); each run's log kept.
# 2. A split whose CPU does little (issue 16: <= 1.05x the whole launch + 0.1 ms): syr2k STANDARD
#    split adaptively at every launch (HETERO_SPLIT=always, variants built with the program,
#    history off), with PoCL given every core and one or four fewer (POCL_CPU_MAX_CU_NUM), beside
#    the static split at 0.05, held to the GPU and native; traces of the adaptive split.
# 3. gemm and 3mm STANDARD, twelve processes of native GPU, held to the GPU and default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new p0=/tmp/hetero-base
[ -e $b/icd/libHeteroOpenCL.so.1 ] && [ -e $p0/icd/libHeteroOpenCL.so.1 ] ||
  GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b $p0=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# 1.
for round in 1 2; do
  for which in base new; do
    dir=$b; [ $which = base ] && dir=$p0
    rm -rf /tmp/xdg-$which && mkdir -p /tmp/xdg-$which
    XDG_CACHE_HOME=/tmp/xdg-$which python3 bench/run --build $dir --sizes STANDARD --benchmarks syr2k,syrk,gemm \
      --repeat 5 --configs native-gpu,hetero --no-check --no-trace --timeout 60 --out /tmp/first-$which-$round \
      > /tmp/first-$which-$round.txt 2>&1
    echo "first $which round $round rc=$? after $((SECONDS - t0)) s"
    grep '^|' /tmp/first-$which-$round/results.md | head -8
    python3 - /tmp/first-$which-$round <<'PY'
import csv, sys, os, glob
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "runs.csv"))))
for r in rows:
    print("  ", r["benchmark"], r["config"], r["repeat"], r["kernel_ms"], "others", r.get("others_cpu_pct"), "steal", r.get("steal_pct"))
for f in sorted(glob.glob(os.path.join(d, "logs", "*hetero-*.txt"))):
    lines = [l.strip() for l in open(f, errors="replace") if "variants built" in l or "split " in l and "work-groups" in l]
    if lines: print("  ", os.path.basename(f), "|", " / ".join(lines[:3])[:300])
PY
  done
done > $OUT/first.txt 2>&1
tar -czf $OUT/first.tar.gz -C /tmp $(cd /tmp && ls -d first-*) 2>/dev/null
echo "part 1 after $((SECONDS - t0)) s"; grep -E "^first|^\|" $OUT/first.txt | head -40
# 2.
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
lib=$(head -1 $b/vendors/hetero.icd); mkdir -p /tmp/v-new && echo $lib > /tmp/v-new/hetero.icd
h() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 5 --no-check --each-run"
for round in 1 2; do
  echo "native-gpu $($p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  for cus in all 15 12; do
    cu=(); [ $cus != all ] && cu=(POCL_CPU_MAX_CU_NUM=$cus)
    h "${cu[@]}" HETERO_LOG=info HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /tmp/always.txt 2>&1
    echo "always cus=$cus $(runs < /tmp/always.txt)"; grep "split syr2k" /tmp/always.txt | sed -E "s/^.*split syr2k/    split/"
    echo "static-0.05 cus=$cus $(h "${cu[@]}" HETERO_CPU_SHARE=0.05 HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  done
  echo "native-cpu $($p --platform Portable --device cpu 2>&1 | runs)"
done > $OUT/idle-cpu.txt 2>&1
for cus in all 15; do
  cu=(); [ $cus != all ] && cu=(POCL_CPU_MAX_CU_NUM=$cus)
  h "${cu[@]}" HETERO_TRACE=/tmp/always-$cus.json HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /dev/null 2>&1
  gzip -c /tmp/always-$cus.json > $OUT/always-$cus.json.gz
done
echo "part 2 after $((SECONDS - t0)) s"; grep -v "^    " $OUT/idle-cpu.txt
# 3. gemm and 3mm STANDARD (a launch or three a process, 0.2 and 0.6 ms): session 47's default was
#    1.03x native there, 6 and 16 us, within the spread of five processes; here twelve.
rm -rf /tmp/xdg-gemm && mkdir -p /tmp/xdg-gemm
XDG_CACHE_HOME=/tmp/xdg-gemm timeout $((590 - (SECONDS - t0))) python3 bench/run --build $b --sizes STANDARD --benchmarks gemm,3mm \
  --repeat 12 --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 60 --out /tmp/gemm12 > $OUT/gemm12.txt 2>&1
echo "part 3 rc=$? after $((SECONDS - t0)) s"; grep '^|' /tmp/gemm12/results.md | head -12
rm -f /tmp/gemm12/*.png; tar -czf $OUT/gemm12.tar.gz -C /tmp gemm12
