#!/usr/bin/env bash
# Session 28 call B (one H100): what keeps NVIDIA's own thread spinning during a split with quiet
# waits on (call A: one thread of NVIDIA's at 100 % beside PoCL's workers). (1) wait_cores with three
# more modes: a user event nothing waits for, that user event's status asked every 100 us, a pinned
# buffer mapped meanwhile; (2) a scratch build (.scratch: main with every backend completion callback
# and every wait on an unfinished user event logged, "DIAG", never committed) running syr2k STANDARD's
# static and planned splits; (3) the new build's split tests with quiet waits now the default.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new diag=/tmp/hetero-diag
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $diag=.scratch
$new/bench/wait_cores --platform NVIDIA --rounds 5 --ms 50 > $OUT/wait_cores.txt 2>&1
cat $OUT/wait_cores.txt
rm -rf ~/.cache/hetero /tmp/xdg-*
run() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 5"
for cfg in 0.05 default; do
  if [ $cfg = default ]; then run $diag HETERO_LOG=info HETERO_QUIET_WAITS=on XDG_CACHE_HOME=/tmp/xdg-diag $p > $OUT/diag-$cfg.txt 2>&1
  else run $diag HETERO_LOG=info HETERO_QUIET_WAITS=on HETERO_HISTORY_CACHE=off HETERO_CPU_SHARE=$cfg $p > $OUT/diag-$cfg.txt 2>&1; fi
  echo "== $cfg"; grep -E "DIAG" $OUT/diag-$cfg.txt | sed 's/pending=[0-9-]*//' | sort | uniq -c | sort -nr | head -20
  grep -E "quiet (begin|end)" $OUT/diag-$cfg.txt | sort | uniq -c | head; grep kernel_ms $OUT/diag-$cfg.txt
done
# Default quiet waits, on by default now: the split tests, and the fuzzer with quiet waits off.
cd $new && timeout $(( 580 - (SECONDS - t0) )) ctest -j6 -R "^(fuzz\.api\.split|fuzz\.api\.split-quiet|icd\.split-[123]|engine\.quiet-wait|engine\.auto-discrete|icd\.two-slots)$" --output-on-failure > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20
