#!/usr/bin/env bash
# Session 47 call 1 (GPU machine): issue 16's remaining measurements with main's build.
# 1. GPU <-> host bandwidth at 1-64 MiB (bench/tools/bandwidth.py; every mode's source written just
#    before, as since 44292b1; never run on an H100 with that tool before).
# 2. The real-ideal table at STANDARD for the programs that may split (session 46's call4.sh, SIZE=STANDARD).
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
[ -e $b/icd/libHeteroOpenCL.so.1 ] || etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 bench/tools/bandwidth.py --build $b --sizes 1,2,4,8,16,64 --reps 9 > $OUT/bandwidth.md 2> $OUT/bandwidth.err
echo "bandwidth rc=$? after $((SECONDS - t0)) s"
cat $OUT/bandwidth.md
left=$((${LIMIT_S:-585} - (SECONDS - t0)))
SIZE=STANDARD GUARD_S=$((left - 90)) bash docs/results/h100-session46/call4.sh
echo "after $((SECONDS - t0)) s"
