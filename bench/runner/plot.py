"""Draws the runner's charts with matplotlib from a results.csv (the medians the runner writes):

  results.png       per program, one bar per configuration: its kernel time divided by the best
                    native device's (log scale, lower is better, 1 = that device); the static
                    splits appear as one bar, the best share, and in full in the next chart
  static-split.png  per program where static splits were measured: kernel time against the CPU's
                    share, next to the ideal co-execution time of that share,
                    max(share * T_cpu, (1 - share) * T_gpu), the real ideal of each share
                    where each side was measured alone, max(T_gpu(1 - share), T_cpu(share))
                    (real_ideal.py), and the native and Hetero times

Run as a script by the interpreter that has matplotlib (plot_runner.py finds it; the runner's own
interpreter may lack it):  python3 plot.py RESULTS_CSV OUT_DIR
It prints the path of every file it wrote, one a line. Standard library + matplotlib only, no
import of the rest of the runner, so that any Python 3 with matplotlib can run it.
"""

import csv
import math
import os
import sys

try:
    from . import real_ideal
except ImportError:  # run as a script: the runner's folder is on the path
    import real_ideal

NATIVE = ("native-gpu", "native-cpu")
BEST_STATIC = "best static split"
# Colour and label of each configuration the bar chart knows; others get grey.
STYLE = {
    "native-gpu": ("#2ca02c", "native GPU"),
    "native-cpu": ("#1f77b4", "native CPU (PoCL)"),
    "hetero-gpu": ("#98df8a", "Hetero held to the GPU"),
    "hetero-cpu": ("#aec7e8", "Hetero held to the CPU"),
    BEST_STATIC: ("#ff7f0e", "Hetero, best static split"),
    "hetero": ("#d62728", "Hetero (default settings)"),
    "hetero-discrete": ("#9467bd", "Hetero split, discrete memory"),
    "hetero-unified": ("#17becf", "Hetero split, unified memory"),
}
ORDER = ("native-gpu", "native-cpu", "hetero-gpu", "hetero-cpu", BEST_STATIC, "hetero",
         "hetero-discrete", "hetero-unified")


def read_results(path):
    """{(benchmark, size): {config: row}} in file order; row: the CSV's dict with 'time' (the
    median kernel_ms as float, None unless the configuration passed) and 'share' as float."""
    cases = {}
    with open(path, newline="") as source:
        for row in csv.DictReader(source):
            row = dict(row)
            try:
                row["time"] = float(row["kernel_ms"]) if row["status"] == "PASS" else None
            except (TypeError, ValueError):
                row["time"] = None
            row["share"] = float(row["share"]) if row.get("share") else None
            try:
                row["cpu_share"] = float(row["cpu_share"]) if row.get("cpu_share") else None
            except ValueError:
                row["cpu_share"] = None
            cases.setdefault((row["benchmark"], row["size"]), {})[row["config"]] = row
    return cases


def statics(configs):
    """[(share, time)] of the passing static splits of one case, by share."""
    return sorted((r["share"], r["time"]) for name, r in configs.items()
                  if r["share"] is not None and r["time"] and not real_ideal.part_share(name))


def real_points(configs):
    """real_ideal.points() of one case, from its split sides run alone (gpu-part-s, cpu-part-s)."""
    sides = {"gpu": {}, "cpu": {}}
    for name, row in configs.items():
        part = real_ideal.part_share(name)
        if part and row["time"]:
            sides[part[0]][part[1]] = row["time"]
    t_cpu = (configs.get("native-cpu") or {}).get("time")
    shares = set(sides["gpu"]) | set(sides["cpu"]) | {0.0, 1.0}
    return real_ideal.points(sides["gpu"], sides["cpu"], t_cpu, shares)


def best_share(configs):
    """The share of the fastest passing static split of one case."""
    return min(statics(configs), key=lambda point: point[1])[0]


def bar_values(configs):
    """({series: time / reference}, {series: status} of the series that did not pass, reference
    name) for one case. Reference: the best passing native device, else the fastest
    configuration."""
    times, failed = {}, {}
    for name, row in configs.items():
        if real_ideal.part_share(name):
            continue  # a split side alone: wrong results on purpose, in the static-split chart only
        series = BEST_STATIC if row["share"] is not None else name
        if row["time"]:
            if series not in times or row["time"] < times[series]:
                times[series] = row["time"]
        elif row["status"] not in ("PASS", "n/a") and series != BEST_STATIC:
            failed[series] = row["status"]
    natives = [times[n] for n in NATIVE if n in times]
    if natives:
        reference, label = min(natives), "best native device"
    elif times:
        reference, label = min(times.values()), "fastest configuration"
    else:
        return {}, failed, None
    return {s: t / reference for s, t in times.items()}, failed, label


def case_label(case, multi_size):
    return "%s %s" % case if multi_size else case[0]


def devices_line(cases):
    """'native GPU: X · native CPU: Y' from the device column of the native rows."""
    found = {}
    for configs in cases.values():
        for name in NATIVE:
            row = configs.get(name)
            if row and row.get("device") and name not in found:
                found[name] = row["device"]
    parts = ["%s: %s" % (STYLE[n][1], found[n]) for n in NATIVE if n in found]
    return " · ".join(parts)


def log_ticks(low, high):
    """1-2-5 ticks between low and high, for a log axis that shows its numbers."""
    ticks = []
    for exponent in range(int(math.floor(math.log10(low))), int(math.ceil(math.log10(high))) + 1):
        for mantissa in (1, 2, 5):
            value = mantissa * 10.0 ** exponent
            if low <= value <= high:
                ticks.append(value)
    return ticks


def draw_bars(plt, cases, path, title):
    multi_size = len({size for _, size in cases}) > 1
    names = list(cases)
    values = {case: bar_values(cases[case]) for case in names}
    present = set()
    for v, failed, _ in values.values():
        present.update(v)
        present.update(failed)
    series = [s for s in ORDER if s in present] + sorted(present - set(ORDER))
    reference = next((label for _, _, label in values.values() if label), "best native device")

    bar_w = 0.8 / max(1, len(series))
    legend_rows = int(math.ceil(len(series) / 3.0))
    legend_h = 0.2 + 0.22 * legend_rows  # inches under the axis for the legend
    width = min(15.0, max(10.0, 1.3 + len(names) * (0.13 * len(series) + 0.22)))
    height = 5.4 + legend_h
    figure, axis = plt.subplots(figsize=(width, height), dpi=100)
    finite = [x for v, _, _ in values.values() for x in v.values()]
    low = min(finite + [0.5]) / 1.5
    high = max(finite + [2.0]) * 2.5  # room for the values written above the bars
    for index, s in enumerate(series):
        colour, label = STYLE.get(s, ("#7f7f7f", s))
        xs, heights = [], []
        for column, case in enumerate(names):
            v, failed, _ = values[case]
            x = column + (index - (len(series) - 1) / 2.0) * bar_w
            if s in v:
                xs.append(x)
                heights.append(v[s])
                text = "%.3g" % v[s]
                if s == BEST_STATIC:
                    text += " @%g" % best_share(cases[case])
                axis.text(x, v[s] * 1.06, text, ha="center", va="bottom", rotation=90, fontsize=7)
            elif s in failed:
                axis.text(x, low * 1.08, failed[s], ha="center", va="bottom", rotation=90,
                          fontsize=7, color="#c00000", fontweight="bold")
        # Bars start at the axis' lower edge: on a log axis a bar has no zero to start from.
        axis.bar(xs, [h - low for h in heights], bottom=low, width=bar_w * 0.9, color=colour,
                 label=label + (" (value @ its CPU share)" if s == BEST_STATIC else ""))
    axis.axhline(1.0, color="black", linewidth=1.2)
    axis.set_yscale("log")
    axis.set_ylim(low, high)
    axis.set_yticks(log_ticks(low, high))
    axis.yaxis.set_major_formatter(plt.FuncFormatter(lambda y, _: "%g" % y))
    axis.yaxis.set_minor_formatter(plt.NullFormatter())
    axis.set_xticks(range(len(names)))
    axis.set_xticklabels([case_label(c, multi_size) for c in names], fontsize=10, rotation=35,
                         ha="right", rotation_mode="anchor")
    axis.set_xlim(-0.6, len(names) - 0.4)
    axis.set_ylabel("kernel time / %s's\n(log scale; lower is better)" % reference, fontsize=10)
    axis.grid(axis="y", which="major", color="#dddddd")
    axis.set_axisbelow(True)
    devices = devices_line(cases)
    axis.set_title((title or "Kernel time against the best native device")
                   + ("\n" + devices if devices else ""), fontsize=11)
    figure.legend(loc="lower center", ncol=min(3, len(series)), fontsize=9, frameon=False)
    figure.tight_layout(rect=(0, legend_h / height, 1, 1))
    figure.savefig(path)
    plt.close(figure)


def ideal_static(share, t_gpu, t_cpu):
    """The time of a static split if both devices ran their share at their native speed at once."""
    return max(share * t_cpu, (1.0 - share) * t_gpu)


def draw_static(plt, cases, path):
    """One panel per case with at least two measured static shares; False when there is none."""
    panels = [case for case in cases if len(statics(cases[case])) >= 2 or len(real_points(cases[case])) >= 2]
    if not panels:
        return False
    multi_size = len({size for _, size in cases}) > 1
    columns = min(3, len(panels))
    rows = int(math.ceil(len(panels) / float(columns)))
    legend_columns = 3 if columns >= 3 else 2
    legend_h = 0.2 + 0.2 * math.ceil(7.0 / legend_columns)  # inches under the panels: 7 entries at most
    height = 3.2 * rows + legend_h
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, height), dpi=100,
                                squeeze=False)
    handles = {}
    for index, case in enumerate(panels):
        axis = axes[index // columns][index % columns]
        configs = cases[case]
        measured = statics(configs)
        if measured:
            line, = axis.plot([s for s, _ in measured], [t for _, t in measured], "o-",
                              color=STYLE[BEST_STATIC][0], label="Hetero static split (measured)")
            handles[line.get_label()] = line
        real = real_points(configs)
        if real:
            line, = axis.plot([p[0] for p in real], [p[3] for p in real], "s-", color="#9467bd",
                              markersize=4, label="real ideal: max(T_gpu(1−s), T_cpu(s)), sides run alone")
            handles[line.get_label()] = line
            gpu = [(p[0], p[1]) for p in real if p[1] > 0]
            line, = axis.plot([x for x, _ in gpu], [t for _, t in gpu], "x:", color="#9467bd",
                              markersize=5, linewidth=0.8, label="GPU side alone: T_gpu(1−s)")
            handles[line.get_label()] = line
        t_gpu = (configs.get("native-gpu") or {}).get("time")
        t_cpu = (configs.get("native-cpu") or {}).get("time")
        if t_gpu and t_cpu:
            shares = [i / 100.0 for i in range(101)]
            line, = axis.plot(shares, [ideal_static(s, t_gpu, t_cpu) for s in shares], "--",
                              color="black", linewidth=1, label="textbook ideal: max(s·T_cpu, (1−s)·T_gpu)")
            handles[line.get_label()] = line
        for name in ("native-gpu", "native-cpu"):
            row = configs.get(name)
            if row and row["time"]:
                line = axis.axhline(row["time"], color=STYLE[name][0], linewidth=1, linestyle=":",
                                    label=STYLE[name][1])
                handles[line.get_label()] = line
        hetero = configs.get("hetero")
        if hetero and hetero["time"] and hetero["cpu_share"] is not None:
            mark, = axis.plot([hetero["cpu_share"]], [hetero["time"]], "*", markersize=12,
                              color=STYLE["hetero"][0], label="Hetero default (at its CPU share)")
            handles[mark.get_label()] = mark
        elif hetero and hetero["time"]:  # a session from before the CPU share was recorded
            mark = axis.axhline(hetero["time"], color=STYLE["hetero"][0], linewidth=1,
                                linestyle="-.", label="Hetero default (CPU share not recorded)")
            handles[mark.get_label()] = mark
        axis.set_yscale("log")
        axis.set_xlim(-0.03, 1.03)
        axis.set_title(case_label(case, multi_size), fontsize=10)
        axis.set_xlabel("CPU share s of the work-groups", fontsize=9)
        axis.set_ylabel("kernel ms (log)", fontsize=9)
        axis.tick_params(labelsize=8)
        axis.grid(color="#e5e5e5")
    for index in range(len(panels), rows * columns):
        axes[index // columns][index % columns].axis("off")
    devices = devices_line(cases)
    figure.suptitle("Static splits against the ideal co-execution"
                    + ("\n" + devices if devices else ""), fontsize=11)
    figure.legend(list(handles.values()), list(handles), loc="lower center", ncol=legend_columns,
                  fontsize=8, frameon=False)
    figure.tight_layout(rect=(0, legend_h / height, 1, 1))
    figure.savefig(path)
    plt.close(figure)
    return True


def draw(results_csv, out_dir, title=None):
    """Writes the charts of results_csv into out_dir; returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    cases = read_results(results_csv)
    written = []
    if not cases:
        return written
    path = os.path.join(out_dir, "results.png")
    draw_bars(plt, cases, path, title)
    written.append(path)
    path = os.path.join(out_dir, "static-split.png")
    if draw_static(plt, cases, path):
        written.append(path)
    elif os.path.exists(path):
        os.remove(path)  # a chart of an earlier session in this folder would mislead
    return written


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write("usage: plot.py RESULTS_CSV OUT_DIR [TITLE]\n")
        return 2
    for path in draw(argv[0], argv[1], argv[2] if len(argv) == 3 else None):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
