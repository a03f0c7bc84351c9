#!/usr/bin/env bash
# Session 37 call A (one H200): do read-only backend buffers make NVIDIA's kernels sooner? (1)
# natively, launch_after_writes --until-done --rows (gesummv's reads of four 6.8 MB matrices) with
# the inputs CL_MEM_READ_ONLY and with --read-write (as Hetero made every backend copy), processes
# interleaved; (2) through Hetero held to the GPU, this tree (backend copies of read-only objects
# read-only) against main 7f5628b (.base: always read-write); (3) the memory-bound PolyBench
# programs at LARGE, interleaved processes: native, held and default of both builds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new prev=/tmp/hetero-prev
etc/gpu-builds.sh $new $prev=.base
echo "build after $((SECONDS - t0)) s"
h() { local b=$1; shift; env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg-$(basename $b) "$@"; }
law="--bytes 6760000 --rounds 15 --until-done --rows"
for round in 1 2 3 4; do
  echo "== native read-only"; $new/bench/launch_after_writes $law
  echo "== native read-write"; $new/bench/launch_after_writes $law --read-write
done > $OUT/rows_native.txt 2>&1
echo "native rows after $((SECONDS - t0)) s"
for round in 1 2; do for b in prev new; do
  echo "== held-$b"; h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/launch_after_writes --platform Hetero $law
done; done > $OUT/rows_hetero.txt 2>&1
echo "hetero rows after $((SECONDS - t0)) s"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
a="--size LARGE --repeat 5 --no-check"
for round in $(seq 1 12); do
  for p in gesummv atax bicg mvt gemver; do
    [ $((SECONDS - t0)) -gt 570 ] && break 2
    echo "$p LARGE native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    for b in prev new; do
      echo "$p LARGE held-$b $(h /tmp/hetero-$b HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
      echo "$p LARGE default-$b $(h /tmp/hetero-$b $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    done
  done
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
python3 docs/results/h200-session37/programs_table.py $OUT/programs.txt | tee $OUT/programs.md
for f in rows_native rows_hetero; do echo "== $f"; cat $OUT/$f.txt; done
