#!/usr/bin/env bash
# On the GPU machine: this tree against a baseline source tree, side by side in one call of the
# device tool, so before/after numbers come from the same machine and run interleaved.
#   source .device/env.sh && etc/gpu-compare.sh BASELINE_SRC PHASES [sizes] [benchmarks]
# BASELINE_SRC: another checkout's sources (e.g. `git archive <commit> | tar -x -C .base`, carried).
# PHASES: comma separated, of
#   tests   this tree's ICD, engine and observability tests with NVIDIA + PoCL as the two slots
#   launch  per-launch cost (bench/tools/launch_cost.c): native NVIDIA, baseline, this tree; held to
#           the GPU and GPU + CPU; three interleaved rounds
#   bench   every PolyBench program: native GPU, Hetero held to the GPU, Hetero default, baseline and
#           this tree alternating program by program; one run each
# Results go to $OUT (or /tmp/hetero-out): logs, launch_cost.txt, runs-baseline.csv, runs-new.csv
# (draw them anywhere with `bench/run --from`).
set -uo pipefail
base_src=$(cd "$1" && pwd)
phases=${2:-tests,launch,bench}
sizes=${3:-STANDARD}
benchmarks=${4:-all}
out=${OUT:-/tmp/hetero-out}; mkdir -p "$out"
new=/tmp/hetero-new; old=/tmp/hetero-old
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
has() { case ",$phases," in *",$1,"*) return 0;; esac; return 1; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 "$old=$base_src"

if has tests; then
  timeout "${TEST_SECONDS:-240}" ctest --test-dir $new -R "${CTEST_FILTER:-^icd\.|^engine\.|^observability\.|^install\.}" \
    --output-on-failure -j8 --timeout 230 > "$out/ctest.log" 2>&1
  echo "ctest rc=$? after $(elapsed) s"
  grep -E "tests passed|tests failed|\*\*\*|Failed" "$out/ctest.log" | head -30
fi

if has launch; then
  gcc -O2 -o /tmp/launch_cost bench/tools/launch_cost.c -lOpenCL
  for round in 1 2 3; do
    /tmp/launch_cost --platform NVIDIA --rounds 3 | sed "s/^/round=$round config=native /"
    for tree in baseline new; do
      lib=$([ $tree = new ] && echo $new || echo $old)/icd/libHeteroOpenCL.so.1
      for devices in gpu gpu,cpu; do
        env OCL_ICD_FILENAMES="$lib" HETERO_CONFIG=/nonexistent HETERO_DEVICES=$devices \
          /tmp/launch_cost --platform Hetero --rounds 3 | sed "s/^/round=$round config=$tree-$devices /"
      done
    done
  done > "$out/launch_cost.txt" 2>&1
  echo "launch cost done after $(elapsed) s"
  grep -E "pattern=(plain|event) " "$out/launch_cost.txt" | awk '{print $1, $2, $5, $7}' | sort -k3,3 -k2,2 | head -40
fi

if has bench; then
  list=$benchmarks
  [ "$list" = all ] && list=$(python3 bench/run --list 2>/dev/null | sed -n 's/^benchmarks: //p' | tr ' ' ',')
  [ -z "$list" ] && list=2mm,3mm,atax,bicg,correlation,covariance,doitgen,gemm,gemver,gesummv,gramschmidt,lu,mvt,syr2k,syrk,adi,convolution-2d,convolution-3d,fdtd-2d,jacobi-1d,jacobi-2d
  for p in ${list//,/ }; do
    python3 "$base_src/bench/run" --build $old --benchmarks "$p" --sizes "$sizes" --repeat 1 \
      --configs hetero-gpu,hetero --no-trace --out /tmp/bench-old-$p > /tmp/bench-old-$p.log 2>&1
    python3 bench/run --build $new --benchmarks "$p" --sizes "$sizes" --repeat 1 \
      --configs native-gpu,hetero-gpu,hetero --no-trace --out /tmp/bench-new-$p > /tmp/bench-new-$p.log 2>&1
    echo "$p done after $(elapsed) s"
  done
  for tree in old new; do
    first=1
    for f in /tmp/bench-$tree-*/runs.csv; do
      [ -f "$f" ] || continue
      if [ $first = 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
    done > "$out/runs-$([ $tree = new ] && echo new || echo baseline).csv"
  done
  cat /tmp/bench-*-*.log > "$out/bench.log" 2>/dev/null
fi
echo "all done after $(elapsed) s"
