#!/usr/bin/env bash
# Session 27 call C (one H100): quiet waits (while a split's CPU part may run, Hetero's waits block on
# the backend's completion callback instead of NVIDIA's spinning clWaitForEvents/clFinish), against
# the same build with HETERO_QUIET_WAITS=off (the waits as before). syr2k STANDARD, 4 interleaved
# rounds: native, static shares 0.05-0.07 and the default, each quiet on and off (the defaults each
# with a cache directory of their own, so each round starts from what earlier rounds learned). Then
# the threads' CPU use during a static split (now named), and the quiet-wait tests, on and off.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
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
for q in on off; do
  run HETERO_LOG=warn HETERO_QUIET_WAITS=$q HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=0.06 $new/bench/polybench-syr2k --size STANDARD --repeat 400 > /dev/null 2>&1 &
  sleep 4; pid=$(pgrep -f 'polybench-syr2k --size STANDARD --repeat 400' | head -1)
  echo "== quiet $q" >> $OUT/top.txt; top -H -b -n 2 -d 1 -p $pid | tail -30 >> $OUT/top.txt
  wait
done
grep -A14 'PID USER' $OUT/top.txt | cut -c1-110
cd $new
for q in on off; do
  HETERO_QUIET_WAITS=$q ctest -R 'engine.quiet-wait' --output-on-failure > $OUT/ctest-quiet-$q.txt 2>&1
  echo "quiet-wait test, HETERO_QUIET_WAITS=$q: rc=$?"; grep -E 'took|tests passed|FAILED|with expansion' -A2 $OUT/ctest-quiet-$q.txt | head -12
done
test/platform_unit/test_platform_unit 2>&1 | tail -3
timeout $(( 560 - (SECONDS - t0) )) ctest -j8 -R 'engine.quiet|fixed-cost|engine.auto-discrete|icd.split-1$|icd.two-slots$|icd.split-piped' --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed" $OUT/ctest.txt | head -12
