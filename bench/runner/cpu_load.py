"""What else the machine's CPUs did while one run ran: the share of their time that other
processes kept busy, and the share the hypervisor gave elsewhere (steal), from the `cpu` line of
/proc/stat around the run, less the run's own CPU time (its rusage). A split's CPU side, and the
threads that feed the GPU, depend on them: the GPU machine's CPUs ran PoCL twice as fast for a
stretch of one session, and busy loops beside a run slowed its launches (docs/results/h100-session47).
None where /proc/stat cannot be read (not Linux)."""

import os
import resource

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class Sample:
    """The machine's CPU time so far, in seconds summed over every CPU: busy (user, nice, system,
    irq, softirq), stolen, and in all; and the CPU time of this process's waited-for children."""

    def __init__(self, busy, steal, total, children):
        self.busy, self.steal, self.total, self.children = busy, steal, total, children


def parse_stat_line(line):
    """(busy, steal, total) seconds from /proc/stat's `cpu ...` line, or None."""
    words = line.split()
    if len(words) < 9 or words[0] != "cpu":
        return None
    try:
        user, nice, system, idle, iowait, irq, softirq, steal = (int(w) for w in words[1:9])
    except ValueError:
        return None
    busy = user + nice + system + irq + softirq  # guest time is inside user already
    total = busy + idle + iowait + steal
    return busy / _TICK, steal / _TICK, total / _TICK


def sample():
    """The machine's CPU time now, or None."""
    try:
        with open("/proc/stat") as stat:
            times = parse_stat_line(stat.readline())
    except OSError:
        return None
    if times is None:
        return None
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Sample(*times, children.ru_utime + children.ru_stime)


def between(before, after):
    """(others_cpu_pct, steal_pct) between two samples, the run's own CPU time (its children's
    difference: the runner runs one program at a time) taken out of the busy time; (None, None)
    when a sample is missing or no time passed."""
    if before is None or after is None or after.total <= before.total:
        return None, None
    total = after.total - before.total
    own = max(0.0, after.children - before.children)
    others = max(0.0, (after.busy - before.busy) - own)
    return 100.0 * min(others, total) / total, 100.0 * (after.steal - before.steal) / total
