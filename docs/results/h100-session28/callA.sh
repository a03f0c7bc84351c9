#!/usr/bin/env bash
# Session 28 call A (one H100): the final quiet waits (session 27, never run here) and the staged-write
# fix (318aff1) on NVIDIA + PoCL. (1) Which threads still spin during a static split with quiet waits
# on and off (ticks per thread, pc_sample.c on the busy ones); (2) syr2k STANDARD, 5 interleaved
# rounds: native, default and static 0.05, quiet on and off; (3) tests: the write test's ICD suites,
# engine.quiet-wait, fuzz.api.split-quiet three times, then the split and unit labels.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 &
cc -O2 -o /tmp/pc_sample docs/results/h100-session27/pc_sample.c
wait
rm -rf ~/.cache/hetero /tmp/xdg-*
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors "$@" --platform Hetero --device all --no-check; }
snap() { for t in /proc/$1/task/*; do echo "$(basename $t) $(sed 's/.*) //' $t/stat | awk '{print $12+$13}') $(tr ' ' _ < $t/comm)"; done | sort -n; }
for q in on off; do
  run HETERO_LOG=warn HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.05 $new/bench/polybench-syr2k --size STANDARD --repeat 500 > /dev/null 2>&1 &
  sleep 4; pid=$(pgrep -f 'polybench-syr2k --size STANDARD --repeat 500' | head -1)
  snap $pid > /tmp/s1; sleep 1; snap $pid > /tmp/s2
  echo "== quiet $q: ticks per second per thread (100 = one core)" >> $OUT/threads.txt
  join /tmp/s1 /tmp/s2 | awk '{d=$4-$2; if (d > 5) print $1, d, $3}' | sort -k2 -nr >> $OUT/threads.txt
  for tid in $(join /tmp/s1 /tmp/s2 | awk '$4-$2 > 70 {print $1}'); do
    echo "-- thread $tid ($(cat /proc/$pid/task/$tid/comm)):" >> $OUT/threads.txt
    /tmp/pc_sample $pid $tid 40 | sed 's/+0x[0-9a-f]*$//' | sort | uniq -c | sort -nr | head -8 >> $OUT/threads.txt
  done
  kill $pid; wait
done
echo "threads after $((SECONDS - t0)) s"; cat $OUT/threads.txt
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for cfg in default 0.05; do
    for q in on off; do
      if [ $cfg = default ]; then out=$(run HETERO_LOG=debug HETERO_QUIET_WAITS=$q XDG_CACHE_HOME=/tmp/xdg-$q $p 2>&1)
      else out=$(run HETERO_LOG=debug HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|CPU .* us per 1000|plan" | sed "s/^/  [$round $q $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round quiet=$q $cfg $(echo "$out" | ms) cpu_us_per_1000: $(echo "$out" | grep -oE 'CPU [0-9.]+ us per 1000' | grep -oE '[0-9.]+ ' | tr -d '\n') launches: $(echo "$out" | grep -oE 'split syr2k.*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; cut -c1-160 $OUT/syr2k.txt
cd $new
ctest -R "^(icd\.(one-slot-discrete|two-slots|two-slots-writes-direct|split-2)|engine\.quiet-wait)$" --output-on-failure > $OUT/ctest-first.txt 2>&1
ctest -R "^fuzz\.api\.split-quiet$" --repeat until-fail:3 --output-on-failure >> $OUT/ctest-first.txt 2>&1
echo "first tests after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-first.txt | head
timeout $(( 585 - (SECONDS - t0) )) ctest -j8 -L "split|platform_unit" -E "corpus|icd.three-slots-split|icd.one-device-split|quiet|icd.split-2" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
