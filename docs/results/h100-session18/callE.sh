#!/usr/bin/env bash
# Session 18 call E (one H100): the application's blocking transfers through Hetero, old (ea36440,
# .base: staged writes, direct reads) against new (tree: staged reads too) and native, interleaved,
# nothing else running; then the same with one memcpy thread's worth (taskset to 2 cores) for scale.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$(date +%s)
new=/tmp/hetero-new base=/tmp/hetero-base
[ -f $new/icd/libHeteroOpenCL.so.1 ] || (cmake -S . -B $new -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $new -j16 2>&1 | grep -E "error:")
[ -f $base/icd/libHeteroOpenCL.so.1 ] || (cmake -S .base -B $base -DCMAKE_BUILD_TYPE=Release -DHETERO_BUILD_TESTS=OFF >/dev/null && cmake --build $base -j16 2>&1 | grep -E "error:")
echo "built after $(( $(date +%s)-t0 )) s"; nproc; uptime
for r in 1 2 3 4; do
  timeout 60 $new/bench/bandwidth --platform NVIDIA --modes ordinary,pinned --sizes 16,64,256 --reps 7 | sed "s/^/round=$r native /"
  for v in old new; do
    lib=$new; [ $v = old ] && lib=$base
    env OCL_ICD_FILENAMES=$lib/icd/libHeteroOpenCL.so.1 HETERO_CONFIG=/nonexistent HETERO_DEVICES=gpu,cpu HETERO_SPLIT=off \
      timeout 60 $new/bench/bandwidth --platform Hetero --modes ordinary --sizes 16,64,256 --reps 7 | sed "s/^/round=$r $v /"
  done
done 2>&1 | tee $OUT/bandwidth_old_new.txt | grep -c bandwidth
python3 - $OUT/bandwidth_old_new.txt <<'PY'
import re, sys, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    m = re.match(r'round=\d+ (\S+) bandwidth .* mode=(\S+) direction=(\S+) bytes=(\d+) ms=([0-9.]+)', l)
    if m: d[(m[1] if m[1] != 'native' else 'native-' + m[2], m[3], int(m[4]))].append(float(m[5]))
for key in sorted(d):
    v = sorted(d[key]); print(key, 'ms median %.3f min %.3f' % (v[len(v)//2], v[0]), 'GB/s at min %.1f' % (key[2] / v[0] / 1e6))
PY
echo "done after $(( $(date +%s)-t0 )) s"
