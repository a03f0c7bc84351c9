"""The runner's files: runs.csv (every run, written as it happens), results.csv (median per
configuration), derived.csv (co-execution figures) and results.md (all of it for people)."""

import csv
import os
import shutil

from . import real_ideal
from .configs import share_text
from .execute import RunResult
from .stats import METRICS, geomean, ratio

RUN_COLUMNS = ("benchmark", "size", "config", "repeat", "status", "exit_code", "kernel_ms",
               "total_ms", "max_rel_err", "platform", "device", "seconds", "cpu_share",
               "bytes_moved", "others_cpu_pct", "steal_pct", "note")
# cpu_share: the CPU's share of the launches' work-groups; bytes_moved: bytes Hetero copied
# (hetero_trace.py). Empty for native configurations. others_cpu_pct, steal_pct: the machine's
# CPU time that other processes used during the run, and that the hypervisor took (cpu_load.py).
RESULT_COLUMNS = ("benchmark", "size", "config", "share", "status", "runs", "passed", "kernel_ms",
                  "total_ms", "kernel_ms_min", "kernel_ms_max", "max_rel_err", "cpu_share",
                  "bytes_moved", "platform", "device", "note")
DERIVED_COLUMNS = ("benchmark", "size", "metric", "t_gpu", "t_cpu", "ideal", "best_single",
                   "best_device", "t_hetero_gpu", "hetero_gpu_overhead", "oracle_static",
                   "oracle_share", "oracle_speedup", "oracle_efficiency", "t_hetero",
                   "hetero_speedup", "hetero_efficiency", "ideal_gain", "unsplit", "real_ideal",
                   "real_share", "real_cpu_source", "real_gain", "real_pays")


def _cell(value, digits=4):
    if value is None:
        return ""
    if isinstance(value, float):
        return "%.*g" % (digits + 2, value)
    return str(value)


def _pct_cell(value):
    return "" if value is None else "%.1f" % value


def _bytes_cell(value):
    return "" if value is None else str(int(round(value)))


class RunLog:
    """Appends one row per run to runs.csv and flushes, so a killed session keeps its data; and
    what each run wrote to stderr, where it wrote anything, to logs/<benchmark>-<size>-<config>-
    <repeat>.txt beside it (Hetero's log: a process that ran far off its configuration's median,
    a crash or a hang can be told apart afterwards, without running it again)."""

    def __init__(self, path):
        self.path = path
        self.logs_dir = os.path.join(os.path.dirname(path), "logs")
        # Like runs.csv, started afresh: an earlier session's log beside a run of this one that
        # wrote nothing would read as that run's.
        shutil.rmtree(self.logs_dir, ignore_errors=True)
        self._file = open(path, "w", newline="")
        self._writer = csv.writer(self._file)
        self._writer.writerow(RUN_COLUMNS)
        self._file.flush()

    def add(self, benchmark, size, config, repeat, r):
        self._writer.writerow([benchmark, size, config, repeat, r.status, _cell(r.exit_code),
                               _cell(r.kernel_ms), _cell(r.total_ms), _cell(r.max_rel_err),
                               r.platform, r.device, "%.3f" % r.seconds, _cell(r.cpu_share),
                               _bytes_cell(r.bytes_moved), _pct_cell(r.others_cpu_pct),
                               _pct_cell(r.steal_pct), r.note])
        self._file.flush()
        if r.stderr:
            os.makedirs(self.logs_dir, exist_ok=True)
            with open(self.log_path(benchmark, size, config, repeat), "w") as out:
                out.write(r.stderr)

    def log_path(self, benchmark, size, config, repeat):
        return os.path.join(self.logs_dir, "%s-%s-%s-%d.txt" % (benchmark, size, config, repeat))

    def close(self):
        self._file.close()


def read_runs(path):
    """Reads a runs.csv back as (benchmark, size, config, RunResult) records (files written
    before cpu_share, bytes_moved, others_cpu_pct or steal_pct existed read as None there). A results.csv reads the same
    way, as one record per configuration carrying its medians (the columns have the same names)."""
    records = []
    with open(path, newline="") as source:
        for row in csv.DictReader(source):
            def number(key):
                return float(row[key]) if row.get(key) not in (None, "") else None
            exit_code = int(row["exit_code"]) if row.get("exit_code") else None
            records.append((row["benchmark"], row["size"], row["config"], RunResult(
                row["status"], number("kernel_ms"), number("total_ms"), number("max_rel_err"),
                row.get("platform", ""), row.get("device", ""), exit_code,
                number("seconds") or 0.0, row.get("note", ""), number("cpu_share"),
                number("bytes_moved"), others_cpu_pct=number("others_cpu_pct"),
                steal_pct=number("steal_pct"))))
    return records


def write_results_csv(path, summaries, configs):
    shares = {c.name: c.share for c in configs}
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(RESULT_COLUMNS)
        for s in summaries.values():
            share = shares.get(s.config)
            writer.writerow([s.benchmark, s.size, s.config, "" if share is None else share_text(share),
                             s.status, len(s.runs), s.passed, _cell(s.kernel_ms),
                             _cell(s.total_ms), _cell(s.kernel_ms_min), _cell(s.kernel_ms_max),
                             _cell(s.max_rel_err), _cell(s.cpu_share), _bytes_cell(s.bytes_moved),
                             s.platform, s.device, s.note])


def write_derived_csv(path, derived_by_metric):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(DERIVED_COLUMNS)
        for metric in METRICS:
            for d in derived_by_metric[metric]:
                writer.writerow([d.benchmark, d.size, metric, _cell(d.t_gpu), _cell(d.t_cpu),
                                 _cell(d.ideal), _cell(d.best_single), d.best_device or "",
                                 _cell(d.t_hetero_gpu), _cell(d.hetero_gpu_overhead),
                                 _cell(d.oracle), "" if d.oracle_share is None else
                                 share_text(d.oracle_share), _cell(d.oracle_speedup),
                                 _cell(d.oracle_efficiency), _cell(d.t_hetero),
                                 _cell(d.speedup), _cell(d.efficiency), _cell(d.ideal_gain),
                                 _cell(d.unsplit), _cell(d.real_ideal), "" if d.real_share is None else
                                 share_text(d.real_share), d.real_cpu_source or "",
                                 _cell(d.real_gain), "" if d.pays is None else
                                 ("yes" if d.pays else "no")])


def format_ms(value):
    if value is None:
        return "n/a"
    if value >= 100:
        return "%.0f" % value
    if value >= 1:
        return "%.2f" % value
    return "%.3f" % value


def _x(value):
    return "n/a" if value is None else "%.3f" % value


def _md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _config_table(lines, summaries, names, cases, cell):
    """One row per (benchmark, size), one column per configuration; cell(summary or None) -> text."""
    lines.append("| benchmark | size | " + " | ".join(names) + " |")
    lines.append("|---|---|" + "---:|" * len(names))
    for benchmark, size in cases:
        cells = [cell(summaries.get((benchmark, size, name))) for name in names]
        lines.append("| %s | %s | %s |" % (benchmark, size, " | ".join(cells)))


def _time_table(lines, summaries, configs, cases, metric):
    def cell(s):
        if s is None or s.status == "n/a":
            return "n/a"
        return format_ms(getattr(s, metric)) if s.status == "PASS" else "**%s**" % s.status
    # The split sides run alone are in the real ideal's table, share by share.
    _config_table(lines, summaries, [c.name for c in configs if not c.part], cases, cell)


def _derived_table(lines, derived):
    lines.append("| benchmark | size | T_gpu | T_cpu | ideal | best single | Hetero-GPU / GPU "
                 "| oracle static (share) | oracle speedup | Hetero | Hetero speedup "
                 "| Hetero efficiency |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for d in derived:
        oracle = "n/a" if d.oracle is None else "%s (%s)" % (format_ms(d.oracle), share_text(d.oracle_share))
        best = "n/a" if d.best_single is None else "%s (%s)" % (format_ms(d.best_single), d.best_device)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            d.benchmark, d.size, format_ms(d.t_gpu), format_ms(d.t_cpu), format_ms(d.ideal), best,
            _x(d.hetero_gpu_overhead), oracle, _x(d.oracle_speedup), format_ms(d.t_hetero),
            _x(d.speedup), _x(d.efficiency)))
    sizes = []
    for d in derived:
        if d.size not in sizes:
            sizes.append(d.size)
    for size in sizes:
        group = [d for d in derived if d.size == size]
        lines.append("| **geomean** | %s | | | | | %s | | %s | | %s | %s |" % (
            size, _x(geomean([d.hetero_gpu_overhead for d in group])),
            _x(geomean([d.oracle_speedup for d in group])),
            _x(geomean([d.speedup for d in group])), _x(geomean([d.efficiency for d in group]))))


def _gain(value):
    return "n/a" if value is None else "%+.1f %%" % (100.0 * (value - 1.0))


def pays_line(derived):
    """The programs whose real ideal gains at least real_ideal.PAYS over the best unsplit time."""
    paying = ["%s %s (%s)" % (d.benchmark, d.size, _gain(d.real_gain)) for d in derived if d.pays]
    measured = [d for d in derived if d.real_ideal is not None]
    if not measured:
        return None
    return "Real ideal gain >= %.0f %% (splitting may pay): %s (of %d measured)" % (
        100 * (real_ideal.PAYS - 1), ", ".join(paying) if paying else "none", len(measured))


def real_ideal_text(derived):
    """The real ideal against the textbook one as plain text lines (for the terminal); [] when
    no split side was measured."""
    measured = [d for d in derived if d.real_ideal is not None]
    if not measured:
        return []
    def ms(value):
        return "n/a" if value is None else "%s ms" % format_ms(value)
    rows = [("program", "size", "best single", "textbook ideal", "gain", "unsplit", "real ideal",
             "share", "T_cpu(s)", "real gain", "pays")]
    for d in measured:
        rows.append((d.benchmark, d.size, "n/a" if d.best_single is None else "%s (%s)" % (
            ms(d.best_single), d.best_device), ms(d.ideal), _gain(d.ideal_gain), ms(d.unsplit),
            ms(d.real_ideal), share_text(d.real_share), d.real_cpu_source, _gain(d.real_gain),
            "n/a" if d.pays is None else "YES" if d.pays else "no"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    text = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return ["Real ideal, min over s of max(T_gpu(1-s), T_cpu(s)), against 1/(1/T_gpu + 1/T_cpu)",
            "(gain: best single device / textbook ideal; real gain: unsplit / real ideal, unsplit =",
            "the best of the native devices and of each side with every work-group):", ""] + text \
        + ["", pays_line(measured)]


def _real_ideal_tables(lines, derived):
    """The real ideal beside the textbook one, then each share's two sides."""
    lines.append("| benchmark | size | T_gpu | T_cpu | best single | textbook ideal | its gain "
                 "| unsplit | real ideal (share) | T_cpu(s) | real gain | pays |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|")
    for d in derived:
        if d.real_ideal is None:
            continue
        best = "n/a" if d.best_single is None else "%s (%s)" % (format_ms(d.best_single), d.best_device)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s |" % (
            d.benchmark, d.size, format_ms(d.t_gpu), format_ms(d.t_cpu), best, format_ms(d.ideal),
            _gain(d.ideal_gain), format_ms(d.unsplit), format_ms(d.real_ideal), share_text(d.real_share), d.real_cpu_source,
            _gain(d.real_gain), "**yes**" if d.pays else "no" if d.pays is not None else "n/a"))
    shares = sorted({p[0] for d in derived for p in d.real_points})
    lines.append("")
    lines.append("Each share s: T_gpu(1 − s) / T_cpu(s) in ms (T_cpu scaled from the native CPU "
                 "where marked ~); the smaller maximum is the real ideal.")
    lines.append("")
    lines.append("| benchmark | size | " + " | ".join("s=" + share_text(s) for s in shares) + " |")
    lines.append("|---|---|" + "---:|" * len(shares))
    for d in derived:
        if d.real_ideal is None:
            continue
        by_share = {p[0]: p for p in d.real_points}
        cells = []
        for s in shares:
            p = by_share.get(s)
            if p is None:
                cells.append("n/a")
                continue
            def side(t):
                return format_ms(t) if t else "–"  # a side with no work-groups
            text = "%s / %s%s" % (side(p[1]), "~" if p[4] is False else "", side(p[2]))
            cells.append("**%s**" % text if s == d.real_share else text)
        lines.append("| %s | %s | %s |" % (d.benchmark, d.size, " | ".join(cells)))


# Hetero against the native GPU: held to the GPU, and the default (GPU + CPU, no knobs).
AGAINST_NATIVE = ("native-gpu", "hetero-gpu", "hetero")
# Where a launch costs most: programs that launch kernels thousands of times per run.
LAUNCH_HEAVY = ("adi", "convolution-2d", "convolution-3d", "doitgen", "gemm", "jacobi-1d", "jacobi-2d", "lu")


def _against_native_table(lines, summaries, cases):
    """Kernel time natively on the GPU, held to the GPU, default: ms and the ratio to native."""
    def ms(s):
        return s.kernel_ms if s is not None and s.status == "PASS" else None
    lines.append("| benchmark | size | native GPU | held to the GPU | held / native | default | default / native |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    held_ratios, default_ratios = {}, {}
    for benchmark, size in cases:
        native, held, default = (ms(summaries.get((benchmark, size, name))) for name in AGAINST_NATIVE)
        h, d = ratio(held, native), ratio(default, native)
        held_ratios.setdefault(size, []).append(h)
        default_ratios.setdefault(size, []).append(d)
        name = "%s (launch-heavy)" % benchmark if benchmark in LAUNCH_HEAVY else benchmark
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (name, size, format_ms(native), format_ms(held), _x(h),
                                                           format_ms(default), _x(d)))
    for size in held_ratios:
        lines.append("| **geomean** | %s | | | %s | | %s |" % (size, _x(geomean(held_ratios[size])),
                                                            _x(geomean(default_ratios[size]))))


def _share(value):
    return "n/a" if value is None else "%.1f %%" % (100.0 * value)


def _megabytes(value):
    if value is None:
        return "n/a"
    return "%.3g MB" % (value / 1e6) if value else "0"


def _work_table(lines, summaries, configs, cases):
    """Per Hetero configuration: the CPU's share of the work-groups and the bytes moved."""
    def cell(s):
        if s is None or (s.cpu_share is None and s.bytes_moved is None):
            return "n/a"
        return "%s, %s" % (_share(s.cpu_share), _megabytes(s.bytes_moved))
    _config_table(lines, summaries, [c.name for c in configs if c.hetero and not c.part], cases, cell)


CHART_CAPTIONS = {
    "results.png": "kernel time against the best native device",
    "static-split.png": "static splits against the ideal co-execution",
}


def write_markdown(path, header_lines, summaries, configs, derived_by_metric, chart_names,
                   chart_note, problems, short_lines):
    """results.md: header, problems, the short table, the charts (chart_names, files next to it;
    or chart_note saying why there are none), then every table."""
    cases = []
    for (benchmark, size, _) in summaries:
        if (benchmark, size) not in cases:
            cases.append((benchmark, size))
    lines = list(header_lines)
    lines.append("")
    if problems:
        lines.append("## Problems (%d)" % len(problems))
        lines.append("")
        for text in problems:
            lines.append("- " + _md_escape(text))
        lines.append("")
    lines.append("## Summary")
    lines.append("")
    lines.extend(short_lines)
    lines.append("")
    for name in chart_names:
        lines.append("![%s](%s)" % (CHART_CAPTIONS.get(name, name), name))
        lines.append("")
    if chart_note:
        lines.append(chart_note)
        lines.append("")
    lines.append("## Configurations")
    lines.append("")
    for c in configs:
        lines.append("- `%s`: %s" % (c.name, c.label))
    lines.append("")
    lines.append("Times are medians over the repeats, in milliseconds. n/a: the configuration's "
                 "platform or device does not exist here (or Hetero is not built). A status in "
                 "bold (FAIL, ERROR, TIMEOUT) means at least one run did not pass; such a "
                 "configuration enters no derived figure.")
    if all(any(c.name == name for c in configs) for name in AGAINST_NATIVE):
        lines.append("")
        lines.append("## Hetero against the native GPU (kernel time, ms)")
        lines.append("")
        lines.append("Held to the GPU: `hetero-gpu`; default: `hetero` (GPU + CPU, no knobs). A ratio "
                     "above 1 is what Hetero costs; launch-heavy programs launch kernels thousands "
                     "of times per run.")
        lines.append("")
        _against_native_table(lines, summaries, cases)
    for metric, title in (("kernel_ms", "Kernel time"), ("total_ms", "Total time (buffers, "
                                                                       "transfers and kernels)")):
        lines.append("")
        lines.append("## %s, ms" % title)
        lines.append("")
        _time_table(lines, summaries, configs, cases, metric)
        lines.append("")
        lines.append("### Co-execution figures (%s)" % metric)
        lines.append("")
        lines.append("ideal = 1/(1/T_gpu + 1/T_cpu); speedup = best single device / T; "
                     "efficiency = ideal / T; Hetero-GPU / GPU = Hetero held to the GPU over "
                     "native GPU (its overhead).")
        lines.append("")
        _derived_table(lines, derived_by_metric[metric])
    real = [d for d in derived_by_metric["kernel_ms"] if d.real_ideal is not None]
    if real:
        lines.append("")
        lines.append("## Real ideal co-execution (kernel time, ms)")
        lines.append("")
        lines.append("textbook ideal = 1/(1/T_gpu + 1/T_cpu) of the native devices; real ideal = "
                     "min over the shares s of max(T_gpu(1 − s), T_cpu(s)), where T_gpu(1 − s) is "
                     "the program with the GPU side of every launch's static split s run alone "
                     "(`gpu-part-s`: the low 1 − s of the work-groups, HETERO_TEST_SPLIT_ONLY=gpu) "
                     "and T_cpu(s) the CPU side alone (`cpu-part-s`, measured) or s·T_cpu "
                     "(scaled); textbook gain = best single device / ideal − 1; real gain = unsplit / real ideal − 1, "
                     "unsplit = the best of the native devices and of each side through Hetero with "
                     "every work-group (s = 0 and 1), so a split pays only against all of them. With several launches per "
                     "program the real ideal is still a bound (each side summed over the launches). "
                     "docs/bench.md explains both.")
        lines.append("")
        lines.append(pays_line(real))
        lines.append("")
        _real_ideal_tables(lines, real)
    if any((s.cpu_share is not None or s.bytes_moved is not None)
           and any(c.name == s.config and not c.part for c in configs) for s in summaries.values()):
        lines.append("")
        lines.append("## CPU share and bytes moved (Hetero configurations)")
        lines.append("")
        lines.append("From each run's HETERO_TRACE, medians over the runs: `cpu_share` = the CPU's "
                     "share of the launches' work-groups, `bytes_moved` = bytes Hetero copied "
                     "between the host and the devices and between devices (not the program's "
                     "own transfers).")
        lines.append("")
        _work_table(lines, summaries, configs, cases)
    lines.append("")
    with open(path, "w") as out:
        out.write("\n".join(lines))


def ensure_dir(path):
    os.makedirs(path, exist_ok=True)
    return path
