#!/usr/bin/env python3
"""What a split launch costs over the same launch run whole, when the CPU ends up doing nothing.

    bench/tools/split_cost.py [--build build[,build-base]] [--rounds 5] [--reps 20]
                              [--sizes 1,16,64] [--kernels compute,bandwidth] [--iterations 256]

Runs build/bench/split_cost (bench/tools/split_cost.c) once per configuration and round, the
configurations interleaved round by round (a loaded machine slows them alike), and prints a
Markdown table: milliseconds per launch (enqueue to clFinish; the median over the rounds of each
process's median) of a compute-bound and a bandwidth-bound kernel at each size, for

- `native`: the native platform (NVIDIA where there is one, else PoCL);
- `whole`: Hetero over the same devices as the split, HETERO_SPLIT=off (every launch whole, on
  the GPU slot);
- `split`: Hetero with every launch split (HETERO_SPLIT=always, variants built with the program)
  and the CPU side giving up at once (HETERO_TEST_SPLIT_GIVE_UP_EVERY=1), as when the GPU kernel
  ends before the CPU has started: the CPU does no work-group, so what remains is the split's fixed
  cost (snapshots, status word, thread, merge, stream-back);
- `split, CPU idle`: the same, but the CPU side prepares its copies and then waits for the GPU
  kernel without running a chunk (HETERO_TEST_SPLIT_CPU_IDLE=1), as when the GPU wins the race.

With a GPU the devices are Hetero's default (GPU + CPU); without one, two PoCL slots in discrete
memory (HETERO_DEVICES=pocl:0,pocl:0, HETERO_MEMORY=discrete), as the tests stand in for a GPU.
Several builds (--build a,b) compare Hetero builds (the split_cost program of the first is used
for all; the Hetero library is each build's own). The split columns carry their ratio to `whole`
of the same build and their difference in ms. Hetero's counters confirm what ran: a split column
whose launches did not all split, or (with a GPU) in which the CPU slot ran work-groups, is marked
`!` (without a GPU both slots are CPUs, whose work-groups the counters cannot tell apart).
"""

import argparse
import os
import re
import statistics
import sys

from tool_support import Config, native_platform, run_tool, tool_path  # noqa: E402

LINE = re.compile(r'^split_cost platform="[^"]*" kernel=(\S+) mib=(\d+) reps=\d+ ms=([0-9.]+) min_ms=[0-9.]+ '
                  r'check=(\S+)(?: splits=([0-9.]+) cpu_groups=([0-9.]+) moved_mb=([0-9.]+))?$')

SPLIT_ENV = {"HETERO_SPLIT": "always", "HETERO_SPLIT_BUILD": "eager", "HETERO_TEST_SPLIT_GIVE_UP_EVERY": "1"}
IDLE_ENV = {"HETERO_SPLIT": "always", "HETERO_SPLIT_BUILD": "eager", "HETERO_TEST_SPLIT_CPU_IDLE": "1"}


def configs_for(native_platform):
    """(native config, [(name, env)] of the Hetero configurations) for the machine."""
    common = {"HETERO_CONFIG": "/nonexistent", "HETERO_HISTORY_CACHE": "off"}
    if native_platform != "NVIDIA":
        common.update({"HETERO_DEVICES": "pocl:0,pocl:0", "HETERO_MEMORY": "discrete"})
        native = Config("native", "native PoCL", "Portable", "all")
    else:
        native = Config("native", "native NVIDIA", "NVIDIA", "gpu")
    hetero = [
        ("whole", dict(common, HETERO_SPLIT="off")),
        ("split", dict(common, **SPLIT_ENV)),
        ("split, CPU idle", dict(common, **IDLE_ENV)),
    ]
    return native, hetero


def run_once(tool, config, build, args):
    """One process: {(kernel, mib): (ms, check, splits, cpu_groups, moved_mb)}."""
    command = [tool, "--platform", config.platform, "--reps", str(args.reps), "--sizes", args.sizes,
               "--kernels", args.kernels, "--iterations", str(args.iterations)]
    found = {}
    for m in run_tool(command, config, build, LINE):
        counters = tuple(float(x) for x in m.group(5, 6, 7)) if m.group(5) else (None, None, None)
        found[(m.group(1), int(m.group(2)))] = (float(m.group(3)), m.group(4)) + counters
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="build directories, comma separated (default: build)")
    parser.add_argument("--rounds", type=int, default=5, help="processes per configuration (median)")
    parser.add_argument("--reps", type=int, default=20, help="timed launches per process (median)")
    parser.add_argument("--sizes", default="1,16,64", help="MiB per buffer, comma separated")
    parser.add_argument("--kernels", default="compute,bandwidth")
    parser.add_argument("--iterations", type=int, default=256, help="multiply-adds per item of the compute kernel")
    parser.add_argument("--configs", default=None, help="comma separated among: whole, split, idle")
    args = parser.parse_args()
    named = [b for b in args.build.split(",") if b]
    builds = [os.path.abspath(b) for b in named]
    tool = tool_path(builds[0], "split_cost")
    on_gpu = native_platform(tool) == "NVIDIA"
    native, hetero = configs_for("NVIDIA" if on_gpu else "Portable")
    if args.configs:
        wanted = {"whole": "whole", "split": "split", "idle": "split, CPU idle"}
        keep = [wanted.get(n.strip(), n.strip()) for n in args.configs.split(",")]
        hetero = [h for h in hetero if h[0] in keep]
    columns = [("native", native, builds[0])]
    for name, b in zip(named, builds):
        suffix = "" if len(builds) == 1 else " [%s]" % name
        for name, env in hetero:
            columns.append((name + suffix, Config(name, name, "Hetero", "all", hetero=True, env=env), b))
    samples = {}
    failed = set()
    for r in range(args.rounds):
        for label, config, build in columns:
            for key, (ms, ok, splits, cpu, moved) in run_once(tool, config, build, args).items():
                samples.setdefault((label, key), []).append(ms)
                if ok != "ok":
                    failed.add((label, key))
                if config.name.startswith("split") and (splits is None or splits < 1 or (on_gpu and cpu > 0)):
                    failed.add((label, key))
        sys.stderr.write("round %d of %d done\n" % (r + 1, args.rounds))
    keys = sorted({k for (_, k) in samples}, key=lambda k: (args.kernels.split(",").index(k[0])
                                                             if k[0] in args.kernels.split(",") else 9, k[1]))
    print("Milliseconds per launch, enqueue to clFinish (median of %d interleaved processes of %d launches "
          "each); split columns: (ratio to whole, difference in ms). `!`: the check failed, or the launches "
          "did not all split with the CPU doing nothing." % (args.rounds, args.reps))
    print("")
    print("| kernel, MiB | " + " | ".join(label for label, _, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for key in keys:
        cells = []
        whole = {}
        for label, config, build in columns:
            got = samples.get((label, key))
            if not got:
                cells.append("n/a")
                continue
            m = statistics.median(got)
            mark = "!" if (label, key) in failed else ""
            if config.name == "whole":
                whole[build] = m
            if config.name.startswith("split") and whole.get(build):
                w = whole[build]
                cells.append("%.3f (%.2fx, %+.3f)%s" % (m, m / w, m - w, mark))
            else:
                cells.append("%.3f%s" % (m, mark))
        print("| %s %d | %s |" % (key[0], key[1], " | ".join(cells)))


if __name__ == "__main__":
    main()
