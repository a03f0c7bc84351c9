#!/usr/bin/env bash
# Session 27 call F (one H100): quiet waits that poll the event (100 us sleeps, no completion
# callback), held until the CPU part is done, against HETERO_QUIET_WAITS=off in the same build.
# wait_cores for a 50 ms and a 2 ms kernel (how late NVIDIA's callbacks come); syr2k STANDARD, 5
# interleaved rounds (static 0.05 and 0.06, the default); which threads use the CPU during a static
# split, quiet on and off; the quiet-wait test on and off.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
{ $new/bench/wait_cores --platform NVIDIA --rounds 7 --ms 50; $new/bench/wait_cores --platform NVIDIA --rounds 15 --ms 2; } 2>&1 | tee $OUT/wait_cores.txt
rm -rf ~/.cache/hetero /tmp/xdg-*
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for cfg in 0.05 0.06 default; do
    for q in on off; do
      if [ $cfg = default ]; then out=$(run HETERO_LOG=info HETERO_QUIET_WAITS=$q XDG_CACHE_HOME=/tmp/xdg-$q $p 2>&1)
      else out=$(run HETERO_LOG=info HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k|history" | sed "s/^/  [$round $q $cfg] /" >> $OUT/syr2k-log.txt
      echo "round $round quiet=$q $cfg $(echo "$out" | ms) launches: $(echo "$out" | grep -oE 'split syr2k: .*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "syr2k after $((SECONDS - t0)) s"; cut -c1-200 $OUT/syr2k.txt
snap() { for t in /proc/$1/task/*; do echo "$(basename $t) $(sed 's/.*) //' $t/stat | awk '{print $12+$13}') $(tr ' ' _ < $t/comm)"; done | sort -n; }
for q in on off; do
  run HETERO_LOG=warn HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.06 $new/bench/polybench-syr2k --size STANDARD --repeat 500 > /dev/null 2>&1 &
  sleep 4; pid=$(pgrep -f 'polybench-syr2k --size STANDARD --repeat 500' | head -1)
  snap $pid > /tmp/s1; sleep 1; snap $pid > /tmp/s2
  echo "== quiet $q: ticks per second per thread (100 = one core), main thread $pid" >> $OUT/threads.txt
  join /tmp/s1 /tmp/s2 | awk '{d=$4-$2; if (d > 5) print $1, d, $3}' | sort -k2 -nr >> $OUT/threads.txt
  wait
done
cat $OUT/threads.txt
cd $new
for q in on off; do
  HETERO_QUIET_WAITS=$q ctest -R 'engine.quiet-wait' --output-on-failure > $OUT/ctest-quiet-$q.txt 2>&1
  echo "quiet-wait test, HETERO_QUIET_WAITS=$q: rc=$?"; grep -E 'tests passed|with message' -A1 $OUT/ctest-quiet-$q.txt | head -6
done
echo "done after $((SECONDS - t0)) s"
