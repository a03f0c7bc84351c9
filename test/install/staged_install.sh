#!/bin/sh
# Installs a build tree into a temporary staging root (DESTDIR) and checks what landed there:
#   staged_install.sh CMAKE BUILD_DIR LIBDIR SYSCONFDIR BINDIR GEMM_PROGRAM
# LIBDIR, SYSCONFDIR, BINDIR: the absolute install directories the tree was configured with.
set -eu
cmake=$1 build=$2 libdir=$3 sysconfdir=$4 bindir=$5 gemm=$6
stage=$(mktemp -d "${TMPDIR:-/tmp}/hetero-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
fail() { echo "staged install: FAILED: $*"; exit 1; }

DESTDIR=$stage "$cmake" --install "$build" > "$stage/install.log" 2>&1 || { cat "$stage/install.log"; fail "cmake --install"; }

# The vendor file registers the installed library by its absolute path.
vendor=$stage/etc/OpenCL/vendors/hetero.icd
[ -f "$vendor" ] || fail "no /etc/OpenCL/vendors/hetero.icd"
library=$(cat "$vendor")
[ "$library" = "$libdir/libHeteroOpenCL.so.1" ] || fail "the vendor file names '$library', not $libdir/libHeteroOpenCL.so.1"
[ -f "$stage$library" ] || fail "the library the vendor file names is not installed ($library)"
[ -f "$stage$sysconfdir/hetero.conf" ] || fail "no $sysconfdir/hetero.conf"
[ -x "$stage$bindir/hetero-transform" ] || fail "no $bindir/hetero-transform"

# hetero-transform analyses a kernel.
printf '__kernel void scale(__global float* a) { a[get_global_id(0)] *= 2.0f; }\n' > "$stage/k.cl"
"$stage$bindir/hetero-transform" "$stage/k.cl" | grep -q scale || fail "hetero-transform did not analyse a kernel"

# A program through the staged library, Hetero the only platform, with the staged configuration.
mkdir "$stage/vendors"
echo "$stage$library" > "$stage/vendors/hetero.icd"
out=$(OCL_ICD_FILENAMES="$stage$library" OCL_ICD_VENDORS="$stage/vendors" HETERO_CONFIG="$stage$sysconfdir/hetero.conf" \
      "$gemm" --size MINI --platform Hetero 2>&1) || fail "gemm through the staged library: $out"
echo "$out" | grep -q "result=PASS" || fail "gemm through the staged library: $out"
echo "staged install: every check passed ($library)"
