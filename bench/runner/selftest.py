"""bench/run --self-test: checks the runner's pieces on known inputs, then runs the given (or every
built) benchmark at MINI on the native CPU only, once, and validates the files it wrote; then, when
Hetero is built, one benchmark through Hetero on the CPU, checking the columns read from its trace."""

import csv
import json
import os
import sys
import tempfile

import struct

from . import configs, cpu_load, execute, hetero_trace, plot, plot_runner, real_ideal, short_table, \
    stats, tables


class Checker:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            sys.stderr.write("self-test FAILED: %s\n" % what)
        return condition


def _close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check_stats(c):
    c.check(stats.median([3.0, 1.0, 2.0]) == 2.0, "median of odd count")
    c.check(stats.median([4.0, 1.0, 3.0, 2.0]) == 2.5, "median of even count")
    c.check(stats.median([]) is None, "median of nothing is None")
    low, mid, high = stats.median_difference([v + 1.0 for v in range(1, 21)], [float(v) for v in range(1, 21)])
    c.check(_close(mid, 1.0) and low < 1.0 < high, "median difference and an interval around it")
    low, mid, high = stats.median_difference([5.0] * 8, [4.0] * 8)
    c.check(low == mid == high == 1.0, "no spread, no interval")
    low, _, high = stats.median_difference([1.0, 9.0] * 4, [5.0] * 8)
    c.check(low < 0.0 < high, "a spread sample's interval covers both signs")
    c.check(_close(stats.ideal_time(1.0, 3.0), 0.75), "ideal time 1/(1/1+1/3)")
    c.check(stats.ideal_time(None, 3.0) is None, "ideal time needs both devices")

    def run(ms, status=execute.PASS):
        return execute.RunResult(status, ms, ms * 2, 0.0)

    records = [("b", "MINI", "native-gpu", run(10.0)), ("b", "MINI", "native-gpu", run(12.0)),
               ("b", "MINI", "native-gpu", run(11.0)), ("b", "MINI", "native-cpu", run(30.0)),
               ("b", "MINI", "static-0.0", run(10.5)), ("b", "MINI", "static-0.3", run(9.0)),
               ("b", "MINI", "static-0.5", run(1.0, execute.FAIL)),
               ("b", "MINI", "hetero", run(8.0)), ("b", "MINI", "hetero-gpu", run(12.0))]
    summaries = stats.summarise(records)
    c.check(summaries[("b", "MINI", "native-gpu")].kernel_ms == 11.0, "median over repeats")
    c.check(summaries[("b", "MINI", "static-0.5")].status == execute.FAIL, "FAIL is kept")
    d = stats.derive(summaries, configs.all_configs(), "kernel_ms")[0]
    c.check(_close(d.ideal, 1.0 / (1 / 11.0 + 1 / 30.0)), "derived ideal")
    c.check(d.best_single == 11.0 and d.best_device == "gpu", "best single device")
    c.check(_close(d.speedup, 11.0 / 8.0), "Hetero speedup")
    c.check(_close(d.efficiency, d.ideal / 8.0), "Hetero efficiency")
    c.check(d.oracle == 9.0 and d.oracle_share == 0.3,
            "oracle static ignores the failing share 0.5")
    c.check(_close(d.hetero_gpu_overhead, 12.0 / 11.0), "Hetero-GPU overhead")
    with tempfile.TemporaryDirectory() as tmp:
        fine = stats.summarise([("b", "MINI", "static-0.05", run(9.5)), ("b", "MINI", "static-0.1", run(9.6))])
        tables.write_results_csv(os.path.join(tmp, "r.csv"), fine, configs.all_configs())
        with open(os.path.join(tmp, "r.csv")) as f:
            written = {r["config"]: r["share"] for r in csv.DictReader(f)}
    c.check(written == {"static-0.05": "0.05", "static-0.1": "0.1"},
            "results.csv keeps a fine share apart from the tenth beside it (%s)" % written)
    c.check(_close(stats.geomean([2.0, 8.0]), 4.0), "geomean")
    # The table of Hetero against the native GPU: native, held to the GPU, default, and ratios.
    lines = []
    tables._against_native_table(lines, summaries, [("b", "MINI")])
    c.check(any(line.startswith("| b | MINI | 11.00 | 12.00 | 1.091 | 8.00 | 0.727 |") for line in lines),
            "Hetero against native: times and ratios")


def check_hetero_trace(c):
    """cpu_share and bytes_moved from a trace: only the host's launches lanes count."""
    def meta(pid, kind, name, tid=None):
        e = {"ph": "M", "pid": pid, "name": kind, "args": {"name": name}}
        if tid is not None:
            e["tid"] = tid
        return e

    def span(pid, tid, groups, cpu):
        return {"ph": "X", "pid": pid, "tid": tid, "name": "k", "ts": 1.0, "dur": 2.0,
                "args": {"work_groups": groups, "cpu_work_groups": cpu, "split": 1, "slot": 0}}

    events = [meta(1, "process_name", "Hetero host"), meta(2, "process_name", "slot 0: X (GPU)"),
              meta(1, "thread_name", "launches", 1), meta(1, "thread_name", "launches (2)", 2),
              meta(2, "thread_name", "launches", 1), meta(1, "thread_name", "queue 1", 3),
              span(1, 1, 100, 30), span(1, 2, 50, 20),
              span(2, 1, 1000, 1000),  # a slot's lane that happens to be called "launches"
              span(1, 3, 1000, 0),     # another host lane
              {"ph": "i", "s": "g", "pid": 1, "tid": 0, "name": "hetero counters", "ts": 9.0,
               "args": {"bytes_host_to_device": 1, "bytes_device_to_host": 2,
                        "bytes_between_devices": 3, "merges": 7, "work_groups_total": 150}}]
    share, moved = hetero_trace.summarise({"traceEvents": events})
    c.check(share is not None and abs(share - 50.0 / 150.0) < 1e-12,
            "cpu_share sums the host's launches lanes only (%s)" % share)
    c.check(moved == 6, "bytes_moved adds the three byte counters (%s)" % moved)
    c.check(hetero_trace.summarise(events) == (share, moved), "the array format reads the same")
    c.check(hetero_trace.summarise({"traceEvents": events[:6] + events[-1:]}) == (None, 6),
            "no launches: cpu_share is None")
    log = ("hetero: info: split k: 8 work-groups\n"
           "hetero: info: counters: bytes_host_to_device=1 bytes_device_to_host=2 bytes_between_devices=3 "
           "merges=0 launches_whole=4 launches_split_discrete=1 launches_split_unified=0 "
           "work_groups_total=200 work_groups_cpu=50\n")
    c.check(hetero_trace.from_exit_log(log) == (0.25, 6), "cpu_share and bytes_moved from the exit log")
    c.check(hetero_trace.from_exit_log("no counters here\n") == (None, None), "no exit log: None")
    c.check(hetero_trace.from_exit_log(log.replace("work_groups_total=200", "work_groups_total=0"))[0] is None,
            "no work-groups: cpu_share is None")
    result = execute.interpret(0, "polybench benchmark=b kernel_ms=1 total_ms=2 result=PASS\n", log, 0.1)
    c.check(result.cpu_share == 0.25 and result.bytes_moved == 6, "a run's exit log fills its columns")
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        path = os.path.join(root, "t.json")
        c.check(hetero_trace.read(path) == (None, None), "a missing trace gives None")
        with open(path, "w") as out:
            out.write(json.dumps({"traceEvents": events})[:-20])
        c.check(hetero_trace.read(path) == (None, None), "an unfinished trace gives None")
        with open(path, "w") as out:
            json.dump({"traceEvents": events}, out)
        kept = os.path.join(root, "kept")
        files = hetero_trace.TraceFiles(kept)
        target = files.path_for("gemm", "MINI", "hetero", 1)
        os.rename(path, target)
        result = execute.RunResult(execute.PASS, 1.0, 2.0, 0.0)
        files.collect(target, result)
        files.close()
        c.check(result.cpu_share == share and result.bytes_moved == 6,
                "a run's trace fills its cpu_share and bytes_moved")
        c.check(os.listdir(kept) == ["gemm-MINI-hetero-1.json"], "--traces keeps the trace")

    runs = [execute.RunResult(execute.PASS, 1.0, 2.0, 0.0, cpu_share=s, bytes_moved=b)
            for s, b in ((0.1, 100), (0.3, 300), (0.2, None))]
    summary = stats.summarise([("b", "MINI", "hetero", r) for r in runs])[("b", "MINI", "hetero")]
    c.check(summary.cpu_share == 0.2 and summary.bytes_moved == 200,
            "cpu_share and bytes_moved are medians over the runs that have them")
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        path = os.path.join(root, "runs.csv")
        log = tables.RunLog(path)
        log.add("b", "MINI", "hetero", 1, runs[0])
        log.close()
        back = tables.read_runs(path)[0][3]
        c.check(back.cpu_share == 0.1 and back.bytes_moved == 100, "runs.csv keeps both columns")
        loaded = execute.RunResult(execute.PASS, 1.0, 2.0, others_cpu_pct=12.5, steal_pct=0.5)
        log = tables.RunLog(path)
        log.add("b", "MINI", "hetero", 1, loaded)
        log.close()
        back = tables.read_runs(path)[0][3]
        c.check(back.others_cpu_pct == 12.5 and back.steal_pct == 0.5, "runs.csv keeps the machine's other load")
        logged = execute.RunResult(execute.PASS, 1.0, 2.0, stderr="hetero: info: counters: x")
        log = tables.RunLog(path)
        log.add("b", "MINI", "hetero", 1, logged)
        log.close()
        kept = log.log_path("b", "MINI", "hetero", 1)
        c.check(open(kept).read() == logged.stderr, "a run's stderr is its log file")
        log = tables.RunLog(path)  # the next session into the same folder: its run 1 logs nothing
        log.add("b", "MINI", "hetero", 1, runs[0])
        log.close()
        c.check(not os.path.exists(kept), "a new session leaves no earlier session's log beside its runs")
        with open(path, "w") as out:  # a runs.csv from before the two columns existed
            out.write("benchmark,size,config,repeat,status,exit_code,kernel_ms,total_ms,"
                      "max_rel_err,platform,device,seconds,note\n"
                      "b,MINI,hetero,1,PASS,0,1,2,0,P,D,0.1,\n")
        back = tables.read_runs(path)[0][3]
        c.check(back.status == execute.PASS and back.cpu_share is None and back.others_cpu_pct is None,
                "old runs.csv files read")


def check_cpu_load(c):
    busy, steal, total = cpu_load.parse_stat_line("cpu  100 0 50 800 10 5 5 30 7 0")
    tick = cpu_load._TICK
    c.check(_close(busy, 160.0 / tick) and _close(steal, 30.0 / tick) and _close(total, 1000.0 / tick),
            "/proc/stat's cpu line: busy, steal and all (guest inside user)")
    c.check(cpu_load.parse_stat_line("cpu0 1 2 3 4 5 6 7 8") is None and cpu_load.parse_stat_line("cpu 1 2") is None,
            "only the machine's line, whole, is read")
    others, stolen = cpu_load.between(cpu_load.Sample(10.0, 1.0, 100.0, 2.0), cpu_load.Sample(30.0, 3.0, 200.0, 7.0))
    c.check(_close(others, 15.0) and _close(stolen, 2.0), "the run's own CPU time is not others' (%s, %s)" % (others, stolen))
    others, _ = cpu_load.between(cpu_load.Sample(10.0, 0.0, 100.0, 0.0), cpu_load.Sample(20.0, 0.0, 200.0, 30.0))
    c.check(others == 0.0, "a run busier than the machine's count leaves others none")
    c.check(cpu_load.between(None, cpu_load.Sample(1, 0, 2, 0)) == (None, None)
            and cpu_load.between(cpu_load.Sample(1, 0, 2, 0), cpu_load.Sample(1, 0, 2, 0)) == (None, None),
            "no sample or no time: unknown")
    if os.path.exists("/proc/stat"):
        r = execute.run_program([sys.executable, "-c", "import time; t = time.time()\nwhile time.time() - t < 0.3: pass"],
                                dict(os.environ), 30.0)
        c.check(r.others_cpu_pct is not None and 0.0 <= r.others_cpu_pct <= 100.0
                and r.steal_pct is not None and 0.0 <= r.steal_pct <= 100.0,
                "a run has the machine's other load and steal (%s, %s)" % (r.others_cpu_pct, r.steal_pct))


def check_execute(c):
    line = ('polybench benchmark=gemm size=MINI platform="Portable Computing Language" '
            'device="cpu x" kernel_ms=1.5 total_ms=2.5 max_rel_err=1.0e-07 result=PASS\n')
    r = execute.interpret(0, "noise\n" + line, "", 0.1)
    c.check(r.status == execute.PASS and r.kernel_ms == 1.5 and r.total_ms == 2.5
            and r.device == "cpu x" and r.platform == "Portable Computing Language",
            "parse a PASS line")
    r = execute.interpret(1, line.replace("PASS", "FAIL"), "", 0.1)
    c.check(r.status == execute.FAIL, "result=FAIL is a FAIL")
    r = execute.interpret(1, line, "", 0.1)
    c.check(r.status == execute.FAIL, "exit code 1 is a FAIL even with result=PASS")
    r = execute.interpret(2, "", "error: no platform\n", 0.1)
    c.check(r.status == execute.ERROR and "no platform" in r.note, "no line is an ERROR")
    r = execute.interpret(0, line.replace("PASS", "UNCHECKED"), "", 0.1)
    c.check(r.status == execute.ERROR, "an unchecked run does not count as PASS")
    r = execute.interpret(0, line.replace("PASS", "UNCHECKED").replace("1.0e-07", "nan"), "", 0.1,
                          checked=False)
    c.check(r.status == execute.PASS and r.max_rel_err is None and r.kernel_ms == 1.5,
            "a run given --no-check passes with result=UNCHECKED")
    r = execute.interpret(0, line, "", 0.1, checked=False)
    c.check(r.status == execute.ERROR, "a run given --no-check must not report a check")
    r = execute.run_program([sys.executable, "-c", "import sys, time; sys.stderr.write('stuck here'); "
                             "sys.stderr.flush(); time.sleep(60)"], dict(os.environ), 1.0)
    c.check(r.status == execute.TIMEOUT, "a hanging program is killed and reported TIMEOUT")
    c.check(r.stderr == "stuck here", "a hanging program's stderr is kept for its log (%r)" % r.stderr)
    r = execute.interpret(-11, "", "x" * (2 * execute.STDERR_KEPT) + "crashed here", 0.1)
    c.check(r.status == execute.ERROR and r.stderr.endswith("crashed here")
            and len(r.stderr) == execute.STDERR_KEPT, "a crash keeps its stderr's end for its log")


def check_configs(c):
    names = [x.name for x in configs.select("static-0.3,native")]
    c.check(names == ["native-gpu", "native-cpu", "static-0.3"], "select by name and group")
    c.check(len(configs.select("static")) == 13 and "static-0.05" in [x.name for x in configs.select("static")],
            "thirteen static shares: 0.0..1.0 and 0.02, 0.05")
    c.check([x.name for x in configs.select("static-.05")] == ["static-0.05"]
            and configs.select("static-0.05")[0].environment({}, "/b").get("HETERO_CPU_SHARE") == "0.05",
            "a fine static share by name, and its environment")
    fine = configs.select("gpu-part-.07,cpu-part-0.07,static-0.070,native-gpu")
    c.check([x.name for x in fine] == ["native-gpu", "static-0.07", "gpu-part-0.07", "cpu-part-0.07"]
            and [(x.share, x.part) for x in fine[1:]] == [(0.07, None), (0.07, "gpu"), (0.07, "cpu")]
            and fine[2].environment({}, "/b").get("HETERO_CPU_SHARE") == "0.07"
            and fine[2].environment({}, "/b").get("HETERO_TEST_SPLIT_ONLY") == "gpu",
            "a share beyond the thirteen by name: the static split and its sides (%s)" % [x.name for x in fine])
    c.check(len(configs.select("static")) == 13 and len(configs.all_configs()) == len(configs.all_configs({0.05})),
            "the groups keep the thirteen shares")
    for bad in ("static-0.075", "static-1.5", "gpu-part-1.0", "cpu-part-0.0"):
        try:
            configs.select(bad)
            c.check(False, "%s is refused" % bad)
        except ValueError:
            c.check(True, "%s is refused" % bad)
    c.check([x.name for x in configs.select("default")] == ["native-gpu", "native-cpu", "hetero"],
            "the default is each native device and Hetero as installed")
    c.check(len(configs.select("sweep")) == 17 and configs.select("sweep")[2].name == "hetero-gpu",
            "the sweep adds Hetero held to the GPU and the static splits")
    try:
        configs.select("bogus")
        c.check(False, "unknown configuration is refused")
    except ValueError:
        c.check(True, "unknown configuration is refused")
    base = {"OCL_ICD_VENDORS": "/x", "OCL_ICD_FILENAMES": "libpocl.so.2", "HETERO_CPU_SHARE": "1",
            "PATH": "/bin"}
    by_name = {x.name: x for x in configs.all_configs()}
    native = by_name["native-cpu"].environment(base, "/b")
    c.check("OCL_ICD_VENDORS" not in native and "HETERO_CPU_SHARE" not in native
            and native.get("OCL_ICD_FILENAMES") == "libpocl.so.2" and native["PATH"] == "/bin",
            "native runs drop OCL_ICD_VENDORS and HETERO_* only")
    static = by_name["static-0.3"].environment(base, "/b")
    c.check(static.get("OCL_ICD_VENDORS") == "/b/vendors"
            and static.get("OCL_ICD_FILENAMES") == "/b/icd/libHeteroOpenCL.so"
            and static.get("HETERO_CPU_SHARE") == "0.3", "a static split's environment")
    c.check(by_name["hetero"].environment(base, "/b").get("HETERO_CPU_SHARE") is None,
            "adaptive Hetero gets no inherited share")
    real = [x.name for x in configs.select("real-ideal")]
    c.check(real[:2] == ["native-gpu", "native-cpu"] and len(real) == 26
            and "gpu-part-0.0" in real and "gpu-part-1.0" not in real
            and "cpu-part-1.0" in real and "cpu-part-0.0" not in real
            and "gpu-part-0.05" in real and "cpu-part-0.02" in real
            and by_name["cpu-part-0.05"].environment(base, "/b").get("HETERO_CPU_SHARE") == "0.05",
            "real-ideal: the native devices and each side of the static splits alone (%s)" % real)
    side = by_name["gpu-part-0.3"]
    env = side.environment(base, "/b")
    c.check(env.get("HETERO_CPU_SHARE") == "0.3" and env.get("HETERO_TEST_SPLIT_ONLY") == "gpu"
            and side.no_check and not side.is_static and side.share == 0.3
            and by_name["cpu-part-0.3"].env.get("HETERO_TEST_SPLIT_ONLY") == "cpu"
            and not by_name["static-0.3"].no_check, "a split side's environment, unchecked")
    c.check(not any(x.part for x in configs.select("all") + configs.select("hetero-all")),
            "all and hetero-all leave out the split sides (wrong results on purpose)")
    # --variant NAME=BASE:VAR=VALUE[,...]: BASE's platform, device and variables, and these.
    v = configs.variant("two=hetero-cpu:HETERO_DEVICES=pocl:0,pocl:0,LD_PRELOAD=/p.so")
    env = v.environment(base, "/b")
    c.check(v.name == "two" and v.hetero and (v.platform, v.device) == ("Hetero", "all")
            and env.get("HETERO_DEVICES") == "pocl:0,pocl:0" and env.get("LD_PRELOAD") == "/p.so"
            and env.get("OCL_ICD_VENDORS") == "/b/vendors" and "HETERO_CPU_SHARE" not in env,
            "a variant: its base's environment, its own variables over it, a value with commas (%s)" % env)
    side = configs.variant("s=gpu-part-0.07:A=1")
    c.check(configs.variant("cut=native-gpu:CUDA_VISIBLE_DEVICES=").env == {"CUDA_VISIBLE_DEVICES": ""}
            and side.env.get("HETERO_CPU_SHARE") == "0.07" and side.no_check
            and side.share is None and side.part is None,
            "a variant of a native configuration, an empty value; of a fine share's side: unchecked, "
            "outside the static curve and the real ideal")
    for bad in ("two", "two=hetero", "two=nope:A=1", "two=hetero:", "two=hetero:A", "two=hetero:1A=2",
                "hetero=hetero-cpu:A=1", "static=hetero:A=1", "static-0.07=hetero:A=1",
                "t w o=hetero:A=1"):
        try:
            configs.variant(bad)
            c.check(False, "--variant %s is refused" % bad)
        except ValueError:
            c.check(True, "--variant %s is refused" % bad)
    unified = by_name["hetero-unified"].environment(base, "/b")
    c.check(unified.get("HETERO_MEMORY") == "unified" and unified.get("HETERO_SPLIT") == "always"
            and [x.name for x in configs.select("memory")] == ["hetero-discrete", "hetero-unified"],
            "the memory-model pair forces the model and splits every launch")


def check_short_table(c):
    def run(ms, status=execute.PASS, share=None):
        return execute.RunResult(status, ms, ms, 0.0, cpu_share=share)

    records = [("x", "MINI", "native-gpu", run(10.0)), ("x", "MINI", "native-cpu", run(50.0)),
               ("x", "MINI", "hetero", run(8.0, share=0.25)),
               ("y", "MINI", "native-gpu", execute.RunResult(execute.NA)),
               ("y", "MINI", "native-cpu", run(4.0)), ("y", "MINI", "hetero", run(5.0, execute.FAIL))]
    summaries = stats.summarise(records)
    derived = stats.derive(summaries, configs.all_configs(), "kernel_ms")
    rows, mean = short_table.rows(summaries, derived)
    c.check(rows[0] == ["x", "GPU", "10.00 ms", "8.00 ms", "1.25x", "25 %", "PASS"],
            "short table: best native device, Hetero, speedup, CPU share (%s)" % rows[0])
    c.check(rows[1] == ["y", "CPU", "4.00 ms", "n/a", "n/a", "n/a", "FAIL (hetero)"],
            "short table: a FAIL shows in the check column, n/a ignored (%s)" % rows[1])
    c.check(_close(mean, 1.25), "short table: geomean of the speedups")
    lines = short_table.text_lines(summaries, derived)
    c.check(lines[0].split() == ["program", "best", "native", "its", "time", "Hetero", "speedup",
                                 "CPU", "share", "check"] and len(lines[1].split()) == 7
            and set(lines[1]) == {"-", " "}, "short table: a header and a rule under each column")


def check_plot_values(c):
    """What the charts show, from results.csv rows (plot.py, no matplotlib needed)."""
    def row(config, ms, status="PASS", share=None):
        return {"config": config, "time": ms if status == "PASS" else None, "status": status,
                "share": share, "cpu_share": None}

    case = {r["config"]: r for r in (row("native-gpu", 10.0), row("native-cpu", 50.0),
                                     row("hetero", 5.0), row("hetero-gpu", 1.0, "FAIL"),
                                     row("static-0.0", 12.0, share=0.0),
                                     row("static-0.3", 9.0, share=0.3),
                                     row("static-0.5", 1.0, "FAIL", 0.5))}
    values, failed, reference = plot.bar_values(case)
    c.check(reference == "best native device" and values["native-gpu"] == 1.0
            and values["native-cpu"] == 5.0 and values["hetero"] == 0.5,
            "chart: times over the best native device (%s)" % values)
    c.check(values[plot.BEST_STATIC] == 0.9 and plot.best_share(case) == 0.3
            and "static-0.3" not in values, "chart: the static splits are one bar, the best share")
    c.check(failed == {"hetero-gpu": "FAIL"}, "chart: a configuration that failed is marked")
    c.check(plot.statics(case) == [(0.0, 12.0), (0.3, 9.0)], "chart: the static curve's points")
    c.check(_close(plot.ideal_static(0.0, 10.0, 50.0), 10.0)
            and _close(plot.ideal_static(1.0, 10.0, 50.0), 50.0)
            and _close(plot.ideal_static(1.0 / 6, 10.0, 50.0), stats.ideal_time(10.0, 50.0)),
            "chart: the ideal static split meets the ideal co-execution time at its best share")


def check_real_ideal(c):
    """The real ideal, min over s of max(T_gpu(1 - s), T_cpu(s)), from the split sides run alone,
    beside the textbook ideal; its tables and the chart's curve."""
    def run(ms):
        return execute.RunResult(execute.PASS, ms, ms, None)

    # x: the GPU does not get faster with fewer work-groups until 80 % of them (a tail), so the
    # textbook ideal (+20 %) is far off and the split cannot pay. y: it does; the split pays.
    sides = {"x": {"gpu-part-0.0": 10.2, "gpu-part-0.1": 10.1, "gpu-part-0.2": 9.0,
                   "cpu-part-0.1": 6.0, "cpu-part-0.2": 11.0, "cpu-part-1.0": 52.0},
             "y": {"gpu-part-0.0": 10.2, "gpu-part-0.1": 9.5, "gpu-part-0.2": 8.0,
                   "cpu-part-0.1": 6.0, "cpu-part-0.2": 9.0},
             # z: Hetero's GPU side with every group beats the native GPU (noise); the split
             # gains 12 % over the native GPU but 1 % over that: it does not pay.
             "z": {"gpu-part-0.0": 9.0, "gpu-part-0.1": 8.9, "cpu-part-0.1": 6.0}}
    records = []
    for name, times in sides.items():
        records += [(name, "S", "native-gpu", run(10.0)), (name, "S", "native-cpu", run(50.0))]
        records += [(name, "S", config, run(ms)) for config, ms in times.items()]
    summaries = stats.summarise(records)
    x, y, z = stats.derive(summaries, configs.all_configs(), "kernel_ms")
    c.check(_close(x.ideal_gain, 10.0 / stats.ideal_time(10.0, 50.0)), "textbook ideal gain")
    c.check(_close(x.real_ideal, 10.1) and x.real_share == 0.1 and not x.pays
            and _close(x.real_gain, 10.0 / 10.1) and x.real_cpu_source == "measured",
            "real ideal: max(T_gpu(0.9), T_cpu(0.1)) = 10.1 at 0.1; does not pay (%s at %s)"
            % (x.real_ideal, x.real_share))
    c.check([(p[0], p[3]) for p in x.real_points] == [(0.0, 10.2), (0.1, 10.1), (0.2, 11.0), (1.0, 52.0)],
            "real ideal: the shares with both sides known, T_gpu(0) = T_cpu(0) = 0 (%s)" % x.real_points)
    c.check(_close(y.real_ideal, 9.0) and y.real_share == 0.2 and y.pays
            and y.real_cpu_source == "mixed", "real ideal: 9.0 at 0.2 pays (+11 %%) (%s)" % y.real_ideal)
    c.check(_close(z.real_ideal, 8.9) and z.unsplit == 9.0 and _close(z.real_gain, 9.0 / 8.9)
            and not z.pays, "real ideal: the gain is over the best unsplit time, Hetero's included")
    # A share named beyond the thirteen (syr2k's best on the H200 lies at 0.07, between 0.05 and 0.1).
    step = [("w", "S", "native-gpu", run(9.25)), ("w", "S", "native-cpu", run(140.0)),
            ("w", "S", "gpu-part-0.05", run(8.89)), ("w", "S", "cpu-part-0.05", run(5.9)),
            ("w", "S", "gpu-part-0.07", run(8.63)), ("w", "S", "cpu-part-0.07", run(8.15))]
    names = {config for _, _, config, _ in step}
    (w,) = stats.derive(stats.summarise(step), configs.all_configs(configs.shares_named(names)), "kernel_ms")
    c.check(_close(w.real_ideal, 8.63) and w.real_share == 0.07 and w.pays,
            "real ideal at a share named beyond the thirteen: 8.63 at 0.07 (%s at %s)" % (w.real_ideal, w.real_share))
    scaled = real_ideal.points({0.0: 10.0, 0.2: 8.0}, {}, 50.0, [0.0, 0.2, 1.0])
    c.check([(p[0], p[2], p[4]) for p in scaled] == [(0.0, 0.0, None), (0.2, 10.0, False), (1.0, 50.0, False)]
            and real_ideal.best(scaled) == (10.0, 0.0, "scaled"),
            "real ideal: T_cpu(s) = s * T_cpu where the CPU side was not measured (%s)" % scaled)
    fine = real_ideal.points({0.0: 10.0, 0.05: 9.5, 0.1: 9.0}, {0.05: 9.0, 0.1: 18.0}, 150.0,
                             [0.0, 0.05, 0.1, 1.0])
    c.check(real_ideal.best(fine)[:2] == (9.5, 0.05) and real_ideal.part_share("cpu-part-0.05") == ("cpu", 0.05),
            "real ideal: a share finer than a tenth is its own point (%s)" % fine)
    c.check(real_ideal.points({}, {0.5: 1.0}, 50.0, [0.0, 0.5, 1.0]) == [],
            "real ideal: nothing without a GPU side")
    text = "\n".join(tables.real_ideal_text([x, y]))
    c.check("x  " in text and "y  " in text and "YES" in text
            and tables.pays_line([x, y, z]).endswith(": y S (+11.1 %) (of 3 measured)"),
            "real ideal: the terminal's table marks the programs that pay (%s)" % tables.pays_line([x, y]))
    lines = []
    tables._real_ideal_tables(lines, [x, y])
    c.check(any(l.startswith("| y | S | 10.00 | 50.00 | 10.00 (gpu) | 8.33 | +20.0 % | 10.00 | 9.00 (0.2) | mixed "
                             "| +11.1 % | **yes** |") for l in lines)
            and any("**8.00 / 9.00**" in l for l in lines),
            "real ideal: results.md's tables")
    rows = {config: {"config": config, "time": ms, "status": "PASS", "cpu_share": None,
                     "share": (real_ideal.part_share(config) or (None, None))[1]}
            for config, ms in list(sides["y"].items()) + [("native-gpu", 10.0), ("native-cpu", 50.0)]}
    c.check(plot.real_points(rows) == y.real_points and plot.statics(rows) == []
            and "gpu-part-0.1" not in plot.bar_values(rows)[0],
            "chart: the real ideal curve is the table's; split sides are no static split and no bar")


def png_size(path):
    """(width, height) from a PNG file's header; ValueError if it is not a PNG."""
    with open(path, "rb") as source:
        head = source.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    return struct.unpack(">II", head[16:24])


def check_charts(c, out_dir, names):
    """The charts names are in out_dir at a size a screen shows whole, where matplotlib exists;
    elsewhere results.md says why there are none."""
    with open(os.path.join(out_dir, "results.md")) as source:
        md = source.read()
    if plot_runner.interpreter_with_matplotlib() is None:
        sys.stderr.write("self-test: no Python with matplotlib here; charts not checked\n")
        c.check("Charts not drawn" in md and "--from" in md, "results.md says why no chart")
        return
    for name in names:
        try:
            width, height = png_size(os.path.join(out_dir, name))
            c.check(400 <= width <= 2000 and 300 <= height <= 2500,
                    "%s: a size a screen shows (%dx%d)" % (name, width, height))
        except (OSError, ValueError) as error:
            c.check(False, "%s is a PNG file (%s)" % (name, error))
        c.check("](%s)" % name in md, "results.md shows %s" % name)


def check_from_results_csv(c):
    """--from reads a results.csv (medians, as the GPU machine's sessions publish them) and draws
    both charts when static splits were measured."""
    from . import cli
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        source = os.path.join(root, "results.csv")
        with open(source, "w") as out:
            out.write("benchmark,size,config,share,status,runs,passed,kernel_ms,total_ms,"
                      "kernel_ms_min,kernel_ms_max,max_rel_err,platform,device,note\n")
            for config, share, ms in (("native-gpu", "", 2), ("native-cpu", "", 8),
                                      ("static-0.0", "0.0", 2.1), ("static-0.5", "0.5", 5),
                                      ("static-1.0", "1.0", 9), ("hetero", "", 2.2),
                                      ("gpu-part-0.0", "0.0", 2.05), ("gpu-part-0.5", "0.5", 1.9),
                                      ("cpu-part-0.5", "0.5", 4.5)):
                out.write("gemm,LARGE,%s,%s,PASS,3,3,%s,%s,,,0,P,D,\n" % (config, share, ms, ms))
        out_dir = os.path.join(root, "out")
        args = cli.parse_args(["--from", source, "--out", out_dir])
        with open(os.devnull, "w") as quiet:
            code = cli.regenerate(args, stream=quiet, table_stream=quiet)
        c.check(code == 0, "--from a results.csv passes (exit %d)" % code)
        with open(os.path.join(out_dir, "results.csv"), newline="") as back:
            rows = {r["config"]: r for r in csv.DictReader(back)}
        c.check(rows.get("static-0.5", {}).get("kernel_ms") == "5"
                and rows.get("static-0.5", {}).get("share") == "0.5",
                "--from a results.csv keeps its medians and shares")
        with open(os.path.join(out_dir, "derived.csv"), newline="") as back:
            kernel = [r for r in csv.DictReader(back) if r["metric"] == "kernel_ms"][0]
        c.check(kernel["real_ideal"] == "2.05" and kernel["real_share"] == "0.0"
                and kernel["real_pays"] == "no", "--from: the real ideal in derived.csv (%s)" % kernel)
        check_charts(c, out_dir, ["results.png", "static-split.png"])


def validate_outputs(c, out_dir, benchmarks):
    with open(os.path.join(out_dir, "results.csv"), newline="") as source:
        reader = csv.reader(source)
        header = next(reader, None)
        rows = [dict(zip(header, row)) for row in reader]
    c.check(tuple(header or ()) == tables.RESULT_COLUMNS, "results.csv header")
    c.check(sorted(r["benchmark"] for r in rows) == sorted(benchmarks),
            "results.csv has one row per benchmark")
    c.check(all(r["config"] == "native-cpu" and r["size"] == "MINI" for r in rows),
            "results.csv holds native-cpu at MINI only")
    for r in rows:
        ok = r["status"] == "PASS"
        try:
            ok = ok and 0 < float(r["kernel_ms"]) <= float(r["total_ms"])
        except ValueError:
            ok = False
        c.check(ok, "%s: PASS with 0 < kernel_ms <= total_ms (%s)" % (r["benchmark"], r))
    with open(os.path.join(out_dir, "derived.csv"), newline="") as source:
        c.check(tuple(next(csv.reader(source), ())) == tables.DERIVED_COLUMNS, "derived.csv header")
    with open(os.path.join(out_dir, "runs.csv"), newline="") as source:
        runs = list(csv.DictReader(source))
    c.check(len(runs) == len(benchmarks), "runs.csv: one run per benchmark")
    with open(os.path.join(out_dir, "results.md")) as source:
        md = source.read()
    c.check(md.startswith("# ") and "- date: " in md and "- CPU: " in md,
            "results.md starts with the machine header")
    c.check("| benchmark | size | native-cpu |" in md, "results.md has the time table")
    for b in benchmarks:
        c.check(("| %s | MINI | " % b) in md, "results.md has a row for %s" % b)
    check_charts(c, out_dir, ["results.png"])
    c.check(not os.path.exists(os.path.join(out_dir, "static-split.png")),
            "no static-split chart without static splits")


def _fake_session(root, verdict, icd_library=None, configs_spec="native-cpu", timeout=60):
    """Runs a session over a fake build whose two programs, gemm and lu, print a fixed result
    line. icd_library: if given, <build>/vendors/hetero.icd names it. Returns (exit code,
    results.md, {(benchmark, config): status} from results.csv)."""
    from . import cli
    build = os.path.join(root, "build")
    os.makedirs(os.path.join(build, "bench"))
    for name in ("gemm", "lu"):
        fake = cli.executable(build, name)
        with open(fake, "w") as out:
            out.write("#!/bin/sh\necho 'polybench benchmark=%s size=MINI platform=\"P\" "
                      "device=\"D\" kernel_ms=1 total_ms=2 max_rel_err=0 result=%s'\nexit %d\n"
                      % (name, verdict, 0 if verdict == "PASS" else 1))
        os.chmod(fake, 0o755)
    if icd_library:
        os.makedirs(os.path.join(build, "vendors"))
        with open(os.path.join(build, "vendors", "hetero.icd"), "w") as out:
            out.write(icd_library + "\n")
    out_dir = os.path.join(root, "out")
    session = cli.parse_args(["--build", build, "--benchmarks", "gemm,lu", "--sizes", "MINI",
                              "--repeat", "1", "--configs", configs_spec, "--out", out_dir,
                              "--timeout", str(timeout)])
    session.argv = ["(self-test: fake program)"]
    with open(os.devnull, "w") as quiet:
        code = cli.run_session(session, stream=quiet, table_stream=quiet)
    with open(os.path.join(out_dir, "results.md")) as source:
        md = source.read()
    with open(os.path.join(out_dir, "results.csv"), newline="") as source:
        statuses = {(row["benchmark"], row["config"]): row["status"]
                    for row in csv.DictReader(source)}
    return code, md, statuses


def check_failures_are_loud(c, timeout):
    """A wrong result, and a Hetero that is built but unusable, must fail the session; a Hetero
    that is not built is only n/a."""
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        code, md, statuses = _fake_session(root, "FAIL", timeout=timeout)
        c.check(code == 1, "a FAIL makes the runner exit 1 (got %d)" % code)
        c.check("## Problems (2)" in md and "**FAIL**" in md, "FAILs are listed in results.md")
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        code, md, statuses = _fake_session(root, "PASS", configs_spec="native-cpu,hetero",
                                           timeout=timeout)
        c.check(code == 0 and statuses == {(b, cfg): v for b in ("gemm", "lu")
                                           for cfg, v in (("native-cpu", "PASS"), ("hetero", "n/a"))},
                "an unbuilt Hetero is n/a and the session passes (%d, %s)" % (code, statuses))
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as root:
        code, md, statuses = _fake_session(root, "PASS", "/nonexistent/libhetero-selftest.so",
                                           "native-cpu,hetero", timeout)
        c.check(code == 1 and statuses == {(b, cfg): v for b in ("gemm", "lu")
                                           for cfg, v in (("native-cpu", "PASS"), ("hetero", "ERROR"))},
                "a built Hetero the loader cannot use is an ERROR (%d, %s)" % (code, statuses))


def check_hetero_session(c, build, benchmark, timeout):
    """One benchmark at MINI through Hetero held to the CPU: its trace gives cpu_share 1 and a
    bytes_moved; the native run has neither."""
    from . import cli
    with tempfile.TemporaryDirectory(prefix="bench-selftest-") as out_dir:
        # A variant whose variable shows in its results: two CPU slots instead of one.
        session = cli.parse_args(["--build", build, "--benchmarks", benchmark, "--sizes", "MINI",
                                  "--repeat", "1", "--inner-repeat", "1",
                                  "--configs", "native-cpu,hetero-cpu", "--out", out_dir,
                                  "--variant", "two-slots=hetero-cpu:HETERO_DEVICES=pocl:0,pocl:0,HETERO_LOG=info",
                                  "--timeout", str(timeout)])
        session.argv = ["(self-test: Hetero)"]
        code = cli.run_session(session)
        c.check(code == 0, "the MINI Hetero-on-CPU session passes (exit %d)" % code)
        with open(os.path.join(out_dir, "results.csv"), newline="") as source:
            rows = {r["config"]: r for r in csv.DictReader(source)}
        hetero, native = rows.get("hetero-cpu", {}), rows.get("native-cpu", {})
        c.check(hetero.get("cpu_share") == "1", "Hetero on the CPU: cpu_share 1 (%s)" % hetero)
        c.check(hetero.get("bytes_moved", "").isdigit(), "Hetero: bytes_moved is a byte count")
        c.check(native.get("cpu_share") == "" and native.get("bytes_moved") == "",
                "native runs have no trace columns")
        with open(os.path.join(out_dir, "results.md")) as source:
            md = source.read()
        c.check("## CPU share and bytes moved" in md and "| %s | MINI | 100.0 %%, " % benchmark in md,
                "results.md shows the CPU share and bytes moved")
        two = rows.get("two-slots", {})
        c.check(two.get("status") == "PASS" and " + " in two.get("device", "")
                and " + " not in hetero.get("device", "+"),
                "the variant's variable reached its processes: two slots (%s; base: %s)" % (
                    two.get("device"), hetero.get("device")))
        # Each run's stderr is kept where it wrote any: the variant's Hetero log (its slots, its exit
        # counters); the traced run's, without HETERO_LOG, at most warnings.
        logs = os.path.join(out_dir, "logs")
        kept = sorted(os.listdir(logs)) if os.path.isdir(logs) else []

        def log_of(config):
            path = os.path.join(logs, "%s-MINI-%s-1.txt" % (benchmark, config))
            return open(path).read() if os.path.exists(path) else ""
        c.check("slot 1:" in log_of("two-slots") and "counters:" in log_of("two-slots"),
                "the variant's run has its Hetero log in logs/ (%s)" % kept)
        c.check("info:" not in log_of("hetero-cpu") and "info:" not in log_of("native-cpu"),
                "the runs without HETERO_LOG keep no info lines (%s)" % kept)
        merged = os.path.join(out_dir, "merged")
        code = cli.main(["--from", os.path.join(out_dir, "runs.csv"), "--out", merged])
        with open(os.path.join(merged, "results.md")) as source:
            merged_md = source.read()
        c.check(code == 0 and "| native-cpu | hetero-cpu | two-slots |" in merged_md,
                "--from keeps a variant's column in the tables, under its name")


def run(args):
    from . import cli
    c = Checker()
    check_hetero_trace(c)
    check_stats(c)
    check_execute(c)
    check_cpu_load(c)
    check_configs(c)
    check_short_table(c)
    check_plot_values(c)
    check_real_ideal(c)
    check_from_results_csv(c)
    check_failures_are_loud(c, args.timeout)

    build = os.path.abspath(args.build)
    built = [b for b in args.benchmark_list if os.access(cli.executable(build, b), os.X_OK)]
    if args.benchmarks.strip() != "all":
        c.check(built == args.benchmark_list, "every named benchmark is built in %s" % build)
    c.check(bool(built), "at least one benchmark is built in %s" % build)
    if built:
        with tempfile.TemporaryDirectory(prefix="bench-selftest-") as out_dir:
            session = cli.parse_args(["--build", build, "--benchmarks", ",".join(built),
                                      "--sizes", "MINI", "--repeat", "1", "--inner-repeat", "1",
                                      "--configs", "native-cpu", "--out", out_dir,
                                      "--timeout", str(args.timeout)])
            session.argv = ["(self-test)"]
            code = cli.run_session(session)
            c.check(code == 0, "the MINI native-CPU session passes (exit %d)" % code)
            validate_outputs(c, out_dir, built)
        if os.path.exists(os.path.join(build, "vendors", "hetero.icd")):
            check_hetero_session(c, build, "gemm" if "gemm" in built else built[0], args.timeout)
        else:
            sys.stderr.write("self-test: Hetero is not built in %s; its columns are not run\n" % build)
    sys.stderr.write("self-test: %d checks passed, %d failed\n" % (c.passed, len(c.failures)))
    return 0 if not c.failures else 1
