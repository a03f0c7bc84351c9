#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to what Hetero does on it: installs the packages,
# builds into ./build, shows Hetero in clinfo, then runs every bundled PolyBench program natively
# on each device that exists and through Hetero as installed (no knobs), at SMALL size, and ends
# with a short table (build/bench-results/results.md, results.png). Nothing is installed
# system-wide but the packages.
#   etc/setup.sh                     everything
#   etc/setup.sh --deps-only         only the packages (what CI uses)
#   etc/setup.sh BENCH_RUN_OPTIONS   everything, with bench/run options after the defaults, e.g.
#       --configs sweep    also Hetero held to the GPU and the eleven static splits (a GPU machine)
#       --sizes MINI,SMALL --repeat 5 --benchmarks gemm,lu     (bench/run --help, docs/bench.md)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential cmake pkg-config python3 python3-matplotlib ocl-icd-opencl-dev
          opencl-c-headers ocl-icd-libopencl1 pocl-opencl-icd libclang-dev clang catch2 clinfo)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
[ "${1:-}" = "--deps-only" ] && exit 0

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
echo
echo "Hetero as clinfo sees it (build tree, no install needed):"
OCL_ICD_FILENAMES="$PWD/build/icd/libHeteroOpenCL.so.1" OCL_ICD_VENDORS="$PWD/build/vendors" clinfo -l
echo
echo "Every PolyBench program natively on each device and through Hetero (bench/run; a few minutes):"
bench/run --build build --sizes SMALL --repeat 3 --no-trace --out build/bench-results "$@"
