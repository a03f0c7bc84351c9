#!/usr/bin/env bash
# Session 40 call B (one H200), main f5f1d54 (new) and 47fbe0e (base): (1) bench/tools/bandwidth.py
# with the native launch column (a pinned write then a launch, less the launch), the base as
# baseline, 1-16 MiB, twice; (2) issue 15's table: the bench runner, all 21 programs at STANDARD,
# native GPU, Hetero held to the GPU and Hetero default, three processes each, interleaved.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
for round in 1 2; do
  timeout 100 python3 bench/tools/bandwidth.py --build $b --baseline /tmp/hetero-base --sizes 1,2,4,8,16 --reps 9 > $OUT/bandwidth-$round.md 2>&1
  echo "bandwidth $round rc=$? after $((SECONDS - t0)) s"
done
HETERO_COMMIT=f5f1d54 timeout 420 python3 bench/run --build $b --sizes STANDARD --benchmarks all --repeat 3 \
  --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 40 --out $OUT/standard > $OUT/runner.txt 2>&1
echo "runner rc=$? after $((SECONDS - t0)) s"
tar -czf $OUT/standard.tar.gz -C $OUT standard && rm -rf $OUT/standard
grep -v done $OUT/bandwidth-1.md $OUT/bandwidth-2.md | grep "^\S*| [0-9]" | cut -c1-400
tail -40 $OUT/runner.txt
echo "after $((SECONDS - t0)) s"
