#!/usr/bin/env bash
# Session 49 call 1 (GPU machine), this tree built with its tests on nvidia:0,pocl:0:
# 1. engine.auto-discrete and engine.auto-history (4419501: the test now launches until twelve
#    launches after the variants' build ended; not re-run on the GPU in session 48).
#    stress.split-after-main-ends-* (new).
# 2. Issue 16's cost 2 on the devices' clocks: syr2k STANDARD split adaptively at every launch
#    (history off), traced, with the abortable kernel, the CPU's chunks and the sends drawn as the
#    devices ran them (new "(device clock)" lanes); beside the static split at 0.02 and 0.05, the
#    CPU idle (HETERO_TEST_SPLIT_CPU_IDLE), held and native, untraced, two rounds; and adaptive with
#    the receive buffers copied before the kernel (HETERO_TEST_SPLIT_RECV_AT_START): session 48's
#    sends ended at the same 7.9 ms into every launch, whenever they started, as if the copy that
#    makes recv on the transfer queue waited for the running kernel. Base (.base, main 1025d0e:
#    recv copied whole from orig at the CPU's first send) against this tree (b36aef2: recv holds
#    only the span the CPU sent, no copy), interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-tests p0=/tmp/hetero-base
[ -e $b/icd/libHeteroOpenCL.so.1 ] && [ -e $p0/icd/libHeteroOpenCL.so.1 ] ||
  etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 $p0=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# 1.
ctest --test-dir $b --output-on-failure -R "^engine\.(auto-discrete|auto-history)$|^stress\.split-after-main-ends" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|Passed" $OUT/ctest.txt | tail -5
# 2.
runs() { grep -E '^polybench run=' | sed -E 's/.*kernel_ms=([0-9.]+).*/\1/' | tr '\n' ' '; }
lib=$(head -1 $b/vendors/hetero.icd); mkdir -p /tmp/v-new && echo $lib > /tmp/v-new/hetero.icd
h() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
lib0=$(ls $p0/icd/libHeteroOpenCL.so.*.*.* | head -1); mkdir -p /tmp/v-base && echo $lib0 > /tmp/v-base/hetero.icd
h0() { env OCL_ICD_FILENAMES=$lib0 OCL_ICD_VENDORS=/tmp/v-base HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
p="$b/bench/polybench-syr2k --size STANDARD --repeat 6 --no-check --each-run"
for round in 1 2; do
  echo "native-gpu $($p --platform NVIDIA --device gpu 2>&1 | runs)"
  echo "held $(h HETERO_DEVICES=gpu $p --platform Hetero --device all 2>&1 | runs)"
  h0 HETERO_LOG=info HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /tmp/always.txt 2>&1
  echo "base-always $(runs < /tmp/always.txt)"; grep "split syr2k" /tmp/always.txt | sed -E "s/^.*split syr2k/    split/"
  h HETERO_LOG=info HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all > /tmp/always.txt 2>&1
  echo "always $(runs < /tmp/always.txt)"; grep "split syr2k" /tmp/always.txt | sed -E "s/^.*split syr2k/    split/"
  echo "always-recv-at-start $(h HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_RECV_AT_START=1 $p --platform Hetero --device all 2>&1 | runs)"
  echo "always-cpu-idle $(h HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_TEST_SPLIT_CPU_IDLE=1 $p --platform Hetero --device all 2>&1 | runs)"
  for s in 0.02 0.05; do
    echo "static-$s $(h HETERO_CPU_SHARE=$s HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  done
done > $OUT/idle-cpu.txt 2>&1
echo "untimed part 2 after $((SECONDS - t0)) s"; grep -v "^    " $OUT/idle-cpu.txt
for what in base-always always always-recv-at-start static-0.02 always-cpu-idle; do
  run=h
  case $what in
    base-always) knobs=(HETERO_SPLIT=always); run=h0 ;;
    always) knobs=(HETERO_SPLIT=always) ;;
    static-0.02) knobs=(HETERO_CPU_SHARE=0.02) ;;
    always-cpu-idle) knobs=(HETERO_SPLIT=always HETERO_TEST_SPLIT_CPU_IDLE=1) ;;
    always-recv-at-start) knobs=(HETERO_SPLIT=always HETERO_TEST_SPLIT_RECV_AT_START=1) ;;
  esac
  echo "traced $what $($run "${knobs[@]}" HETERO_TRACE=/tmp/$what.json HETERO_SPLIT_BUILD=eager $p --platform Hetero --device all 2>&1 | runs)"
  { echo "=== $what"; python3 docs/results/h100-session49/timeline.py /tmp/$what.json syr2k; } >> $OUT/timelines.txt 2>&1
  gzip -c /tmp/$what.json > /tmp/trace-$what.json.gz
done > $OUT/traced.txt 2>&1
tar -cf $OUT/traces.tar -C /tmp trace-base-always.json.gz trace-always.json.gz trace-always-recv-at-start.json.gz trace-static-0.02.json.gz trace-always-cpu-idle.json.gz
echo "part 2 after $((SECONDS - t0)) s"; cat $OUT/traced.txt; grep -E "^===|^launch [34]|device clock" $OUT/timelines.txt | head -80
# 3. The first launches of a process (issue 15): first_launch.cpp (3mm MINI, per-call times) after
#    no warm-up, a marker, or another kernel's launch; native GPU, held to the GPU and default
#    (a cache directory its first process fills), twelve processes each, interleaved.
if [ $((SECONDS - t0)) -lt 420 ]; then
  g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -w -I bench/common -o /tmp/first_launch docs/results/h100-session49/first_launch.cpp -lOpenCL
  rm -rf /tmp/xdg-fl && mkdir -p /tmp/xdg-fl
  hd() { env OCL_ICD_FILENAMES=$lib OCL_ICD_VENDORS=/tmp/v-new HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-fl "$@"; }
  for i in $(seq 12); do
    for warm in none marker noop; do
      WARM=$warm /tmp/first_launch --platform NVIDIA --device gpu --repeat 2 | sed "s/^/native /"
      hd HETERO_DEVICES=gpu WARM=$warm /tmp/first_launch --platform Hetero --device all --repeat 2 | sed "s/^/held /"
      hd WARM=$warm /tmp/first_launch --platform Hetero --device all --repeat 2 | sed "s/^/default /"
    done
    [ $((SECONDS - t0)) -lt 560 ] || break
  done > /tmp/first-launch.txt 2>&1
  python3 - /tmp/first-launch.txt > $OUT/first-launch.txt <<'PY'
import re, sys, statistics as st
d = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) warm=(\w+) run=(\d) e1=(\S+) e2=(\S+) e3=(\S+) fin=(\S+) kernel=(\S+)", line)
    if m: d.setdefault((m[1], m[2], m[3]), []).append([float(x) for x in m.groups()[3:]])
print("config warm run n | median us: e1 e2 e3 fin kernel")
for k in sorted(d):
    v = d[k]
    print(*k, len(v), "|", *("%.1f" % st.median(x[i] for x in v) for i in range(5)))
PY
  echo "part 3 after $((SECONDS - t0)) s"; cat $OUT/first-launch.txt
fi
