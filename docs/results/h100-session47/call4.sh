#!/usr/bin/env bash
# Session 47 call 4 (GPU machine): issue 15's table at LARGE for the programs session 46's held
# column did not cover (its call 1 ran the launch-bound ones): native GPU, held to the GPU, default,
# five rounds interleaved, the history kept between default's processes; the CPUs' steal sampled.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
( prev=$(awk '/^cpu /{print $2+$3+$4, $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat)
  while sleep 5; do cur=$(awk '/^cpu /{print $2+$3+$4, $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat)
    echo "$prev $cur" | awk -v t=$((SECONDS - t0)) '{d=$6-$3; if (d) printf "%4d s busy %5.1f %% steal %5.1f %%\n", t, 100*($4-$1)/d, 100*($5-$2)/d}'
    prev=$cur; done > $OUT/cpu-timeline.txt 2>&1 ) &
sampler=$!
rm -rf /tmp/xdg-c4 && mkdir -p /tmp/xdg-c4
XDG_CACHE_HOME=/tmp/xdg-c4 timeout $((${LIMIT_S:-570} - (SECONDS - t0))) python3 bench/run --build $b --sizes LARGE \
  --benchmarks ${PROGS:-2mm,3mm,atax,bicg,gemver,gesummv,mvt,syr2k,syrk,correlation,covariance,gramschmidt} --repeat ${ROUNDS:-5} \
  --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 60 --out /tmp/large12 > $OUT/large12.txt 2>&1
echo "large rc=$? after $((SECONDS - t0)) s"
kill $sampler 2>/dev/null
rm -f /tmp/large12/*.png; tar -czf $OUT/large12.tar.gz -C /tmp large12
grep '^|' /tmp/large12/results.md | head -30
awk '{print $7}' $OUT/cpu-timeline.txt | sort -n | awk '{a[NR]=$1} END {if (NR) printf "steal per 5 s: median %.1f %%, max %.1f %% (%d samples)\n", a[int((NR+1)/2)], a[NR], NR}'
echo "after $((SECONDS - t0)) s"
