#!/usr/bin/env bash
# Session 29 call D (one GPU): call C again with more rounds, and the default (planned) split too:
# does PoCL with fewer threads than the machine's 16 cores (POCL_CPU_MAX_CU_NUM=15, 14) do syr2k's
# share sooner and more evenly beside NVIDIA's spinning thread and the application's? 5 interleaved
# rounds: native; static shares 0.05 and 0.07, and the default, each with 16, 15 and 14 PoCL threads.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
run() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@" --platform Hetero --device all --no-check; }
p="$new/bench/polybench-syr2k --size STANDARD --repeat 10"
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
{
for round in 1 2 3 4 5; do
  echo "round $round native $($p --platform NVIDIA --device gpu --no-check 2>&1 | ms)"
  for s in 0.05 0.07 default; do
    for cu in 16 15 14; do
      share="HETERO_CPU_SHARE=$s"; [ $s = default ] && share=""
      out=$(run POCL_CPU_MAX_CU_NUM=$cu HETERO_LOG=debug $share $p 2>&1)
      echo "round $round share=$s cu=$cu $(echo "$out" | ms) cpu_us_per_1000: $(echo "$out" | grep -oE 'CPU [0-9.]+ us per 1000' | grep -oE '[0-9.]+ ' | tr -d '\n') launches: $(echo "$out" | grep -oE 'split syr2k.*' | grep -oE '[0-9.]+ ms$' | cut -d' ' -f1 | tr '\n' ' ') cpu%: $(echo "$out" | grep -oE 'CPU did [0-9]+ \([0-9.]+%' | grep -oE '[0-9.]+%' | tr '\n' ' ')"
    done
  done
done
} > $OUT/syr2k.txt 2>&1
echo "rounds after $((SECONDS - t0)) s"
python3 - $OUT/syr2k.txt <<'PY'
import re, sys, statistics, collections
d = collections.defaultdict(list); cpu = collections.defaultdict(list); med = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"round \d+ native ([0-9.]+)", line)
    if m: d["native"].append(float(m.group(1))); continue
    m = re.match(r"round \d+ (share=\S+ cu=\d+) ([0-9.]+) cpu_us_per_1000: ([0-9. ]*) launches: ([0-9. ]*)", line)
    if m:
        d[m.group(1)].append(float(m.group(2)))
        cpu[m.group(1)] += [float(x) for x in m.group(3).split()]
        l = [float(x) for x in m.group(4).split()][1:]
        if l: med[m.group(1)].append(statistics.median(l))
for k, v in d.items():
    c = sorted(cpu.get(k, []))
    print(f"{k:24s} kernel_ms median {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"
          + (f"  median split launch {statistics.median(med[k]):.3f}" if med.get(k) else "")
          + (f"  CPU us/1000 median {statistics.median(c):.0f} p90 {c[int(0.9*(len(c)-1))]:.0f}" if c else ""))
PY
