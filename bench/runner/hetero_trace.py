"""What a Hetero run's trace (HETERO_TRACE, docs/observability.md) says about the work: the CPU's
share of the work-groups and the bytes Hetero moved.

  cpu_share   = sum(cpu_work_groups) / sum(work_groups) over the spans of the host's "launches"
                lane (one span per kernel launch, whole or split); None without launches
  bytes_moved = bytes_host_to_device + bytes_device_to_host + bytes_between_devices from the
                "hetero counters" event written at exit: the copies Hetero made to keep memory
                coherent and to split launches, not the application's own transfers
Runs without a trace (--no-trace: a trace costs a completion callback per command) read the same
two figures from the counters line Hetero logs at exit (HETERO_LOG=info): from_exit_log.
A missing, unfinished (the program crashed) or malformed trace gives None for both.
"""

import json
import os
import re
import shutil
import tempfile

BYTE_COUNTERS = ("bytes_host_to_device", "bytes_device_to_host", "bytes_between_devices")
HOST_PROCESS = "Hetero host"
LAUNCH_LANE = re.compile(r"^launches( \(\d+\))?$")  # a busy lane spills into "launches (2)", ...


def summarise(trace):
    """(cpu_share, bytes_moved) of a loaded trace (object or array format)."""
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace
    if not isinstance(events, list):
        return None, None
    hosts, lanes = set(), set()
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "M":
            continue
        name = (e.get("args") or {}).get("name")
        if e.get("name") == "process_name" and name == HOST_PROCESS:
            hosts.add(e.get("pid"))
        elif e.get("name") == "thread_name" and isinstance(name, str) and LAUNCH_LANE.match(name):
            lanes.add((e.get("pid"), e.get("tid")))
    groups = cpu = 0
    bytes_moved = None
    for e in events:
        if not isinstance(e, dict):
            continue
        args = e.get("args") or {}
        if e.get("ph") == "X" and e.get("pid") in hosts and (e.get("pid"), e.get("tid")) in lanes:
            groups += args.get("work_groups", 0)
            cpu += args.get("cpu_work_groups", 0)
        elif e.get("name") == "hetero counters":
            bytes_moved = sum(args.get(k, 0) for k in BYTE_COUNTERS)
    return (cpu / groups if groups else None), bytes_moved


COUNTERS_LINE = re.compile(r"^hetero: info: counters: (.*)$", re.MULTILINE)


def from_exit_log(stderr):
    """(cpu_share, bytes_moved) from the counters line Hetero logs at exit with HETERO_LOG=info
    (what a run without a trace has); (None, None) without one. The share counts every launch's
    work-groups, as the trace's launches lanes do."""
    found = COUNTERS_LINE.findall(stderr or "")
    if not found:
        return None, None
    values = {}
    for word in found[-1].split():
        key, sep, value = word.partition("=")
        if sep and value.isdigit():
            values[key] = int(value)
    total = values.get("work_groups_total", 0)
    share = values.get("work_groups_cpu", 0) / total if total else None
    moved = sum(values.get(k, 0) for k in BYTE_COUNTERS) if all(k in values for k in BYTE_COUNTERS) else None
    return share, moved


def read(path):
    """(cpu_share, bytes_moved) of the trace file at path; (None, None) if it cannot be read."""
    try:
        with open(path) as source:
            return summarise(json.load(source))
    except (OSError, ValueError):
        return None, None


class TraceFiles:
    """Gives each Hetero run its own trace file, and keeps it in keep_dir (if given) once read."""

    def __init__(self, keep_dir=None):
        self.keep_dir = keep_dir
        self._dir = tempfile.mkdtemp(prefix="hetero-bench-traces-")

    def path_for(self, benchmark, size, config, repeat):
        return os.path.join(self._dir, "%s-%s-%s-%d.json" % (benchmark, size, config, repeat))

    def collect(self, path, result):
        """Reads path into result.cpu_share and result.bytes_moved, then keeps or deletes it."""
        result.cpu_share, result.bytes_moved = read(path)
        if not os.path.exists(path):
            return
        if self.keep_dir:
            os.makedirs(self.keep_dir, exist_ok=True)
            shutil.move(path, os.path.join(self.keep_dir, os.path.basename(path)))
        else:
            os.remove(path)

    def close(self):
        shutil.rmtree(self._dir, ignore_errors=True)
