#!/usr/bin/env python3
"""GPU <-> host bandwidth natively and through Hetero's migrations, side by side, in one command.

    bench/tools/bandwidth.py [--build build] [--sizes 1,2,4,...,256] [--reps 5] [--baseline OTHER_BUILD]

Runs build/bench/bandwidth (bench/tools/bandwidth.c) in three configurations and prints one
Markdown table per direction (host to GPU, GPU to host), GB/s per size in MiB:

- `native ordinary`, `native pinned`: the machine's own GPU platform (NVIDIA; PoCL without one),
  blocking clEnqueueWrite/ReadBuffer from page-aligned ordinary memory and from a mapped
  CL_MEM_ALLOC_HOST_PTR buffer;
- `native launch` (host to GPU): a non-blocking write from that pinned buffer, then a launch reading
  it, until clFinish, less the launch alone: what the transfer adds to a launch natively, the shape
  of Hetero's migration;
- `Hetero`: the build's Hetero over the GPU and the CPU (without a GPU: two PoCL slots in discrete
  memory, the first standing for the GPU), launches held to the GPU slot and unsplit
  (HETERO_RUN_ON=gpu, HETERO_SPLIT=off): a host write brought to the GPU by a launch there, a GPU
  write brought to the host copy (the CPU slot's copy) by a map; host to GPU timed as what the
  migration adds to the launch's wall time (the same launch moving nothing, run right after, taken
  off: Hetero sends it without waiting), GPU to host by Hetero's counter ns_device_to_host; the
  command's wall time beside it;
- `Hetero unpinned`: the same with HETERO_PINNED_BUDGET=0 (host copies in ordinary memory);
- `Hetero, application`: what the application sees, the same blocking clEnqueueWrite/ReadBuffer
  from ordinary memory as `native ordinary`, through Hetero held to the GPU slot (a whole write goes
  through the host copy, a large read through pinned blocks: platform/memory/staged_transfer.hpp).

Every host-to-GPU repetition sends data the host wrote just before (untimed), natively as through
Hetero: a source written just before costs NVIDIA's DMA more (docs/bench.md).

The last columns are Hetero's share of native pinned bandwidth, for its migrations and for the
application's transfers (issue 16's target: at least 80 %), and its migrations' share of `native
launch`.
HETERO_* variables of the caller are not passed on (bench/runner/configs.py).
"""

import argparse
import re
import sys

from tool_support import Config, native_platform, run_tool, tool_path, with_baseline  # noqa: E402

LINE = re.compile(r'^bandwidth platform="[^"]*" mode=(\S+) direction=(\S+) bytes=(\d+) ms=(-?[0-9.]+) '
                  r'gbps=(n/a|[0-9.]+)(?: wall_ms=([0-9.]+))?$')


def configs_for(native_platform):
    """(column name, Config, modes) for the machine."""
    held = {"HETERO_RUN_ON": "gpu", "HETERO_SPLIT": "off"}
    if native_platform != "NVIDIA":
        held.update({"HETERO_DEVICES": "pocl:0,pocl:0", "HETERO_MEMORY": "discrete"})
    native = Config("native", "native " + native_platform, native_platform, "gpu")
    return [
        (None, native, "ordinary,pinned,launch"),
        ("Hetero", Config("hetero", "Hetero", "Hetero", "all", hetero=True, env=held), "hetero"),
        ("Hetero unpinned", Config("hetero-unpinned", "Hetero, HETERO_PINNED_BUDGET=0", "Hetero", "all",
                                   hetero=True, env=dict(held, HETERO_PINNED_BUDGET="0")), "hetero"),
        ("Hetero, application", Config("hetero-application", "Hetero, the application's transfers", "Hetero", "all",
                                       hetero=True, env=held), "ordinary"),
    ]


def run(tool, config, modes, build, sizes, reps):
    """{(column, direction, bytes): (gbps or None where the tool could give none, wall_ms or None)}"""
    command = [tool, "--platform", config.platform, "--modes", modes, "--sizes", sizes, "--reps", str(reps)]
    found = {}
    for m in run_tool(command, config, build, LINE, timeout=3600):
        wall = float(m.group(6)) if m.group(6) else None
        gbps = None if m.group(5) == "n/a" else float(m.group(5))
        found[(m.group(1), m.group(2), int(m.group(3)))] = (gbps, wall)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build directory (default: build)")
    parser.add_argument("--sizes", default="1,2,4,8,16,32,64,128,256", help="MiB, comma separated")
    parser.add_argument("--reps", type=int, default=5, help="repetitions per size (median)")
    parser.add_argument("--baseline", default=None,
                        help="another build (its library is enough): its migrations and the application's "
                             "transfers through its Hetero too, as columns of their own")
    args = parser.parse_args()
    tool = tool_path(args.build, "bandwidth")
    native = native_platform(tool)
    columns = []  # (title, key in results)
    results = {}
    configs = configs_for(native)
    if args.baseline:
        configs += [(title + " (baseline)", with_baseline(config, args.baseline), modes)
                    for title, config, modes in configs if title in ("Hetero", "Hetero, application")]
    for title, config, modes in configs:
        found = run(tool, config, modes, args.build, args.sizes, args.reps)
        for (mode, direction, size), value in found.items():
            column = title or "native %s" % mode
            results[(column, direction, size)] = value
            if column not in columns:
                columns.append(column)
        sys.stderr.write("%s done\n" % config.name)
    sizes = sorted({size for (_, _, size) in results})
    native_pinned = "native pinned"
    print("GB/s, median of %d repetitions; native = %s. Hetero: its migration's own time (the whole "
          "command's wall time, launch or map included, in brackets)." % (args.reps, native))
    for direction, label in (("h2d", "host to GPU"), ("d2h", "GPU to host")):
        print("")
        print("**%s**" % label)
        print("")
        print("| MiB | " + " | ".join(columns) + " | Hetero / native pinned | application / native pinned |"
              " Hetero / native launch |")
        print("|---:|" + "---:|" * (len(columns) + 3))
        for size in sizes:
            cells = []
            for c in columns:
                v = results.get((c, direction, size))
                if not v:
                    cells.append("n/a")
                else:
                    cell = "n/a" if v[0] is None else "%.2f" % v[0]
                    if v[1] is not None:
                        cell += " (%s)" % ("%.2f" % (size / (v[1] * 1e-3) / 1e9) if v[1] > 0 else "n/a")
                    cells.append(cell)
        
            def share(column, of=native_pinned):
                h, n = results.get((column, direction, size)), results.get((of, direction, size))
                return "%.0f %%" % (100 * h[0] / n[0]) if h and n and h[0] is not None and n[0] else "n/a"

            print("| %g | %s | %s | %s | %s |" % (size / 1048576.0, " | ".join(cells), share("Hetero"),
                                                 share("Hetero, application"), share("Hetero", "native launch")))


if __name__ == "__main__":
    main()
