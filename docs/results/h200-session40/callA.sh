#!/usr/bin/env bash
# Session 40 call A (one H200): a launch's upload from the pinned host copy sent without waiting
# (new, 8afcf62) against main 47fbe0e (base). (1) The tests the change touches, on NVIDIA + PoCL;
# (2) bench/tools/bandwidth.py with the base as baseline, twice (host to GPU: issue 16's >= 80 % of
# native pinned); (3) gesummv and atax LARGE default, the first run's total (--repeat 1) and the
# kernel time (--repeat 5), five interleaved rounds.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b --tests nvidia:0,pocl:0 /tmp/hetero-base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
timeout 170 ctest --test-dir $b -j4 -R "^host_copy\.|^icd\.(two-slots|split-1|split-2)$|^engine\.fixed-cost" > $OUT/ctest.txt 2>&1
echo "ctest rc=$? after $((SECONDS - t0)) s"; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest.txt | head
for round in 1 2; do
  timeout 150 python3 bench/tools/bandwidth.py --build $b --baseline /tmp/hetero-base --sizes 1,2,4,8,16,32,64 --reps 7 > $OUT/bandwidth-$round.md 2>&1
  echo "bandwidth $round rc=$? after $((SECONDS - t0)) s"
done
h() { local d=/tmp/hetero-$1; shift; env OCL_ICD_FILENAMES=$(head -1 $d/vendors/hetero.icd) OCL_ICD_VENDORS=$d/vendors HETERO_CONFIG=/nonexistent HETERO_HISTORY_CACHE=off "$@"; }
two() { grep -E 'kernel_ms' | sed -E 's/.*kernel_ms=([0-9.]+) total_ms=([0-9.]+).*/kernel_ms \1 total_ms \2/'; }
for round in $(seq 1 5); do
  for prog in gesummv atax; do
    for v in base new; do
      echo "first-$prog $v $(h $v $b/bench/polybench-$prog --size LARGE --repeat 1 --no-check --platform Hetero --device all 2>&1 | two)"
      echo "$prog $v $(h $v $b/bench/polybench-$prog --size LARGE --repeat 5 --no-check --platform Hetero --device all 2>&1 | two)"
    done
  done
done > $OUT/programs.txt 2>&1
echo "programs after $((SECONDS - t0)) s"
cat $OUT/bandwidth-1.md $OUT/bandwidth-2.md | grep -v done
python3 - $OUT/programs.txt <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 4 and len(w) % 2 == 0:
        for i in range(2, len(w), 2):
            try: d[(w[0], w[1])][w[i]].append(float(w[i + 1]))
            except ValueError: pass
for (prog, cfg), m in sorted(d.items()):
    print(prog.ljust(15), cfg.ljust(7), '  '.join(f"{k} {st.median(v):.4f} [{min(v):.4f}-{max(v):.4f}]" for k, v in m.items()))
PY
echo "after $((SECONDS - t0)) s"
