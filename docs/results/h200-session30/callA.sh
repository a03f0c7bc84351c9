#!/usr/bin/env bash
# Session 30 call A (one H200, the first on this kind): main as it stands (a22df58).
# (1) per-launch cost, native against Hetero held to the GPU and on GPU + CPU, 3 interleaved rounds;
# (2) all 21 PolyBench programs at STANDARD: native GPU, Hetero held to the GPU, Hetero default;
# (3) the tests the review's mend (Event::wait on a finished tail) has not been through on NVIDIA +
#     PoCL: the ICD suites, icd.split-give-up and the observability label, in the time left.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nproc
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "build after $((SECONDS - t0)) s"
timeout 100 python3 bench/tools/launch_cost.py --build $new --rounds 3 > $OUT/launch_cost.md 2>&1; tail -12 $OUT/launch_cost.md
echo "launch_cost after $((SECONDS - t0)) s"
timeout 330 python3 bench/run --build $new --sizes STANDARD --benchmarks all \
  --repeat 2 --inner-repeat 4 --no-check --no-trace --configs native-gpu,hetero-gpu,hetero --out /tmp/bench > $OUT/bench.log 2>&1
echo "bench rc=$? after $((SECONDS - t0)) s"; tail -3 $OUT/bench.log
cp /tmp/bench/results.md $OUT/standard-results.md 2>/dev/null; cp /tmp/bench/runs.csv $OUT/standard-runs.csv 2>/dev/null
cat $OUT/standard-results.md 2>/dev/null | head -40
(cd $new && timeout $(( 580 - (SECONDS - t0) )) ctest -j8 -R "^icd\.(one-slot|one-slot-discrete|two-slots|two-slots-piped|split-1|split-2|split-give-up)$|^observability\." --output-on-failure > $OUT/ctest-icd.txt 2>&1
 echo "icd+observability rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|\*\*\*|Failed|Timeout" $OUT/ctest-icd.txt | head -20)
