#!/usr/bin/env python3
"""Runs the hidden [.trace-program] case of hetero_unified_tests with HETERO_TRACE set and checks
what the unified engine drew: per launch, one span on the host's "launches" lane (split=1,
memory="unified", work_groups, cpu_work_groups) and chunk spans on the "chunks" lanes of both slots
whose [first, last] ranges cover every work-group exactly once, the GPU slot's from the bottom and
the CPU slot's from the top, the CPU's adding up to cpu_work_groups. Exit 0 when all holds."""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from trace_support import check, failures, read_trace, run_case  # noqa: E402

# What trace_program.cpp launches (keep in step with it): kernel -> work-groups, each twice.
LAUNCHES = {"mark1": 256, "mark2": 60, "mark3": 105}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    path = os.path.join(args.work, "unified-trace.json")
    env = dict(os.environ, HETERO_TRACE=path)
    if run_case(args.program, "[.trace-program]", env).returncode != 0:
        return 1
    events, processes, lanes = read_trace(path)
    spans = [e for e in events if e.get("ph") == "X"]
    launches = [e for e in spans if lanes.get((e["pid"], e["tid"]), "").startswith("launches")
                and processes.get(e["pid"]) == "Hetero host" and e["name"] in LAUNCHES]
    chunks = [e for e in spans if lanes.get((e["pid"], e["tid"])) == "chunks"]
    check(len(launches) == 2 * len(LAUNCHES), "one launch span per launch (%d)" % len(launches))
    slot_of = {pid: int(name.split(":")[0].split()[1]) for pid, name in processes.items()
               if name.startswith("slot ")}
    for launch in launches:
        a = launch["args"]
        name, groups = launch["name"], LAUNCHES[launch["name"]]
        where = "%s at %.0f us" % (name, launch["ts"])
        check(a.get("split") == 1 and a.get("memory") == "unified", "%s: split=1, memory=unified" % where)
        check(a.get("work_groups") == groups, "%s: work_groups %s == %d" % (where, a.get("work_groups"), groups))
        end = launch["ts"] + launch["dur"]
        mine = [c for c in chunks if c["name"] == name and launch["ts"] <= c["ts"] and c["ts"] + c["dur"] <= end]
        covered = [0] * groups
        cpu = 0
        for c in mine:
            first, last = int(c["args"]["first"]), int(c["args"]["last"])
            if not check(0 <= first <= last < groups, "%s: chunk [%d, %d] inside the range" % (where, first, last)):
                continue
            for g in range(first, last + 1):
                covered[g] += 1
            if slot_of[c["pid"]] != a.get("slot"):
                cpu += last - first + 1
                # The CPU side takes from the top: nothing above its chunk is the GPU's.
        check(all(n == 1 for n in covered), "%s: every work-group in exactly one chunk (%s)" % (
            where, [g for g, n in enumerate(covered) if n != 1][:10]))
        check(cpu == a.get("cpu_work_groups"), "%s: CPU chunks add up to cpu_work_groups (%d, %s)" % (
            where, cpu, a.get("cpu_work_groups")))
        gpu_top = max([int(c["args"]["last"]) for c in mine if slot_of[c["pid"]] == a.get("slot")], default=-1)
        cpu_bottom = min([int(c["args"]["first"]) for c in mine if slot_of[c["pid"]] != a.get("slot")], default=groups)
        check(gpu_top < cpu_bottom, "%s: the GPU's chunks are below the CPU's (%d < %d)" % (where, gpu_top, cpu_bottom))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
