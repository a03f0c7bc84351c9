#!/usr/bin/env bash
# Session 46 calls 4 and 5 (GPU machine): issue 16's table at LARGE (SIZE=STANDARD: call 5) for the programs that may split
# (syr2k, syrk, doitgen, 2mm, 3mm, gemm): the real ideal from each side of the static splits at CPU
# shares 0.02-0.2 run alone (two processes each), then native GPU and default, five processes each
# (the history kept between default's processes, a fresh cache directory), the bench runner.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
progs=${PROGS:-syr2k,syrk,doitgen,2mm,3mm,gemm}
size=${SIZE:-LARGE}
parts=gpu-part-0.02,gpu-part-0.05,gpu-part-0.1,gpu-part-0.2,cpu-part-0.02,cpu-part-0.05,cpu-part-0.1,cpu-part-0.2
rm -rf /tmp/xdg-large /tmp/ideal-* /tmp/default-* && mkdir -p /tmp/xdg-large
export XDG_CACHE_HOME=/tmp/xdg-large
# Per program its real ideal, then native GPU and default, so that what the time guard leaves out
# is whole programs (call 4 ran every ideal first).
for p in ${progs//,/ }; do
  [ $((SECONDS - t0)) -gt ${GUARD_S:-400} ] && { echo "time: $p and after left out"; break; }
  python3 bench/run --build $b --sizes $size --benchmarks $p --repeat 2 --configs native-cpu,$parts \
    --no-check --no-trace --timeout 60 --out /tmp/ideal-$p > $OUT/ideal-$p.txt 2>&1
  echo "ideal $p rc=$? after $((SECONDS - t0)) s"
  python3 bench/run --build $b --sizes $size --benchmarks $p --repeat 5 --configs native-gpu,hetero \
    --no-check --no-trace --timeout 60 --out /tmp/default-$p > $OUT/default-$p.txt 2>&1
  echo "default $p rc=$? after $((SECONDS - t0)) s"
done
python3 bench/run --from $(ls /tmp/ideal-*/runs.csv /tmp/default-*/runs.csv | paste -sd,) --out $OUT/$size > $OUT/$size-merged.txt 2>&1
cat /tmp/xdg-large/hetero/split-history-*.txt > $OUT/history.txt 2>/dev/null
rm -f $OUT/$size/*.png
mkdir -p /tmp/x/logs && for d in /tmp/ideal-* /tmp/default-*; do mkdir -p /tmp/x/$(basename $d) && cp $d/runs.csv $d/results.csv /tmp/x/$(basename $d)/; done
mv $OUT/ideal-*.txt $OUT/default-*.txt /tmp/x/logs/ 2>/dev/null; tar -czf $OUT/runner-$size.tar.gz -C /tmp/x . && rm -rf /tmp/x
grep '^|' $OUT/$size/results.md | head -90
echo "after $((SECONDS - t0)) s"
