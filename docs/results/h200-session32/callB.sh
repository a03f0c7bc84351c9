#!/usr/bin/env bash
# Session 32 call B (one H200): the split variants built on every slot at once, with the merge
# kernels from kept binaries (this tree, 4e7684a) against 63eb8d5 (.base: kept binaries, one build
# after another). syr2k STANDARD as in call A: per build a fresh cache directory, three sequences of
# six processes, 1-3 learning (--repeat 3), 4-6 --repeat 1 (kernel_ms is the first launch), builds,
# native and held interleaved process by process. A trace of one process 4 per build. Then tests on
# NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
buildms() { grep -oE 'clBuildProgram \([^)]*\) [0-9.]+ us each' | sed -E 's/clBuildProgram \(([A-Z][a-z]+)[^)]*\) ([0-9.]+) us each/\1 \2us/' | tr '\n' ',' ; }
run() {  # build seq process repeat
  local t out; t=$(date +%s%N)
  out=$(h /tmp/hetero-$1 XDG_CACHE_HOME=/tmp/xdg-$1-$2 HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-syr2k --size STANDARD --repeat $4 --platform Hetero --device all --no-check 2>&1)
  echo "seq $2 process $3 $1 $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') wall_ms=$(ms $t) builds: $(echo "$out" | buildms)"
}
rm -rf /tmp/xdg-*
{
for q in 1 2 3; do
  for r in 1 2 3 4 5 6; do
    rep=3; [ $r -ge 4 ] && rep=1
    run prev $q $r $rep
    run new $q $r $rep
    if [ $r -ge 4 ]; then
      t=$(date +%s%N); k=$($new/bench/polybench-syr2k --size STANDARD --repeat 1 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')
      echo "seq $q process $r native $k wall_ms=$(ms $t)"
    fi
  done
done
for b in prev new; do
  h /tmp/hetero-$b XDG_CACHE_HOME=/tmp/xdg-$b-1 HETERO_TRACE=$OUT/trace-$b.json $new/bench/polybench-syr2k --size STANDARD --repeat 1 --platform Hetero --device all --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+' | sed "s/^/traced $b /"
done
} > $OUT/syr2k-first-launch.txt 2>&1
cut -c1-200 $OUT/syr2k-first-launch.txt; echo "syr2k after $((SECONDS - t0)) s"
(cd $new && timeout $(( 560 - (SECONDS - t0) )) ctest -j8 -R "kept-binaries|kept binaries|^engine\.auto|^engine\.completion|^icd\.(split-1|split-3|split-give-up)$|^observability\." --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
echo "all after $((SECONDS - t0)) s"
