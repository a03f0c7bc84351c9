"""Runs one benchmark program once and turns its output into a RunResult.

A program prints one line `polybench benchmark=... kernel_ms=... result=PASS|FAIL|UNCHECKED` and
exits 0 (PASS, UNCHECKED), 1 (FAIL) or 2 (error). Anything else (no line, a crash, a timeout) is an error here.
"""

import os
import shlex
import signal
import subprocess
import time

from . import cpu_load, hetero_trace

PASS, FAIL, ERROR, TIMEOUT, NA = "PASS", "FAIL", "ERROR", "TIMEOUT", "n/a"


class RunResult:
    def __init__(self, status, kernel_ms=None, total_ms=None, max_rel_err=None, platform="",
                 device="", exit_code=None, seconds=0.0, note="", cpu_share=None, bytes_moved=None,
                 stderr="", others_cpu_pct=None, steal_pct=None):
        self.status = status
        self.kernel_ms = kernel_ms
        self.total_ms = total_ms
        self.max_rel_err = max_rel_err
        self.platform = platform
        self.device = device
        self.exit_code = exit_code
        self.seconds = seconds
        self.note = note
        # From the run's HETERO_TRACE or its exit log (hetero_trace.py); None for native runs.
        self.cpu_share = cpu_share
        self.bytes_moved = bytes_moved
        # What the process wrote to stderr (Hetero's log where HETERO_LOG is set), at most its last
        # STDERR_KEPT characters: the runner writes it to <out>/logs/ (tables.RunLog).
        self.stderr = stderr
        # The machine's CPU time during the run that other processes used, and that the hypervisor
        # gave elsewhere, in percent of all its CPUs' time (cpu_load.py); None where unknown.
        self.others_cpu_pct = others_cpu_pct
        self.steal_pct = steal_pct

    def __repr__(self):
        return "RunResult(%s, kernel_ms=%s, note=%r)" % (self.status, self.kernel_ms, self.note)


def parse_result_line(stdout):
    """Returns the key=value fields of the last `polybench ...` line in stdout, or None."""
    fields = None
    for line in stdout.splitlines():
        if line.startswith("polybench "):
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            fields = {}
            for word in words[1:]:
                key, sep, value = word.partition("=")
                if sep:
                    fields[key] = value
    return fields


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


# A run's stderr kept for its log file: the end, where Hetero's exit counters and the last
# decisions are (a launch-heavy run split every launch logs a line per launch: adi, 200,000).
STDERR_KEPT = 16 * 1024


def kept_stderr(text):
    return (text or "")[-STDERR_KEPT:]


def interpret(exit_code, stdout, stderr, seconds, checked=True):
    """Classifies a finished process. PASS needs exit 0, result=PASS (result=UNCHECKED instead
    when not `checked`: the run was given --no-check, Config.no_check) and both times present."""
    fields = parse_result_line(stdout)
    tail = " ".join((stderr or "").strip().splitlines()[-3:])[-300:]
    if fields is None:
        return RunResult(ERROR, exit_code=exit_code, seconds=seconds,
                         note="no result line (exit %s) %s" % (exit_code, tail),
                         stderr=kept_stderr(stderr))
    result = RunResult(ERROR, _number(fields.get("kernel_ms")), _number(fields.get("total_ms")),
                       _number(fields.get("max_rel_err")), fields.get("platform", ""),
                       fields.get("device", ""), exit_code, seconds)
    result.cpu_share, result.bytes_moved = hetero_trace.from_exit_log(stderr)
    result.stderr = kept_stderr(stderr)
    verdict = fields.get("result")
    if verdict == ("PASS" if checked else "UNCHECKED") and exit_code == 0 and result.kernel_ms is not None \
            and result.total_ms is not None:
        result.status = PASS
        if verdict == "UNCHECKED":
            result.max_rel_err = None  # printed as nan: nothing was compared
    elif verdict == "FAIL" or exit_code == 1:
        result.status = FAIL
        result.note = "result=%s exit %s max_rel_err=%s" % (verdict, exit_code,
                                                            fields.get("max_rel_err"))
    else:
        result.note = "result=%s exit %s %s" % (verdict, exit_code, tail)
    return result


def run_program(command, env, timeout, checked=True):
    """Runs command (a list) with env; kills its whole process group after timeout seconds.
    checked: False when the command has --no-check (see interpret)."""
    start, load = time.monotonic(), cpu_load.sample()
    try:
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True, start_new_session=True)
    except OSError as error:
        return RunResult(ERROR, note="cannot start: %s" % error)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, stderr = process.communicate()
        result = RunResult(TIMEOUT, seconds=time.monotonic() - start,
                           note="killed after %.0f s" % timeout, stderr=kept_stderr(stderr))
    else:
        result = interpret(process.returncode, stdout, stderr, time.monotonic() - start, checked)
    result.others_cpu_pct, result.steal_pct = cpu_load.between(load, cpu_load.sample())
    return result
