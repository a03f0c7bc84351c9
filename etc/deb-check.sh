#!/usr/bin/env bash
# The Debian package as a user gets it: builds the .deb of a built tree (etc/package.cmake),
# installs it on this machine with apt-get, checks that programs see Hetero with no environment
# variable set (clinfo, and one bundled PolyBench program through it), then purges it again, so
# that Hetero is not registered for what runs after (the test suite's native runs expect the
# machine's own platforms only).
#   etc/deb-check.sh [BUILD_DIR]     default: build
# The tree should be configured with -DCMAKE_INSTALL_PREFIX=/usr (.ci/run does). Needs root
# (sudo otherwise). Refuses to run where the package is installed already.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
package=hetero-opencl-icd
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
fail() { echo "deb-check: FAILED: $*" >&2; exit 1; }

if dpkg -s "$package" >/dev/null 2>&1; then
  fail "$package is installed already; this check installs and purges it itself"
fi
rm -f "$build"/${package}_*.deb
(cd "$build" && cpack -G DEB > cpack.log 2>&1) || { cat "$build/cpack.log"; fail "cpack"; }
deb=$(ls "$build"/${package}_*.deb)
echo "deb-check: $(basename "$deb"):"
dpkg-deb --field "$deb" Package Version Depends Recommends Provides | sed 's/^/  /'
dpkg-deb --contents "$deb" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, "") } !/\/$/ { print "  " $0 }'

trap 'echo "deb-check: purging $package"; $sudo apt-get purge -y -q "$package" > /dev/null' EXIT
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$deb" > "$build/apt.log" 2>&1 \
  || { cat "$build/apt.log"; fail "apt-get install $deb"; }
[ -f /etc/OpenCL/vendors/hetero.icd ] || fail "no /etc/OpenCL/vendors/hetero.icd after installing"

# Nothing set: no OCL_ICD_*, no HETERO_*; the loader finds Hetero in /etc/OpenCL/vendors.
bare=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}")
platforms=$("${bare[@]}" clinfo -l 2>&1) || fail "clinfo: $platforms"
echo "$platforms" | sed 's/^/  /'
echo "$platforms" | grep -q "Hetero" || fail "clinfo does not list Hetero"
result=$("${bare[@]}" "$build/bench/polybench-gemm" --size MINI --platform Hetero 2>&1) \
  || fail "polybench-gemm through the installed Hetero: $result"
echo "  $result"
echo "$result" | grep -q 'platform="Hetero".*result=PASS' || fail "polybench-gemm did not pass through Hetero"
echo "deb-check: the installed package works"
