#!/usr/bin/env bash
# Session 40 call D (one H200), main f5f1d54: issue 15's table at LARGE: the bench runner, 18 of the
# 21 programs (correlation, covariance and gramschmidt, 1.00x at STANDARD in call B and seconds a run,
# left out), native GPU, Hetero held to the GPU and Hetero default, three processes each, interleaved;
# then one traced bandwidth run (1 MiB host to GPU through Hetero) for where a migration's time goes.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new
etc/gpu-builds.sh $b > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
HETERO_COMMIT=f5f1d54 timeout 450 python3 bench/run --build $b --sizes LARGE \
  --benchmarks 2mm,3mm,atax,bicg,doitgen,gemm,gemver,gesummv,lu,mvt,syr2k,syrk,adi,convolution-2d,convolution-3d,fdtd-2d,jacobi-1d,jacobi-2d \
  --repeat 3 --configs native-gpu,hetero-gpu,hetero --no-check --no-trace --timeout 40 --out $OUT/large > $OUT/runner.txt 2>&1
echo "runner rc=$? after $((SECONDS - t0)) s"
tar -czf $OUT/large.tar.gz -C $OUT large && rm -rf $OUT/large
env OCL_ICD_FILENAMES=$(head -1 $b/vendors/hetero.icd) OCL_ICD_VENDORS=$b/vendors HETERO_CONFIG=/nonexistent HETERO_RUN_ON=gpu HETERO_SPLIT=off \
  HETERO_TRACE=$OUT/bandwidth-h2d.json $b/bench/bandwidth --platform Hetero --sizes 1 --reps 5 > $OUT/bandwidth-traced.txt 2>&1
gzip -f $OUT/*.json
cat $OUT/bandwidth-traced.txt
tail -32 $OUT/runner.txt
echo "after $((SECONDS - t0)) s"
