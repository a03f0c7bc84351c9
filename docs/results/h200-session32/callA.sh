#!/usr/bin/env bash
# Session 32 call A (one H200): backend program binaries kept between builds (this tree) against
# fba8124 (.base: every build compiles). Per build a fresh cache directory (XDG_CACHE_HOME: Hetero's
# history and kept binaries, and PoCL's own kernel cache). syr2k STANDARD, two sequences of six
# processes: 1-3 learn (--repeat 3), 4-6 --repeat 1 (kernel_ms is the first launch), each with its
# process's wall time and its backends' clBuildProgram calls; builds, native and held interleaved
# process by process. Then programs that launch each kernel once (gemm, atax, 2mm STANDARD): process
# wall time, native / held / both builds, three rounds after one warm-up. Then tests on NVIDIA + PoCL.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent "$@"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
builds() { grep -oE 'backend calls: [0-9]+ clBuildProgram \([A-Za-z ]+' | sed -E 's/backend calls: //; s/ clBuildProgram \(/ /' | tr '\n' ',' ; }
buildms() { grep -oE 'clBuildProgram \([^)]*\) [0-9.]+ us each' | sed -E 's/clBuildProgram \(([A-Z][a-z]+)[^)]*\) ([0-9.]+) us each/\1 \2us/' | tr '\n' ',' ; }
run() {  # build seq process repeat
  local t out; t=$(date +%s%N)
  out=$(h /tmp/hetero-$1 XDG_CACHE_HOME=/tmp/xdg-$1-$2 HETERO_COUNT_BACKEND_CALLS=on $new/bench/polybench-syr2k --size STANDARD --repeat $4 --platform Hetero --device all --no-check 2>&1)
  echo "seq $2 process $3 $1 $(echo "$out" | grep -oE 'kernel_ms=[0-9.]+') wall_ms=$(ms $t) builds: $(echo "$out" | buildms)"
}
rm -rf /tmp/xdg-*
{
for q in 1 2; do
  for r in 1 2 3 4 5 6; do
    rep=3; [ $r -ge 4 ] && rep=1
    run prev $q $r $rep
    run new $q $r $rep
    if [ $r -ge 4 ]; then
      t=$(date +%s%N); k=$($new/bench/polybench-syr2k --size STANDARD --repeat 1 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')
      echo "seq $q process $r native $k wall_ms=$(ms $t)"
      t=$(date +%s%N); k=$(h /tmp/hetero-new XDG_CACHE_HOME=/tmp/xdg-held HETERO_DEVICES=gpu $new/bench/polybench-syr2k --size STANDARD --repeat 1 --platform Hetero --device all --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+')
      echo "seq $q process $r held $k wall_ms=$(ms $t)"
    fi
  done
done
} > $OUT/syr2k-first-launch.txt 2>&1
cut -c1-200 $OUT/syr2k-first-launch.txt; echo "syr2k after $((SECONDS - t0)) s"
{
for p in gemm atax 2mm; do
  for round in 0 1 2 3; do
    for c in native held prev new; do
      t=$(date +%s%N)
      case $c in
        native) k=$($new/bench/polybench-$p --size STANDARD --repeat 1 --platform NVIDIA --device gpu --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
        held) k=$(h /tmp/hetero-new XDG_CACHE_HOME=/tmp/xdg-once-held HETERO_DEVICES=gpu $new/bench/polybench-$p --size STANDARD --repeat 1 --platform Hetero --device all --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
        *) k=$(h /tmp/hetero-$c XDG_CACHE_HOME=/tmp/xdg-once-$c $new/bench/polybench-$p --size STANDARD --repeat 1 --platform Hetero --device all --no-check 2>&1 | grep -oE 'kernel_ms=[0-9.]+');;
      esac
      echo "$p round $round $c $k wall_ms=$(ms $t)"
    done
  done
done
} > $OUT/launch-once.txt 2>&1
grep -v "round 0" $OUT/launch-once.txt; echo "once after $((SECONDS - t0)) s"
(cd $new && timeout $(( 560 - (SECONDS - t0) )) ctest -j8 -R "kept-binaries|kept binaries|^engine\.auto|^icd\.(split-1|split-give-up)$|^observability\." --output-on-failure > $OUT/ctest.txt 2>&1
 echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest.txt | head -20)
(cd $new && h $new XDG_CACHE_HOME=/tmp/xdg-nvtest HETERO_DEVICES=nvidia:0 timeout 60 test/icd/hetero_icd_tests "[.kept-binaries]" > $OUT/kept-nvidia.txt 2>&1; echo "kept-binaries on nvidia:0 rc=$?"; tail -3 $OUT/kept-nvidia.txt)
echo "all after $((SECONDS - t0)) s"
