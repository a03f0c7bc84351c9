#!/usr/bin/env bash
# Session 34 call B (one H200): is NVIDIA's launch cost (about 4.0 or 5.5 us per launch, by process,
# in call A) a matter of which CPU makes the calls? (1) the VM's topology; (2) native launch_cost
# with the process on each CPU alone, two passes; (3) 6 interleaved rounds: native unpinned and on
# the fastest and slowest CPU of (2); Hetero held with its launch pipe's thread on either
# (HETERO_TEST_PIPE_CPU) or anywhere: launch_cost, convolution-3d, jacobi-1d.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new
echo "build after $((SECONDS - t0)) s"
{ lscpu; nvidia-smi topo -m; for d in /sys/bus/pci/devices/*; do [ "$(cat $d/vendor)" = 0x10de ] && echo "$d numa_node=$(cat $d/numa_node) local_cpulist=$(cat $d/local_cpulist)"; done; } > $OUT/topology.txt 2>&1
cat $OUT/topology.txt | grep -iE "model name|NUMA|Socket|Core|Thread|GPU0|numa_node|MHz"
h() { env OCL_ICD_FILENAMES=$(head -1 $new/vendors/hetero.icd) OCL_ICD_VENDORS=$new/vendors HETERO_CONFIG=/nonexistent XDG_CACHE_HOME=/tmp/xdg "$@"; }
lc() { grep -oE 'total_us=[0-9.]+' | cut -d= -f2 | head -1; }
ms() { grep -oE 'kernel_ms=[0-9.]+' | cut -d= -f2; }
ncpu=$(nproc)
for pass in 1 2; do
  for cpu in $(seq 0 $((ncpu - 1))); do
    echo "pass $pass cpu $cpu $(taskset -c $cpu $new/bench/launch_cost --platform NVIDIA --launches 4096 --rounds 3 --patterns plain | lc)"
  done
done > $OUT/sweep.txt 2>&1
cat $OUT/sweep.txt; echo "sweep after $((SECONDS - t0)) s"
read fast slow < <(python3 - $OUT/sweep.txt <<'PY'
import sys, collections
t = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 5: t[int(f[3])].append(float(f[4]))
m = {c: max(v) for c, v in t.items()}
print(min(m, key=m.get), max(m, key=m.get))
PY
)
echo "fast cpu $fast, slow cpu $slow"
{
for round in 1 2 3 4 5 6; do
  line="round $round launch_cost native $($new/bench/launch_cost --platform NVIDIA --launches 4096 --rounds 3 --patterns plain | lc)"
  line+=" native@fast $(taskset -c $fast $new/bench/launch_cost --platform NVIDIA --launches 4096 --rounds 3 --patterns plain | lc)"
  line+=" native@slow $(taskset -c $slow $new/bench/launch_cost --platform NVIDIA --launches 4096 --rounds 3 --patterns plain | lc)"
  line+=" held $(h HETERO_DEVICES=gpu $new/bench/launch_cost --platform Hetero --launches 4096 --rounds 3 --patterns plain | lc)"
  line+=" held-pipe@fast $(h HETERO_DEVICES=gpu HETERO_TEST_PIPE_CPU=$fast $new/bench/launch_cost --platform Hetero --launches 4096 --rounds 3 --patterns plain | lc)"
  line+=" held-pipe@slow $(h HETERO_DEVICES=gpu HETERO_TEST_PIPE_CPU=$slow $new/bench/launch_cost --platform Hetero --launches 4096 --rounds 3 --patterns plain | lc)"
  echo "$line"
  for ps in "convolution-3d STANDARD" "jacobi-1d LARGE"; do
    set -- $ps; p=$1 s=$2
    a="--size $s --repeat 10 --no-check"
    line="round $round $p $s native $($new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    line+=" native@fast $(taskset -c $fast $new/bench/polybench-$p $a --platform NVIDIA --device gpu 2>&1 | ms)"
    line+=" held $(h HETERO_DEVICES=gpu $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" held-pipe@fast $(h HETERO_DEVICES=gpu HETERO_TEST_PIPE_CPU=$fast $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    line+=" default-pipe@fast $(h HETERO_TEST_PIPE_CPU=$fast $new/bench/polybench-$p $a --platform Hetero --device all 2>&1 | ms)"
    echo "$line"
  done
done
} > $OUT/rounds.txt 2>&1
cat $OUT/rounds.txt; echo "rounds after $((SECONDS - t0)) s"
