#!/usr/bin/env bash
# Session 22 call D (one H100, warm after call C: its builds): 18 PolyBench programs at STANDARD
# (correlation, covariance and gramschmidt left out: second-long kernels), native, held, this tree's
# default and main dc32375's ("prev-default"), interleaved, 3 rounds, kernel_ms and total_ms.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-tests prev=/tmp/hetero-prev
[ -e $new/icd/libHeteroOpenCL.so.1 ] && [ -e $prev/icd/libHeteroOpenCL.so.1 ] || GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $new --tests nvidia:0,pocl:0 $prev=.base
rm -rf ~/.cache/hetero /tmp/cache-*
SLOT_COST_BUILD=$new SLOT_COST_REPEAT=5 SLOT_COST_STAT=median SLOT_COST_CONFIGS=native,held,default,prev-default \
SLOT_COST_EXTRA="prev-default=XDG_CACHE_HOME=/tmp/cache-prev OCL_ICD_FILENAMES=$prev/icd/libHeteroOpenCL.so.1" \
  timeout $(( 560 - (SECONDS - t0) )) etc/gpu-slot-cost.sh 2mm,3mm,adi,atax,bicg,convolution-2d,convolution-3d,doitgen,fdtd-2d,gemm,gemver,gesummv,jacobi-1d,jacobi-2d,lu,mvt,syr2k,syrk 3 STANDARD 2>&1 | tail -22
echo "slot cost after $((SECONDS - t0)) s"
