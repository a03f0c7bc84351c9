"""From individual runs to per-configuration medians and the co-execution figures.

Definitions (T = median time of a configuration, for kernel_ms and for total_ms alike):
  ideal       = 1 / (1/T_gpu + 1/T_cpu)        perfect co-execution of the two native devices
  best single = min(T_gpu, T_cpu)              the faster native device
  speedup     = best single / T_hetero         > 1: Hetero beats the best single device
  efficiency  = ideal / T_hetero               1.0: Hetero reaches the ideal
  oracle static = the static split (HETERO_CPU_SHARE) with the smallest T
  real ideal  = min over s of max(T_gpu(1 - s), T_cpu(s)), each side of the split run alone
                (real_ideal.py); ideal gain = best single / ideal; real gain = unsplit / real
                ideal, unsplit = the best of the native devices and of each side with every
                work-group (s = 0, 1); a real gain >= 5 % marks a program where splitting may pay
Only configurations whose every run passed enter these figures.
"""

import math
import random

from . import real_ideal
from .execute import ERROR, FAIL, NA, PASS, TIMEOUT

METRICS = ("kernel_ms", "total_ms")


def median(values):
    values = sorted(values)
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2.0


def median_difference(samples, base, draws=4000, seed=1):
    """The difference of medians samples - base, with a 95 % bootstrap interval: (low, mid, high).

    Launch costs on the GPU machine change by process (NVIDIA's launch call takes about 4.0 or 5.5
    us in whole processes, whichever CPU runs it: docs/results/h200-session34), so a difference is
    only as good as the number of processes behind it; the interval says how good.
    """
    mid = median(samples) - median(base)
    rng = random.Random(seed)
    diffs = sorted(median(rng.choices(samples, k=len(samples))) - median(rng.choices(base, k=len(base)))
                   for _ in range(draws))
    return diffs[int(0.025 * draws)], mid, diffs[int(0.975 * draws) - 1]


def ideal_time(t_gpu, t_cpu):
    if not t_gpu or not t_cpu:
        return None
    return 1.0 / (1.0 / t_gpu + 1.0 / t_cpu)


def ratio(numerator, denominator):
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


class Summary:
    """The runs of one (benchmark, size, configuration)."""

    def __init__(self, benchmark, size, config, runs):
        self.benchmark = benchmark
        self.size = size
        self.config = config
        self.runs = runs
        statuses = [r.status for r in runs]
        if not runs or all(s == NA for s in statuses):
            self.status = NA
        elif TIMEOUT in statuses:
            self.status = TIMEOUT
        elif ERROR in statuses:
            self.status = ERROR
        elif FAIL in statuses:
            self.status = FAIL
        else:
            self.status = PASS
        timed = [r for r in runs if r.status in (PASS, FAIL) and r.kernel_ms is not None]
        self.passed = sum(1 for s in statuses if s == PASS)
        self.kernel_ms = median([r.kernel_ms for r in timed])
        self.total_ms = median([r.total_ms for r in timed if r.total_ms is not None])
        self.kernel_ms_min = min([r.kernel_ms for r in timed], default=None)
        self.kernel_ms_max = max([r.kernel_ms for r in timed], default=None)
        # What the runs' traces say (Hetero configurations only): medians over the runs.
        self.cpu_share = median([r.cpu_share for r in runs if r.cpu_share is not None])
        self.bytes_moved = median([r.bytes_moved for r in runs if r.bytes_moved is not None])
        errors = [r.max_rel_err for r in timed if r.max_rel_err is not None]
        self.max_rel_err = max(errors) if errors else None
        self.platform = next((r.platform for r in runs if r.platform), "")
        self.device = next((r.device for r in runs if r.device), "")
        notes = []
        for r in runs:
            if r.note and r.note not in notes:
                notes.append(r.note)
        self.note = "; ".join(notes)

    def time(self, metric):
        """The median of metric, only if every run passed (else None)."""
        return getattr(self, metric) if self.status == PASS else None


def summarise(records):
    """records: list of (benchmark, size, config_name, RunResult). Returns {(b, s, c): Summary}
    keeping first-seen order."""
    grouped = {}
    for benchmark, size, config, result in records:
        grouped.setdefault((benchmark, size, config), []).append(result)
    return {key: Summary(key[0], key[1], key[2], runs) for key, runs in grouped.items()}


class Derived:
    """The co-execution figures of one (benchmark, size) for one metric."""

    def __init__(self, benchmark, size, metric, summaries, config_shares, part_shares=None):
        """summaries: {config_name: Summary} of this benchmark and size; config_shares:
        {config_name: share} of the static configurations; part_shares: {config_name: (part,
        share)} of the split sides run alone (gpu-part-s, cpu-part-s)."""
        self.benchmark, self.size, self.metric = benchmark, size, metric

        def t(name):
            s = summaries.get(name)
            return s.time(metric) if s else None

        self.t_gpu, self.t_cpu = t("native-gpu"), t("native-cpu")
        self.t_hetero_gpu, self.t_hetero = t("hetero-gpu"), t("hetero")
        self.ideal = ideal_time(self.t_gpu, self.t_cpu)
        singles = [(v, n) for v, n in ((self.t_gpu, "gpu"), (self.t_cpu, "cpu")) if v]
        self.best_single, self.best_device = min(singles) if singles else (None, None)
        statics = [(t(name), share) for name, share in config_shares.items() if t(name)]
        self.oracle, self.oracle_share = min(statics) if statics else (None, None)
        self.speedup = ratio(self.best_single, self.t_hetero)
        self.efficiency = ratio(self.ideal, self.t_hetero)
        self.oracle_speedup = ratio(self.best_single, self.oracle)
        self.oracle_efficiency = ratio(self.ideal, self.oracle)
        self.hetero_gpu_overhead = ratio(self.t_hetero_gpu, self.t_gpu)
        sides = {"gpu": {}, "cpu": {}}
        for name, (part, share) in (part_shares or {}).items():
            if t(name):
                sides[part][share] = t(name)
        self.real_points = real_ideal.points(sides["gpu"], sides["cpu"], self.t_cpu,
                                             set(config_shares.values()) | {0.0, 1.0} |
                                             {share for _, share in (part_shares or {}).values()})
        self.real_ideal, self.real_share, self.real_cpu_source = real_ideal.best(self.real_points)
        self.ideal_gain = ratio(self.best_single, self.ideal)
        # A split pays against the best time without one: a native device, or one side through
        # Hetero with every work-group (shares 0 and 1), so that Hetero's own noise never does.
        unsplit = [p[3] for p in self.real_points if p[0] in (0.0, 1.0)] + [self.best_single]
        unsplit = [v for v in unsplit if v]
        self.unsplit = min(unsplit) if self.real_points and unsplit else None
        self.real_gain = ratio(self.unsplit, self.real_ideal)
        self.pays = None if self.real_gain is None else self.real_gain >= real_ideal.PAYS


def derive(summaries, configs, metric):
    """One Derived per (benchmark, size) in first-seen order."""
    shares = {c.name: c.share for c in configs if c.is_static}
    parts = {c.name: (c.part, c.share) for c in configs if c.part}
    by_case = {}
    for (benchmark, size, config), summary in summaries.items():
        by_case.setdefault((benchmark, size), {})[config] = summary
    return [Derived(b, s, metric, cases, shares, parts) for (b, s), cases in by_case.items()]
