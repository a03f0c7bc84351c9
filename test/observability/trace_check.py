#!/usr/bin/env python3
"""Runs the hidden [trace-program] test case with HETERO_TRACE set and checks what it wrote: valid
JSON that Perfetto / chrome://tracing load, named processes and lanes, one span per launch with the
work-group arguments, sane durations, and the counters (in the trace and in the HETERO_LOG=info exit
line). Then checks that the configuration key `trace` works too and that an unwritable path only
warns. Exit 0 when everything holds; every failure is printed."""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from trace_support import check, failures, read_trace, run_case  # noqa: E402

# What trace_program.cpp does (keep in step with it).
LAUNCHES = {"increment": 2 + 4 * 5, "single": 1}
THREAD_LAUNCHES, THREAD_LAUNCH_GROUPS = 4 * 5, 64  # the 4 threads x 5 rounds part
WORK_GROUPS = 4096 + 4096 + 1 + 4 * 5 * 64
MIB = 1 << 20
COUNTERS = ("bytes_host_to_device", "bytes_device_to_host", "bytes_between_devices", "merges",
            "launches_whole", "launches_split_discrete", "launches_split_unified",
            "work_groups_total", "work_groups_cpu", "ns_host_to_device", "ns_device_to_host",
            "pinned_bytes_allocated", "pinned_reuses", "host_copies_unpinned",
            "backend_kernel_args", "launches_split_nway") + tuple(f"work_groups_slot{s}" for s in range(8)) + (
            "programs_from_kept_binaries", "merges_ahead", "variant_builds", "split_chunks",
            "chunks_refused_at_exit")


def run(program, env):
    return run_case(program, "[trace-program]", env)


def properly_nested(spans):
    """Spans of one thread must be disjoint or nested, or viewers draw them wrongly."""
    stack = []
    for begin, end in sorted(spans, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1] <= begin:
            stack.pop()
        if stack and end > stack[-1]:
            return False
        stack.append(end)
    return True


def check_split_launches(spans, lane, launches, values):
    """Split configurations (--split): every launch split by the discrete engine, its CPU chunks
    drawn on the CPU slot with the work-groups they covered, inside the launch's range."""
    # The single-threaded part: every launch split. The 4 threads' rounds (64 work-groups each) may
    # run a launch whole when 16 split launches are in flight, their stream-backs still running
    # (seen once on an H100 under load); those that split use the discrete engine.
    threaded = [e for e in launches if e["args"].get("work_groups") == THREAD_LAUNCH_GROUPS]
    first_part = [e for e in launches if e not in threaded]
    check(len(first_part) == sum(LAUNCHES.values()) - THREAD_LAUNCHES, "the single-threaded part's launches are drawn")
    check(all(e["args"].get("split") == 1 and e["args"].get("memory") == "discrete" for e in first_part),
          "every single-threaded launch is split by the discrete engine")
    check(all(e["args"].get("memory") == "discrete" for e in threaded if e["args"].get("split") == 1),
          "threaded launches that split use the discrete engine")
    check(any(e["args"].get("split") == 1 for e in threaded), "threaded launches split too")
    chunks = [e for e in spans if lane(e) == "CPU chunks"]
    check(chunks, "CPU chunks are drawn")
    by_launch = {}
    for e in chunks:
        first, last = e["args"].get("first_group"), e["args"].get("last_group")
        check(first is not None and last is not None and 0 <= first <= last, "a chunk names its groups: %s" % e)
        by_launch.setdefault(e["args"].get("launch"), []).append((first, last))
    for launch, ranges in by_launch.items():
        ranges.sort()
        check(all(a[1] < b[0] for a, b in zip(ranges, ranges[1:])),
              "the chunks of launch %s do not overlap (%s)" % (launch, ranges))
    check(any(lane(e) == "abortable kernel" for e in spans), "the GPU's abortable kernels are drawn")
    if values is not None:
        split_count = sum(1 for e in launches if e["args"].get("split") == 1)
        check(values.get("launches_split_discrete") == split_count, "launches_split_discrete counted")
        check(values.get("launches_whole") == len(launches) - split_count, "the rest counted as whole")


def check_trace(path, slots, stderr, split=False):
    try:
        events, processes, threads = read_trace(path)
    except (OSError, ValueError) as error:
        check(False, "%s is valid JSON (%s)" % (path, error))
        return
    if not check(isinstance(events, list) and events, "traceEvents is a non-empty list"):
        return
    names = set(processes.values())
    check("Hetero host" in names, "the host process is named 'Hetero host' (%s)" % names)
    for s in range(slots):
        check(any(re.match(r"slot %d: .+ \((GPU|CPU|accelerator|device)\)$" % s, n) for n in names),
              "slot %d's process is named 'slot %d: <device> (<type>)' (%s)" % (s, s, names))

    spans = [e for e in events if e.get("ph") == "X"]
    by_thread = {}
    for e in spans:
        key = (e.get("pid"), e.get("tid"))
        ok = check(isinstance(e.get("ts"), (int, float)) and isinstance(e.get("dur"), (int, float))
                   and e["ts"] >= 0 and e["dur"] >= 0, "span has ts >= 0 and dur >= 0: %s" % e)
        check(key in threads, "span's thread is named: %s" % e)
        check(key[0] in processes, "span's process is named: %s" % e)
        if ok:  # in whole nanoseconds, as written: float sums would make touching spans overlap
            begin = round(e["ts"] * 1000)
            by_thread.setdefault(key, []).append((begin, begin + round(e["dur"] * 1000)))
    for key, intervals in by_thread.items():
        check(properly_nested(intervals), "spans of %s (%s) are disjoint or nested" % (
            key, threads.get(key)))

    def lane(e):
        return re.sub(r" \(\d+\)$", "", threads.get((e["pid"], e["tid"]), ""))

    launches = [e for e in spans if lane(e) == "launches"]
    for kernel, count in LAUNCHES.items():
        mine = [e for e in launches if e["name"] == kernel]
        check(len(mine) == count, "%d spans of %s on the launches lane (got %d)" % (
            count, kernel, len(mine)))
    check(len(launches) == sum(LAUNCHES.values()), "only the program's launches on 'launches'")
    groups = sum(e["args"].get("work_groups", 0) for e in launches)
    cpu = sum(e["args"].get("cpu_work_groups", 0) for e in launches)
    check(groups == WORK_GROUPS, "work_groups add up to %d (got %d)" % (WORK_GROUPS, groups))
    # Where a split launch shares its groups with a GPU (NVIDIA beside PoCL), only some are the CPU's.
    all_cpu = not split or all(n.endswith("(CPU)") for n in names if n.startswith("slot "))
    if all_cpu:
        check(cpu == WORK_GROUPS, "every work-group ran on a CPU slot (PoCL): %d (got %d)" % (WORK_GROUPS, cpu))
    else:
        check(0 <= cpu <= WORK_GROUPS, "the CPU's work-groups are a share of all (%d of %d)" % (cpu, WORK_GROUPS))
    check(all(0 <= e["args"].get("slot", -1) < slots for e in launches), "launches name their slot")
    if not split:
        check(all(e["args"].get("split") == 0 for e in launches), "launches are unsplit")
    check(all(processes.get(e["pid"]) == "Hetero host" for e in launches),
          "launches are drawn on the host process")

    queue_spans = [e for e in spans if lane(e).startswith("queue ")]
    kernel_spans = [e for e in queue_spans if e["name"] == "NDRangeKernel increment"]
    check(len(kernel_spans) == LAUNCHES["increment"], "one queue span per NDRangeKernel increment")
    check(sum(1 for e in queue_spans if e["name"] == "Task single") == 1, "one 'Task single' span")
    check(any(e["name"] == "WriteBuffer" and e["args"].get("bytes") == MIB for e in queue_spans),
          "a WriteBuffer span of 1 MiB")
    check(any(e["name"] == "ReadBuffer" and e["args"].get("bytes") == MIB for e in queue_spans),
          "a ReadBuffer span of 1 MiB")
    check(any(e["name"] == "MapBuffer" for e in queue_spans), "a MapBuffer span")
    check(all(processes.get(e["pid"], "").startswith("slot ") for e in kernel_spans),
          "kernel commands are drawn on their slot")
    # A queue's commands are drawn from when they could start, so they do not overlap: a lane
    # spilling into many rows means every pipelined command is drawn from its submission again.
    rows = {}
    for (pid, tid), name in threads.items():
        base = re.sub(r" \(\d+\)$", "", name)
        if base.startswith("queue "):
            rows[(pid, base)] = rows.get((pid, base), 0) + 1
    check(all(n <= 3 for n in rows.values()), "queue lanes keep to a few rows (%s)" % rows)
    queues = {lane(e) for e in queue_spans}
    check(len(queues) >= 5, "the five queues have lanes (%s)" % sorted(queues))
    migrations = [e for e in spans if lane(e) == "migrations"]
    # Two slots: the map finds the host copy current, as it is the CPU slot's copy (platform/memory/
    # discrete_storage.hpp), where the application's write landed and the launches ran (or, split, into which
    # the split streamed its results back): nothing to download. One slot: the map downloads.
    if slots == 1:
        check(any(e["name"] == "download" and e["args"].get("bytes") == MIB for e in migrations),
              "the map's download of 1 MiB is on a 'migrations' lane")

    counter_events = [e for e in events if e.get("name") == "hetero counters"]
    if check(len(counter_events) == 1, "one 'hetero counters' event"):
        values = counter_events[0].get("args", {})
        check(set(values) == set(COUNTERS), "it holds every counter (%s)" % sorted(values))
        if split:
            check_split_launches(spans, lane, launches, values)
        else:
            check(values.get("launches_whole") == sum(LAUNCHES.values()), "launches_whole in the trace")
        check(values.get("work_groups_total") == WORK_GROUPS, "work_groups_total in the trace")
        check(values.get("work_groups_cpu") == cpu, "work_groups_cpu in the trace")
        per_slot = sum(values.get(f"work_groups_slot{s}", 0) for s in range(8))
        check(per_slot == WORK_GROUPS, "the work-groups per slot add up to %d (got %d)" % (WORK_GROUPS, per_slot))
        if slots == 1:
            check(values.get("bytes_device_to_host", 0) >= MIB, "the map's download is counted")
        downloads = sum(e["args"].get("bytes", 0) for e in migrations if e["name"] == "download")
        uploads = sum(e["args"].get("bytes", 0) for e in migrations if e["name"] == "upload")
        check(values.get("bytes_device_to_host") == downloads, "downloads drawn = counted")
        check(values.get("bytes_host_to_device") == uploads, "uploads drawn = counted")
        if stderr is not None:
            line = [l for l in stderr.splitlines() if l.startswith("hetero: info: counters: ")]
            if check(len(line) == 1, "HETERO_LOG=info logs one counters line at exit"):
                words = line[0][len("hetero: info: counters: "):].split()
                logged = dict(word.split("=", 1) for word in words if "=" in word)
                check(logged == {k: str(int(v)) for k, v in values.items()},
                      "the exit line and the trace agree (%s / %s)" % (logged, values))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--work", required=True, help="folder for the trace files")
    parser.add_argument("--slots", type=int, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--split", action="store_true", help="launches are split (HETERO_SPLIT=always)")
    args = parser.parse_args()
    base = {k: v for k, v in os.environ.items() if k not in ("HETERO_TRACE", "HETERO_LOG")}

    # HETERO_TRACE, with "%p" for the process id, and the exit log.
    pattern = os.path.join(args.work, "trace-%s-%%p.json" % args.name)
    for old in os.listdir(args.work):
        if old.startswith("trace-%s-" % args.name):
            os.remove(os.path.join(args.work, old))
    done = run(args.program, dict(base, HETERO_TRACE=pattern, HETERO_LOG="info"))
    written = [f for f in os.listdir(args.work) if f.startswith("trace-%s-" % args.name)]
    if check(len(written) == 1 and re.match(r"trace-%s-\d+\.json$" % re.escape(args.name), written[0]),
             "one trace file with the process id in its name (%s)" % written):
        check_trace(os.path.join(args.work, written[0]), args.slots, done.stderr, args.split)

    # The configuration file's key `trace`.
    path = os.path.join(args.work, "trace-%s-config.json" % args.name)
    config = os.path.join(args.work, "trace-%s.conf" % args.name)
    with open(config, "w") as out:
        out.write("trace = %s\n" % path)
    if os.path.exists(path):
        os.remove(path)
    run(args.program, dict(base, HETERO_CONFIG=config))
    if check(os.path.exists(path), "the configuration key 'trace' writes %s" % path):
        check_trace(path, args.slots, None, args.split)

    # An unwritable path: one warning, the program unharmed.
    done = run(args.program, dict(base, HETERO_TRACE="/nonexistent-dir/trace.json"))
    warnings = [l for l in done.stderr.splitlines() if "HETERO_TRACE" in l]
    check(len(warnings) == 1 and "tracing is off" in warnings[0],
          "an unwritable HETERO_TRACE gives one warning (%s)" % warnings)

    sys.stderr.write("trace check: %d failure(s)\n" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
