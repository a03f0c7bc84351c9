"""bench/run: runs the PolyBench programs under every configuration and writes the reports."""

import argparse
import json
import os
import shlex
import subprocess
import sys

from . import configs as configs_module, hetero_trace, machine, plot_runner, short_table, stats, \
    tables
from .execute import ERROR, NA, PASS, TIMEOUT, RunResult, run_program
from .progress import Progress

BENCHMARKS = ("2mm", "3mm", "atax", "bicg", "correlation", "covariance", "doitgen", "gemm",
              "gemver", "gesummv", "gramschmidt", "lu", "mvt", "syr2k", "syrk", "adi",
              "convolution-2d", "convolution-3d", "fdtd-2d", "jacobi-1d", "jacobi-2d")
SIZES = ("MINI", "SMALL", "STANDARD", "LARGE", "EXTRALARGE")
RUNNER_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(RUNNER_DIR))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="bench/run",
        description="Run the PolyBench/GPU programs natively and through Hetero, side by side, "
                    "and write results.csv, derived.csv, results.md and the charts (results.png, "
                    "static-split.png; drawn with matplotlib where some Python has it).")
    parser.add_argument("--build", default=os.environ.get("HETERO_BUILD",
                                                          os.path.join(REPO_ROOT, "build")),
                        help="CMake build tree holding bench/polybench-* and vendors/hetero.icd "
                             "(default $HETERO_BUILD or <repo>/build)")
    parser.add_argument("--benchmarks", default="all",
                        help="comma-separated names or 'all' (default all: %s)" % ",".join(BENCHMARKS))
    parser.add_argument("--sizes", default="STANDARD", help="comma-separated dataset sizes "
                        "(%s; default STANDARD)" % ",".join(SIZES))
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs (processes) per configuration; the median is reported "
                             "(default 5)")
    parser.add_argument("--inner-repeat", type=int, default=2,
                        help="--repeat passed to each program: it times its phase this often and "
                             "reports the fastest, so first-launch compilation is not measured "
                             "(default 2)")
    parser.add_argument("--configs", default="default",
                        help="comma-separated configurations or groups (default: %s; groups: "
                             "sweep (= %s), all, native, static, hetero-all, memory; e.g. "
                             "static-0.3)" % (configs_module.DEFAULT_SELECTION,
                                              configs_module.SWEEP_SELECTION))
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=BASE:VAR=VALUE[,VAR=VALUE...]",
                        help="one more configuration: BASE (one of --list's) with these environment "
                             "variables too, named NAME, run round by round with the others (a "
                             "knob's effect, e.g. held-noflush=hetero-gpu:HETERO_TEST_FLUSH_EVERY=0; "
                             "a comma followed by VAR= starts the next variable, so a value may hold "
                             "commas); repeatable")
    parser.add_argument("--out", default=None, help="output folder (default "
                        "<build>/bench-results)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds one program run may take before it is killed (default 600)")
    parser.add_argument("--no-check", action="store_true",
                        help="give every program --no-check: no sequential reference is computed "
                             "(at LARGE it takes minutes per run on one core); results then read "
                             "UNCHECKED and pass")
    parser.add_argument("--no-trace", action="store_true",
                        help="run Hetero without HETERO_TRACE, so the times carry no tracing cost "
                             "(a completion callback per command); cpu_share and bytes_moved then "
                             "come from the counters Hetero logs at exit (HETERO_LOG=info)")
    parser.add_argument("--traces", default=None,
                        help="keep every Hetero run's HETERO_TRACE file in this folder "
                             "(<benchmark>-<size>-<config>-<repeat>.json, for ui.perfetto.dev); "
                             "by default they are read and deleted")
    parser.add_argument("--from", dest="from_runs", default=None,
                        help="comma-separated runs.csv or results.csv files of earlier sessions: "
                             "merge them and write the reports and charts without running "
                             "anything (how the GPU machine's CSV files get their charts)")
    parser.add_argument("--list", action="store_true", help="list benchmarks and configurations")
    parser.add_argument("--self-test", action="store_true",
                        help="check the runner itself: unit checks, then a MINI native-CPU run "
                             "into a temporary folder whose CSV/MD/PNG are validated")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = os.path.join(args.build, "bench-results")
    if args.repeat < 1 or args.inner_repeat < 1:
        parser.error("--repeat and --inner-repeat must be at least 1")
    try:
        args.config_list = configs_module.select(args.configs)
        for spec in args.variant:
            added = configs_module.variant(spec)
            if any(c.name == added.name for c in args.config_list):
                raise ValueError("--variant '%s': %s is named twice" % (spec, added.name))
            args.config_list.append(added)
    except ValueError as error:
        parser.error(str(error))
    if args.benchmarks.strip() == "all":
        args.benchmark_list = list(BENCHMARKS)
    else:
        args.benchmark_list = [b.strip() for b in args.benchmarks.split(",") if b.strip()]
        unknown = [b for b in args.benchmark_list if b not in BENCHMARKS]
        if unknown:
            parser.error("unknown benchmark(s): %s" % ", ".join(unknown))
    args.size_list = [s.strip().upper() for s in args.sizes.split(",") if s.strip()]
    bad = [s for s in args.size_list if s not in SIZES]
    if bad or not args.size_list:
        parser.error("unknown size(s): %s" % ", ".join(bad))
    return args


def executable(build_dir, benchmark):
    return os.path.join(build_dir, "bench", "polybench-" + benchmark)


def run_probe(env, timeout=60):
    """The platforms the loader shows in env (see probe.py); None with a reason on failure."""
    try:
        done = subprocess.run([sys.executable, "-B", os.path.join(RUNNER_DIR, "probe.py")],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "OpenCL probe timed out after %d s" % timeout
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, "OpenCL probe crashed (exit %d): %s" % (done.returncode, done.stderr[-200:])
    if result.get("error"):
        return None, "OpenCL probe: %s" % result["error"]
    return result["platforms"], None


def has_device(platforms, name_part, device, exclude=None):
    for p in platforms or []:
        if name_part.lower() not in p["name"].lower():
            continue
        if exclude and exclude.lower() in p["name"].lower():
            continue
        for d in p["devices"]:
            if device in ("all", "default") or device in d["type"]:
                return True
    return False


def availability(config_list, build_dir, base_env):
    """Decides per configuration whether it runs. Returns (reasons, broken, native, hetero):
    reasons {name: why it is n/a, or None}; broken {name: why a built Hetero cannot be used} (an
    error, not n/a); native and hetero: probe results for the report header."""
    native_env = configs_module.all_configs()[0].environment(base_env, build_dir)
    native, native_error = run_probe(native_env)
    hetero_seen = None
    icd = os.path.join(build_dir, "vendors", "hetero.icd")
    probes = {}
    reasons, broken = {}, {}
    for c in config_list:
        reasons[c.name] = None
        if c.hetero and not os.path.exists(icd):
            reasons[c.name] = "Hetero not built (no %s)" % icd
            continue
        # Hetero held to one kind of device needs that device natively.
        held = c.env.get("HETERO_DEVICES")
        if held in ("gpu", "cpu") and not has_device(native, "", held, exclude="hetero"):
            reasons[c.name] = "no native %s device for HETERO_DEVICES=%s" % (held, held)
            continue
        env = c.environment(base_env, build_dir)
        key = tuple(sorted((k, v) for k, v in env.items()
                           if k.startswith("HETERO_") or k.startswith("OCL_ICD")))
        if key not in probes:
            probes[key] = run_probe(env)
        platforms, error = probes[key]
        if not error and c.hetero and hetero_seen is None:
            hetero_seen = [p for p in platforms if "hetero" in p["name"].lower()]
        if not error and has_device(platforms, c.platform, c.device):
            continue
        why = error or "no platform '%s' with a device of type %s" % (c.platform, c.device)
        if c.hetero:
            # Built but unusable (the loader cannot load it, it crashes, it shows no device).
            broken[c.name] = "Hetero is built (%s) but unusable: %s" % (icd, why)
        else:
            reasons[c.name] = why
    if native_error:
        native = None
    return reasons, broken, native, hetero_seen


def problems_of(summaries):
    lines = []
    for s in summaries.values():
        if s.status not in (PASS, NA):
            lines.append("%s %s %s: %s %s" % (s.benchmark, s.size, s.config, s.status, s.note))
    return lines


def write_reports(out_dir, header_lines, records, config_list, title=None):
    """Writes results.csv, derived.csv, results.md and the charts; returns (problem lines, the
    short table's lines, what became of the charts: a line to print)."""
    order = {c.name: i for i, c in enumerate(config_list)}
    summaries = stats.summarise(records)
    cases = {}
    for (benchmark, size, _) in summaries:
        cases.setdefault((benchmark, size), len(cases))
    summaries = dict(sorted(summaries.items(), key=lambda item: (
        cases[item[0][:2]], order.get(item[0][2], len(order)))))
    derived = {metric: stats.derive(summaries, config_list, metric) for metric in stats.METRICS}
    problems = problems_of(summaries)
    results_csv = os.path.join(out_dir, "results.csv")
    tables.write_results_csv(results_csv, summaries, config_list)
    tables.write_derived_csv(os.path.join(out_dir, "derived.csv"), derived)
    charts, why_not = plot_runner.draw(results_csv, out_dir, title)
    if why_not:
        for name in plot_runner.CHART_NAMES:  # an earlier session's chart would mislead
            if os.path.exists(os.path.join(out_dir, name)):
                os.remove(os.path.join(out_dir, name))
        chart_note = "Charts not drawn: %s. Draw them where matplotlib exists with " \
                     "`bench/run --from %s`." % (why_not, results_csv)
    else:
        chart_note = "charts: " + ", ".join(charts)
    tables.write_markdown(os.path.join(out_dir, "results.md"), header_lines, summaries,
                          config_list, derived, [os.path.basename(c) for c in charts],
                          None if charts else chart_note, problems,
                          short_table.markdown_lines(summaries, derived["kernel_ms"]))
    table = short_table.text_lines(summaries, derived["kernel_ms"])
    real = tables.real_ideal_text(derived["kernel_ms"])
    if real:
        table = table + [""] + real
    return problems, table, chart_note


def sizes_text(size_list):
    return "%s size%s" % (", ".join(size_list), "s" if len(size_list) > 1 else "")


def chart_title(size_list):
    return "Kernel time against the best native device, " + sizes_text(size_list)


def run_session(args, stream=None, table_stream=None):
    """Runs everything args selects, reporting progress on stream (stderr) and ending with the
    short table on table_stream (stdout); returns the process exit code (0 all passed, 1
    otherwise)."""
    out_dir = tables.ensure_dir(args.out)
    build_dir = os.path.abspath(args.build)
    base_env = dict(os.environ)
    reasons, broken, native, hetero = availability(args.config_list, build_dir, base_env)
    runnable = [c for c in args.config_list if reasons[c.name] is None and c.name not in broken]
    missing = {b for b in args.benchmark_list if not os.access(executable(build_dir, b), os.X_OK)}

    command_line = " ".join(shlex.quote(a) for a in ["bench/run"] + list(args.argv))
    header = machine.header_lines(
        "Hetero PolyBench/GPU results", command_line, REPO_ROOT, build_dir, native, hetero,
        [("sizes", ",".join(args.size_list)),
         ("repeats", "%d processes per configuration (median), each timing its phase %d times "
                     "(fastest)" % (args.repeat, args.inner_repeat)),
         ("timeout", "%.0f s per run" % args.timeout),
         ("results", "unchecked (--no-check)" if args.no_check else
          "checked against the sequential reference (split sides alone: unchecked)"),
         ("HETERO_TRACE", "off (--no-trace): cpu_share and bytes_moved from the exit log" if args.no_trace else
          "on in Hetero runs, a file per run (cpu_share, bytes_moved)")]
        + [("n/a", "`%s`: %s" % (c.name, reasons[c.name])) for c in args.config_list
           if reasons[c.name]]
        + [("ERROR", "`%s`: %s" % (name, why)) for name, why in broken.items()]
        + ([("not built", ", ".join(sorted(missing)))] if missing else []))
    with open(os.path.join(out_dir, "session.md"), "w") as out:
        out.write("\n".join(header) + "\n")

    log = tables.RunLog(os.path.join(out_dir, "runs.csv"))
    records = []

    def record(benchmark, size, config, repeat, result):
        records.append((benchmark, size, config, result))
        log.add(benchmark, size, config, repeat, result)
        result.stderr = ""  # in logs/ now; a session of thousands of runs need not hold it

    progress_stream = stream or sys.stderr
    for name, why in broken.items():
        progress_stream.write("*** ERROR: %s: %s\n" % (name, why))
    total = len(args.size_list) * (len(args.benchmark_list) - len(missing)) * len(runnable) \
        * args.repeat
    progress = Progress(total, stream)
    traces = hetero_trace.TraceFiles(args.traces)
    for size in args.size_list:
        for benchmark in args.benchmark_list:
            if benchmark in missing:
                for c in args.config_list:
                    record(benchmark, size, c.name, 0, RunResult(
                        NA, note="%s not built" % executable(build_dir, benchmark)))
                continue
            for c in args.config_list:
                if reasons[c.name]:
                    record(benchmark, size, c.name, 0, RunResult(NA, note=reasons[c.name]))
                elif c.name in broken:
                    record(benchmark, size, c.name, 0, RunResult(ERROR, note=broken[c.name]))
            given_up = set()
            for repeat in range(1, args.repeat + 1):
                for c in runnable:
                    if c.name in given_up:
                        progress.step()
                        continue
                    progress.update("%s %s %s run %d/%d" % (benchmark, size, c.name, repeat,
                                                            args.repeat))
                    unchecked = c.no_check or args.no_check
                    command = [executable(build_dir, benchmark), "--size", size, "--platform",
                               c.platform, "--device", c.device, "--repeat",
                               str(args.inner_repeat)] + (["--no-check"] if unchecked else [])
                    env = c.environment(base_env, build_dir)
                    # Hetero runs write a trace: the CPU's share of the work and the bytes moved.
                    trace = traces.path_for(benchmark, size, c.name, repeat) \
                        if c.hetero and not args.no_trace else None
                    if trace:
                        env["HETERO_TRACE"] = trace
                    elif c.hetero:
                        env.setdefault("HETERO_LOG", "info")  # the counters line at exit
                    result = run_program(command, env, args.timeout, checked=not unchecked)
                    if trace:
                        traces.collect(trace, result)
                    record(benchmark, size, c.name, repeat, result)
                    progress.step()
                    if result.status != PASS:
                        progress.loud("*** %s: %s %s %s run %d: %s" % (
                            result.status, benchmark, size, c.name, repeat, result.note))
                    if result.status in (ERROR, TIMEOUT):
                        given_up.add(c.name)  # no use repeating a crash or a hang
    progress.finish()
    log.close()
    traces.close()

    problems, table, chart_note = write_reports(out_dir, header, records, args.config_list,
                                                chart_title(args.size_list))
    stream = stream or sys.stderr
    table_stream = table_stream or sys.stdout
    table_stream.write("\nHetero against the best native device, %s:\n\n%s\n\n" % (
        sizes_text(args.size_list), "\n".join(table)))
    table_stream.flush()
    stream.write("wrote %s/{runs.csv,results.csv,derived.csv,results.md}; %s\n"
                 % (out_dir, chart_note))
    if problems:
        stream.write("*** %d configuration(s) did not pass:\n" % len(problems))
        for line in problems:
            stream.write("***   %s\n" % line)
        return 1
    return 0


def regenerate(args, stream=None, table_stream=None):
    """--from: merge earlier runs.csv or results.csv files and rewrite the reports and charts."""
    out_dir = tables.ensure_dir(args.out)
    records, header = [], []
    for path in [p.strip() for p in args.from_runs.split(",") if p.strip()]:
        records.extend(tables.read_runs(path))
        session = os.path.join(os.path.dirname(path), "session.md")
        if os.path.exists(session):
            with open(session) as source:
                lines = source.read().splitlines()
            body = [l for l in lines if not l.startswith("# ")]
            while body and not body[0].strip():
                body.pop(0)
            header.extend(["## Session of %s" % path, ""] + body + [""])
    seen = {config for _, _, config, _ in records}
    config_list = [c for c in configs_module.all_configs(configs_module.shares_named(seen)) if c.name in seen]
    # Names this runner does not know (an earlier --variant) keep their columns, after the rest.
    for name in dict.fromkeys(config for _, _, config, _ in records):
        if not any(c.name == name for c in config_list):
            hetero = any(config == name and r.platform.startswith("Hetero") for _, _, config, r in records)
            config_list.append(configs_module.from_earlier(name, hetero))
    sizes = []
    for _, size, _, _ in records:
        if size not in sizes:
            sizes.append(size)
    problems, table, chart_note = write_reports(
        out_dir, ["# Hetero PolyBench/GPU results (merged)", ""] + header, records, config_list,
        chart_title(sizes))
    table_stream = table_stream or sys.stdout
    table_stream.write("\nHetero against the best native device, %s:\n\n%s\n\n" % (
        sizes_text(sizes), "\n".join(table)))
    table_stream.flush()
    (stream or sys.stderr).write("wrote %s from %d runs; %s\n" % (out_dir, len(records), chart_note))
    return 1 if problems else 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    args.argv = argv
    if args.list:
        print("benchmarks: " + " ".join(BENCHMARKS))
        for c in configs_module.all_configs():
            print("%-12s %s" % (c.name, c.label))
        return 0
    if args.self_test:
        from . import selftest
        return selftest.run(args)
    if args.from_runs:
        return regenerate(args)
    return run_session(args)
