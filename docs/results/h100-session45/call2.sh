#!/usr/bin/env bash
# Session 45 call 2 (GPU machine): issue 15's table at STANDARD with the variants built with the
# program where the history says so (new: the working tree) against 8dfd7ae (base, .base): the bench runner, native
# and default, five processes each (the history kept between a configuration's processes, fresh
# caches per build), program by program with base's and new's runs interleaved. correlation,
# covariance and gramschmidt (1.1-1.5 s kernels, never split, 1.00x in session 43) left out.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
b=/tmp/hetero-new base=/tmp/hetero-base
GPU_BUILDS_BASELINE=all etc/gpu-builds.sh $b $base=.base > $OUT/build.txt 2>&1 || { tail -30 $OUT/build.txt; exit 1; }
echo "build after $((SECONDS - t0)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
programs="2mm 3mm atax bicg doitgen gemm gemver gesummv lu mvt syr2k syrk adi convolution-2d convolution-3d fdtd-2d jacobi-1d jacobi-2d"
for d in $base $b; do n=$(basename $d | sed 's/hetero-//'); rm -rf /tmp/xdg-$n; mkdir -p /tmp/xdg-$n; done
for p in $programs; do
  [ $((SECONDS - t0)) -gt 360 ] && { echo "time: $p and after left out"; break; }
  for d in $base $b; do
    n=$(basename $d | sed 's/hetero-//')
    XDG_CACHE_HOME=/tmp/xdg-$n HETERO_COMMIT=$n timeout 120 python3 bench/run --build $d --sizes STANDARD --benchmarks $p \
      --repeat 5 --configs native-gpu,hetero --no-check --no-trace --timeout 60 --out /tmp/runner-$n-$p > /tmp/runner-$n-$p.txt 2>&1
    echo "$p $n rc=$? after $((SECONDS - t0)) s"
  done
done
for n in base new; do
  python3 bench/run --from $(ls /tmp/runner-$n-*/runs.csv | paste -sd,) --out $OUT/runner-$n > $OUT/runner-$n.txt 2>&1
  sed -n '/^Hetero against/,/^geomean/p' $OUT/runner-$n.txt
done
python3 - $OUT/runner-base/runs.csv $OUT/runner-new/runs.csv <<'PY' | tee $OUT/per-process.txt
# Per program: each process's kernel ms, native and default, base and new, in run order.
import csv, sys, collections
for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    print("==", path, "columns:", ",".join(rows[0].keys()) if rows else "none")
    by = collections.defaultdict(list)
    for r in rows:
        key = (r.get("benchmark"), r.get("config"))
        by[key].append(r.get("kernel_ms") or r.get("time_ms") or "")
    for (bm, cfg), v in sorted(by.items()):
        print("%-16s %-11s %s" % (bm, cfg, " ".join(v)))
PY
tar -czf $OUT/runner-STANDARD.tar.gz -C $OUT runner-base runner-new && rm -rf $OUT/runner-base $OUT/runner-new
echo "after $((SECONDS - t0)) s"
