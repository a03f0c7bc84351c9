#!/usr/bin/env bash
# Session 27 call D (one H100): quiet waits held only until the CPU part is done (a wait still
# running then goes on as NVIDIA's own), against HETERO_QUIET_WAITS=off in the same build. syr2k
# STANDARD as in call C, 4 interleaved rounds. Then which threads spin during a static split and in
# which library (pc_sample.c: ptrace samples of their instruction pointers), quiet on and off.
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
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for cfg in 0.05 0.06 0.07 default; do
    for q in on off; do
      if [ $cfg = default ]; then out=$(run HETERO_LOG=info HETERO_QUIET_WAITS=$q XDG_CACHE_HOME=/tmp/xdg-$q $p 2>&1)
      else out=$(run HETERO_LOG=info HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p 2>&1); fi
      echo "$out" | grep -E "split syr2k" | sed "s/^/  [$round $q $cfg] /" >> $OUT/syr2k-log.txt
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
  echo "== quiet $q: ticks per second per thread (100 = one core)" >> $OUT/threads.txt
  join /tmp/s1 /tmp/s2 | awk '{d=$4-$2; if (d > 5) print $1, d, $3}' | sort -k2 -nr >> $OUT/threads.txt
  for tid in $(join /tmp/s1 /tmp/s2 | awk '$4-$2 > 70 {print $1}'); do
    echo "-- thread $tid ($(cat /proc/$pid/task/$tid/comm)):" >> $OUT/threads.txt
    /tmp/pc_sample $pid $tid 40 | sed 's/+0x[0-9a-f]*$//' | sort | uniq -c | sort -nr >> $OUT/threads.txt
    /tmp/pc_sample $pid $tid 40 | sort | uniq -c | sort -nr | head -6 >> $OUT/threads.txt
  done
  wait
done
cat $OUT/threads.txt
