#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to Hetero running the PolyBench suite:
# installs the packages, builds into ./build, and runs every bundled PolyBench program through
# Hetero (on whatever devices exist) next to the native devices, at MINI and SMALL sizes.
#   etc/setup.sh              everything
#   etc/setup.sh --deps-only  only the packages (what CI uses)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential cmake pkg-config python3 ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1
          pocl-opencl-icd libclang-dev clang catch2 clinfo)
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
bench/run --build build --sizes MINI,SMALL --repeat 3 --out build/bench-results
echo "Results: build/bench-results/results.md (and .csv, .png)"
