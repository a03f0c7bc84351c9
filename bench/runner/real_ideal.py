"""The real ideal co-execution of a static split: what splitting can gain at best when each
device's part is timed as it really runs, beside the textbook 1 / (1/T_gpu + 1/T_cpu).

    real ideal = min over the shares s of max(T_gpu(1 - s), T_cpu(s))

T_gpu(1 - s): the program with the GPU side of every launch's static split s run alone (the
configuration gpu-part-s: the low 1 - s of the work-groups on the GPU, HETERO_TEST_SPLIT_ONLY=gpu).
The textbook ideal takes it as (1 - s) * T_gpu; on a GPU a launch of fewer work-groups than it runs
at once takes as long with 70 % of them as with all. T_cpu(s): the CPU side alone (cpu-part-s)
where measured, else s * T_cpu of the native CPU ("scaled": right only when every work-group costs
the same). No work, no time: T_gpu(0) = T_cpu(0) = 0.

For a program of several launches this is a bound: each side's times are summed over the launches
before the maximum is taken, while a split launch ends when its slower side does.

Standard library only and no import of the rest of the runner: plot.py, run by another
interpreter, uses it too.
"""

PAYS = 1.05  # a real ideal gain at or above this over the best single device: splitting may pay
# Shares are told apart to this many decimals (0.05 from 0.1); configs.share_text spells them so.
SHARE_DIGITS = 2


def share_key(share):
    """A share as the runs of one share are grouped under (float noise in a parsed name dropped)."""
    return round(share, SHARE_DIGITS)


def points(gpu_parts, cpu_parts, t_cpu, shares):
    """[(s, T_gpu(1 - s), T_cpu(s), max of both, cpu measured: True, False, or None when s = 0)]
    for the shares where both sides are known. gpu_parts, cpu_parts: {share: time} of the sides
    run alone; t_cpu: the native CPU's time (for the shares whose CPU side was not measured).
    Empty without any GPU side."""
    gpu_parts = {share_key(s): t for s, t in gpu_parts.items() if t}
    cpu_parts = {share_key(s): t for s, t in cpu_parts.items() if t}
    if not gpu_parts:
        return []
    out = []
    for s in sorted(share_key(x) for x in shares):
        g = 0.0 if s >= 1.0 else gpu_parts.get(s)
        if s <= 0.0:
            c, measured = 0.0, None
        elif s in cpu_parts:
            c, measured = cpu_parts[s], True
        elif t_cpu:
            c, measured = s * t_cpu, False
        else:
            c, measured = None, None
        if g is None or c is None:
            continue
        out.append((s, g, c, max(g, c), measured))
    return out


def best(curve):
    """(time, share, where T_cpu came from: "measured", "scaled" or "mixed") of the fastest point
    of points(); (None, None, None) when there is none."""
    if not curve:
        return None, None, None
    s, _, _, t, _ = min(curve, key=lambda p: (p[3], p[0]))
    kinds = {p[4] for p in curve if p[4] is not None}
    source = "mixed" if len(kinds) > 1 else "measured" if kinds == {True} else "scaled" if kinds else "none"
    return t, s, source


def part_share(config):
    """("gpu" or "cpu", share) of a configuration named gpu-part-0.3 / cpu-part-0.3, else None."""
    for part in ("gpu", "cpu"):
        prefix = part + "-part-"
        if config.startswith(prefix):
            try:
                return part, share_key(float(config[len(prefix):]))
            except ValueError:
                return None
    return None
