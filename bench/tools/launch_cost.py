#!/usr/bin/env python3
"""What one kernel launch costs natively and through Hetero, side by side, in one command.

    bench/tools/launch_cost.py [--build build] [--rounds 5] [--launches 4096] [--configs ...]
    bench/tools/launch_cost.py --callgrind      # instructions per launch instead of time
    bench/tools/launch_cost.py --baseline /tmp/old   # and each Hetero column with another build's library
    bench/tools/launch_cost.py --groups 1024         # launches the GPU cannot run in one go
    bench/tools/launch_cost.py --variant "held:HETERO_TEST_FLUSH_EVERY=1"   # and a knob's effect

Runs build/bench/launch_cost (bench/tools/launch_cost.c) once per configuration and round, the
configurations interleaved round by round (a loaded machine slows them alike), and prints a
Markdown table: the median microseconds per launch of each pattern (plain enqueue, with an event,
on a profiling queue, both, and with every argument set again before the launch), Hetero's columns with their difference to native. "enqueue" is the
enqueuing thread's time per launch, "total" until all launches are finished.

The configurations follow the machine: with an NVIDIA platform, native NVIDIA, Hetero held to the
GPU (HETERO_DEVICES=gpu) and Hetero on GPU + CPU (no knobs: the default); without one, native
PoCL, Hetero over one PoCL slot (in its default memory model and in discrete memory, as on a GPU)
and over two PoCL slots (HETERO_DEVICES=pocl:0,pocl:0, default and discrete memory).

--callgrind runs each configuration once under valgrind's callgrind, counting only the measured
launches (launch_loop) of the enqueuing thread: instructions per launch, repeatable even on a
loaded machine. Hetero runs use the build's libHeteroOpenCL through the loader, as the bench
runner does (bench/runner/configs.py); HETERO_* variables of the caller are not passed on.
"""

import argparse
import glob
import re
import statistics
import sys
import tempfile

from tool_support import (Config, median_difference, native_platform, run_tool, tool_path, with_baseline,  # noqa: E402
                          with_variant)

PATTERNS = ("plain", "event", "profiling", "profiling+event", "all-args")
LINE = re.compile(r'^launch_cost platform="[^"]*" pattern=(\S+) launches=\d+ enqueue_us=([0-9.]+) '
                  r'total_us=([0-9.]+)$')


def configs_for(native_platform):
    """The configurations to compare, for the machine's native platform."""
    if native_platform == "NVIDIA":
        return [
            Config("native", "native NVIDIA", "NVIDIA", "gpu"),
            Config("held", "Hetero held to the GPU (HETERO_DEVICES=gpu)", "Hetero", "all",
                   hetero=True, env={"HETERO_DEVICES": "gpu"}),
            Config("gpu+cpu", "Hetero on GPU + CPU (the default)", "Hetero", "all", hetero=True),
        ]
    return [
        Config("native", "native PoCL", "Portable", "all"),
        Config("1 slot", "Hetero over one PoCL slot (HETERO_DEVICES=pocl:0)", "Hetero", "all",
               hetero=True, env={"HETERO_DEVICES": "pocl:0"}),
        Config("1 slot discrete", "... in discrete memory (HETERO_MEMORY=discrete)", "Hetero", "all",
               hetero=True, env={"HETERO_DEVICES": "pocl:0", "HETERO_MEMORY": "discrete"}),
        Config("2 slots", "Hetero over two PoCL slots (HETERO_DEVICES=pocl:0,pocl:0)", "Hetero",
               "all", hetero=True, env={"HETERO_DEVICES": "pocl:0,pocl:0"}),
        Config("2 slots discrete", "... in discrete memory", "Hetero", "all", hetero=True,
               env={"HETERO_DEVICES": "pocl:0,pocl:0", "HETERO_MEMORY": "discrete"}),
    ]


GROUPS = ["--groups", "4"]  # launch_cost.c's work-groups per launch (main sets it)


def run_once(tool, config, build, launches, patterns, prefix=()):
    """One process: {pattern: (enqueue_us, total_us)}."""
    rounds = ["--rounds", "1"] if prefix else []  # under callgrind: one measured round
    command = list(prefix) + [tool, "--platform", config.platform, "--launches", str(launches)] + rounds + GROUPS + [
                              "--patterns", ",".join(patterns)]
    return {m.group(1): (float(m.group(2)), float(m.group(3))) for m in run_tool(command, config, build, LINE)}


def time_table(tool, configs, build, launches, rounds, patterns):
    samples = {(c.name, p): ([], []) for c in configs for p in patterns}
    for r in range(rounds):
        for c in configs:
            for p, (enqueue, total) in run_once(tool, c, build, launches, patterns).items():
                samples[(c.name, p)][0].append(enqueue)
                samples[(c.name, p)][1].append(total)
        sys.stderr.write("round %d of %d done\n" % (r + 1, rounds))
    native = configs[0].name
    lines = ["| pattern | " + " | ".join(c.name for c in configs) + " |",
             "|---|" + "---:|" * len(configs)]
    for p in patterns:
        for i, what in ((1, "total"), (0, "enqueue")):
            base = samples[(native, p)][i]
            cells = []
            for c in configs:
                got = samples[(c.name, p)][i]
                if not got:
                    cells.append("n/a")
                    continue
                m = statistics.median(got)
                if c.name == native or not base:
                    cells.append("%.2f" % m)
                elif len(got) < 4 or len(base) < 4:
                    cells.append("%.2f (%+.2f)" % (m, m - statistics.median(base)))
                else:
                    low, mid, high = median_difference(got, base)
                    cells.append("%.2f (%+.2f; %+.2f to %+.2f)" % (m, mid, low, high))
            lines.append("| %s, %s | %s |" % (p, what, " | ".join(cells)))
    return lines


def callgrind_table(tool, configs, build, launches, patterns):
    """Instructions per launch of the enqueuing thread (callgrind, measured launches only)."""
    rows = {p: [] for p in patterns}
    for c in configs:
        for p in patterns:
            with tempfile.TemporaryDirectory() as out:
                prefix = ["valgrind", "--tool=callgrind", "--separate-threads=yes",
                          "--toggle-collect=launch_loop", "--callgrind-out-file=%s/cg.%%p" % out]
                # One measured round of `launches` after the warm-up round.
                found = run_once(tool, c, build, launches, [p], prefix=prefix)
                counts = []
                for path in glob.glob(out + "/cg.*"):
                    with open(path) as f:
                        text = f.read()
                    m = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
                    if m:
                        counts.append((path, int(m.group(1))))
                # The thread that enqueued: the one whose file ends in -01 (the main thread).
                main = [n for path, n in counts if path.endswith("-01")]
                rows[p].append("%.0f" % (main[0] / launches) if main and found else "n/a")
        sys.stderr.write("%s done\n" % c.name)
    lines = ["| pattern (instructions per launch) | " + " | ".join(c.name for c in configs) + " |",
             "|---|" + "---:|" * len(configs)]
    for p in patterns:
        lines.append("| %s | %s |" % (p, " | ".join(rows[p])))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build directory (default: build)")
    parser.add_argument("--rounds", type=int, default=5, help="processes per configuration (median)")
    parser.add_argument("--launches", type=int, default=None,
                        help="launches per round (default 4096; 300 with --callgrind)")
    parser.add_argument("--patterns", default=",".join(PATTERNS), help="comma separated (launch_cost.c)")
    parser.add_argument("--groups", type=int, default=4,
                        help="work-groups per launch (default 4: fits any GPU at once; more than its compute "
                             "units takes auto mode's history into every decision)")
    parser.add_argument("--configs", default=None,
                        help="comma separated names among the defaults for this machine")
    parser.add_argument("--callgrind", action="store_true", help="instructions per launch instead of time")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:VAR=VALUE[,VAR=VALUE...]",
                        help="a Hetero configuration again with these variables (a knob's effect), "
                             "interleaved with the others; repeatable")
    parser.add_argument("--baseline", default=None,
                        help="another build (its library is enough): each Hetero configuration again with its "
                             "Hetero, interleaved with this build's")
    args = parser.parse_args()
    GROUPS[1] = str(args.groups)
    tool = tool_path(args.build, "launch_cost")
    configs = configs_for(native_platform(tool))
    if args.configs:
        wanted = [n.strip() for n in args.configs.split(",")]
        configs = [c for c in configs if c.name in wanted]
    configs += [with_variant(configs, spec) for spec in args.variant]
    if args.baseline:
        configs += [with_baseline(c, args.baseline) for c in configs if c.hetero]
    patterns = [p for p in args.patterns.split(",") if p]
    print("Per launch, µs (median of %d interleaved processes); Hetero columns: (difference to native; "
          "from four processes on, its 95 %% bootstrap interval)." % args.rounds if not args.callgrind else "Instructions per launch, enqueuing thread (callgrind).")
    print("")
    print("%d work-groups of 256 items per launch." % args.groups)
    print("")
    for c in configs:
        print("- `%s`: %s" % (c.name, c.label))
    print("")
    if args.callgrind:
        lines = callgrind_table(tool, configs, args.build, args.launches or 300, patterns)
    else:
        lines = time_table(tool, configs, args.build, args.launches or 4096, args.rounds, patterns)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
