#!/usr/bin/env bash
# On the GPU machine: what each part of the default device costs launch-heavy programs, in one call
# of the device tool. Runs PolyBench programs natively and through Hetero in configurations that add
# one thing at a time (one GPU slot; GPU + PoCL with nothing split; two NVIDIA slots; without pinned
# memory; ...), interleaved program by program over several rounds (the machine is noisy), and prints
# the minimum kernel time of each. How session 12 found that a PoCL slot, not a second slot, costs
# adi and convolution-3d a third of their time (docs/results/h100-session12).
#   source .device/env.sh && etc/gpu-slot-cost.sh [programs] [rounds] [size]
# NATIVE_PLATFORM (default NVIDIA), DEVICE_TYPE (default gpu), SLOT_COST_BUILD (a build to use).
# Extra configurations: SLOT_COST_EXTRA="name=ENV=VALUE ENV=VALUE;name2=..." (e.g. a diagnostic switch,
# or another build: OCL_ICD_FILENAMES=/tmp/old/icd/libHeteroOpenCL.so.1); a name starting with
# native- runs natively with its settings (native-arginfo=POLYBENCH_EXTRA_BUILD_OPTIONS=-cl-kernel-arg-info). SLOT_COST_CONFIGS=a,b,...:
# only the configurations named, in that order. SLOT_COST_REPEAT: each run's --repeat (default 10).
# SLOT_COST_PREFIX: a command every run goes through (e.g. "taskset -c 0-7": the same cores each run).
# Results: $OUT (or /tmp/hetero-out)/slot_cost.txt, one line per run with kernel_ms and total_ms;
# a table for each of SLOT_COST_METRIC (default kernel_ms,total_ms: the kernels alone, then with the
# transfers, since time can move between them: docs/results/h100-session22), the minimum over
# rounds, and with SLOT_COST_STAT=median the median (on the H100 the minima of launch-bound
# programs scattered 20-40 % between calls: docs/results/h100-session21).
set -uo pipefail
programs=${1:-adi,convolution-3d,jacobi-1d,lu}
rounds=${2:-3}
size=${3:-STANDARD}
out=${OUT:-/tmp/hetero-out}; mkdir -p "$out"
build=${SLOT_COST_BUILD:-/tmp/hetero-slot-cost}  # an existing build is used as it is configured
native=${NATIVE_PLATFORM:-NVIDIA}; device=${DEVICE_TYPE:-gpu}
[ -f $build/CMakeCache.txt ] || cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null
cmake --build $build -j"$(nproc)" 2>&1 | grep -E "error:"
lib=$build/icd/libHeteroOpenCL.so.1
configs=(
  "native="
  "held=HETERO_DEVICES=gpu"
  "split-off=HETERO_SPLIT=off"
  "default="
  "two-nvidia-slots=HETERO_SPLIT=off HETERO_DEVICES=nvidia:0,nvidia:0"
  "unpinned=HETERO_SPLIT=off HETERO_PINNED_BUDGET=0"
  "no-view-lock=HETERO_SPLIT=off HETERO_BACKEND_VIEW_LOCK=off"
  "writes-direct=HETERO_SPLIT=off HETERO_TEST_WRITES_DIRECT=1"
)
IFS=';' read -r -a extra <<< "${SLOT_COST_EXTRA:-}"
configs+=("${extra[@]}")
if [ -n "${SLOT_COST_CONFIGS:-}" ]; then  # only these, in this order
  kept=()
  for want in ${SLOT_COST_CONFIGS//,/ }; do
    for c in "${configs[@]}"; do [ "${c%%=*}" = "$want" ] && kept+=("$c"); done
  done
  configs=("${kept[@]}")
fi
for r in $(seq "$rounds"); do
  for p in ${programs//,/ }; do
    for c in "${configs[@]}"; do
      name=${c%%=*}; settings=${c#*=}
      [ -z "$name" ] && continue
      if [ "${name%%-*}" = native ]; then  # native, or native-<x> with settings of its own
        # shellcheck disable=SC2086
        o=$(env $settings ${SLOT_COST_PREFIX:-} $build/bench/polybench-$p --platform "$native" --device $device --no-check --repeat "${SLOT_COST_REPEAT:-10}" --size "$size" 2>&1)
      else
        # shellcheck disable=SC2086
        o=$(env OCL_ICD_FILENAMES=$lib HETERO_CONFIG=/nonexistent $settings ${SLOT_COST_PREFIX:-} \
              $build/bench/polybench-$p --platform Hetero --device $device --no-check --repeat "${SLOT_COST_REPEAT:-10}" --size "$size" 2>&1)
      fi
      echo "round=$r program=$p config=$name $(echo "$o" | grep -oE '(kernel|total)_ms=[0-9.]*' | tr '\n' ' ')"
    done
  done
done | tee "$out/slot_cost.txt" | tail -n 3
python3 - "$out/slot_cost.txt" "${SLOT_COST_METRIC:-kernel_ms,total_ms}" "${SLOT_COST_STAT:-min}" <<'PY'
import sys, collections, math, statistics
stat = statistics.median if sys.argv[3] == 'median' else min
lines = [dict(x.split('=', 1) for x in line.split() if '=' in x) for line in open(sys.argv[1])]
for metric in sys.argv[2].split(','):
    runs = collections.defaultdict(list)
    order = []
    for f in lines:
        if metric not in f: continue
        if f['config'] not in order: order.append(f['config'])
        runs[(f['program'], f['config'])].append(float(f[metric]))
    programs = sorted({p for p, _ in runs})
    print('%s %s over rounds (each the min of --repeat N); ratio to native in brackets' % (stat.__name__, metric))
    def cell(p, c):
        v, n = runs.get((p, c)), runs.get((p, 'native'))
        if not v: return '-'
        return '%.3f (%.2fx)' % (stat(v), stat(v) / stat(n)) if n else '%.3f' % stat(v)
    print('%-16s' % 'program' + ''.join('%20s' % c for c in order))  # a row per program
    for p in programs:
        print('%-16s' % p + ''.join('%20s' % cell(p, c) for c in order))
    def geomean(c):
        r = [stat(runs[(p, c)]) / stat(runs[(p, 'native')]) for p in programs if runs.get((p, c)) and runs.get((p, 'native'))]
        return '%.3fx' % math.exp(sum(map(math.log, r)) / len(r)) if r else '-'
    print('%-16s' % 'geomean' + ''.join('%20s' % geomean(c) for c in order))
PY
