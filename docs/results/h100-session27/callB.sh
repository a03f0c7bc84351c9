#!/usr/bin/env bash
# Session 27 call B (one H100): which threads spin while a static split runs (call A's top: two
# threads at 100 % beside PoCL's sixteen)? perf samples per thread, with their stacks.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
which perf gdb eu-stack 2>&1 | head -5
new=/tmp/hetero-new
etc/gpu-builds.sh $new
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors "$@" --platform Hetero --device all --no-check; }
for cfg in 0.06 whole native; do
  case $cfg in
    native) $new/bench/polybench-syr2k --size STANDARD --repeat 600 --platform NVIDIA --device gpu --no-check > /dev/null 2>&1 & ;;
    whole) run HETERO_LOG=warn HETERO_HISTORY_CACHE=off HETERO_DEVICES=nvidia:0 $new/bench/polybench-syr2k --size STANDARD --repeat 600 > /dev/null 2>&1 & ;;
    *) run HETERO_LOG=warn HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $new/bench/polybench-syr2k --size STANDARD --repeat 400 > /dev/null 2>&1 & ;;
  esac
  sleep 4; pid=$(pgrep -f 'polybench-syr2k --size STANDARD --repeat [46]00' | head -1)
  ps -L -o tid,comm,pcpu -p $pid > $OUT/threads-$cfg.txt
  perf record -q -F 499 -g -p $pid -o /tmp/perf-$cfg.data -- sleep 2 > /dev/null 2>&1
  perf report -i /tmp/perf-$cfg.data --no-children --sort tid,dso,sym --stdio -g none 2>/dev/null | grep -v '^$' | head -70 > $OUT/perf-$cfg.txt
  perf report -i /tmp/perf-$cfg.data --no-children --sort tid,sym --stdio -G 2>/dev/null | grep -v '^$' | head -400 | tail -330 > $OUT/stacks-$cfg.txt
  wait
  echo "== $cfg after $((SECONDS - t0)) s"; head -40 $OUT/perf-$cfg.txt | cut -c1-160
done
