"""Shared by the trace checks (test/observability, test/unified): failures collected as they come,
running a test program's hidden case, and reading a HETERO_TRACE file."""

import json
import subprocess
import sys

failures = []


def check(condition, what):
    """Records and prints a failure unless `condition` holds; returns `condition`."""
    if not condition:
        failures.append(what)
        sys.stderr.write("FAILED: %s\n" % what)
    return condition


def run_case(program, case, env):
    """Runs one Catch2 test case of `program` in `env`; checks that it passes."""
    done = subprocess.run([program, case], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=240)
    check(done.returncode == 0, "the program passes (exit %d)\n%s\n%s" % (
        done.returncode, done.stdout[-2000:], done.stderr[-2000:]))
    return done


def read_trace(path):
    """The trace's events, process names by pid and lane (thread) names by (pid, tid). Raises
    OSError or ValueError when the file is missing or not JSON."""
    with open(path) as f:
        trace = json.load(f)
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace
    processes, lanes = {}, {}
    for e in events if isinstance(events, list) else []:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            processes[e["pid"]] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            lanes[(e["pid"], e["tid"])] = e["args"]["name"]
    return events, processes, lanes
