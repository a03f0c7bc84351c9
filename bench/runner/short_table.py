"""The short table a session ends with, on the terminal and at the top of results.md: per program,
the best native device and its time, Hetero's time (the `hetero` configuration: no knobs set),
the speedup, the CPU's share of Hetero's work and whether every run passed its check.

Times are kernel_ms medians (stats.py); speedup = best native time / Hetero time.
"""

import textwrap

from .execute import NA, PASS
from .stats import geomean
from .tables import format_ms

COLUMNS = ("program", "best native", "its time", "Hetero", "speedup", "CPU share", "check")
DEVICE_NAMES = {"gpu": "GPU", "cpu": "CPU"}
LEGEND = ("speedup = best native time / Hetero time (above 1: Hetero is faster); CPU share = the "
          "share of the work-groups Hetero ran on the CPU; check = every run's result compared "
          "with the program's sequential reference; times: kernel phase, median over the runs")


def _check(summaries, case):
    """PASS when every configuration of the case that ran passed, else the first bad status
    with the configurations that had it."""
    bad = {}
    for (benchmark, size, config), s in summaries.items():
        if (benchmark, size) == case and s.status not in (PASS, NA):
            bad.setdefault(s.status, []).append(config)
    if not bad:
        ran = any((b, sz) == case and s.status == PASS for (b, sz, _), s in summaries.items())
        return PASS if ran else NA
    status = sorted(bad)[0]
    return "%s (%s)" % (status, ", ".join(bad[status]))


def rows(summaries, derived):
    """One list of cells (COLUMNS) per (benchmark, size) of derived (kernel_ms), and the
    geometric mean of the speedups (None without any)."""
    multi_size = len({d.size for d in derived}) > 1
    result = []
    for d in derived:
        hetero = summaries.get((d.benchmark, d.size, "hetero"))
        share = hetero.cpu_share if hetero is not None and d.t_hetero else None
        result.append([
            "%s %s" % (d.benchmark, d.size) if multi_size else d.benchmark,
            "n/a" if d.best_single is None else DEVICE_NAMES.get(d.best_device, d.best_device),
            "n/a" if d.best_single is None else "%s ms" % format_ms(d.best_single),
            "n/a" if d.t_hetero is None else "%s ms" % format_ms(d.t_hetero),
            "n/a" if d.speedup is None else "%.2fx" % d.speedup,
            "n/a" if share is None else "%.0f %%" % (100.0 * share),
            _check(summaries, (d.benchmark, d.size)),
        ])
    return result, geomean([d.speedup for d in derived])


def text_lines(summaries, derived):
    """The table as aligned plain text."""
    body, mean = rows(summaries, derived)
    if mean is not None:
        body.append(["geomean", "", "", "", "%.2fx" % mean, "", ""])
    widths = [max(len(r[i]) for r in [list(COLUMNS)] + body) for i in range(len(COLUMNS))]
    right = (False, False, True, True, True, True, False)

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w)
                         for c, w, r in zip(cells, widths, right)).rstrip()
    return [line(COLUMNS), line(["-" * w for w in widths])] + [line(r) for r in body] + [""] \
        + textwrap.wrap(LEGEND, 100)


def markdown_lines(summaries, derived):
    body, mean = rows(summaries, derived)
    lines = ["| " + " | ".join(COLUMNS) + " |", "|---|---|---:|---:|---:|---:|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    if mean is not None:
        lines.append("| **geomean** | | | | %.2fx | | |" % mean)
    return lines + ["", LEGEND + "."]
