#!/usr/bin/env python3
"""Stress loop for crashes (and hangs) at exit: runs split programs hundreds of times under load.

Each round runs, JOBS at a time (more processes than cores is the load):
  * every ctest test matching --regex (default: the bench programs and the split ICD suites),
    with the command and environment ctest would use, the chaos seed changed every round;
  * hetero_exit_after_finish in each of its modes (an application that exits right after its last
    wait), under the same kind of seeds, half of them with PoCL's kernel cache off (so that PoCL
    compiles on its worker threads until the very end).
A run fails when it exits non-zero, is killed by a signal, or outlives --timeout (a hang: its
threads' backtraces are taken with gdb before it is killed). Every failure keeps its output and,
when the kernel wrote a core file, `thread apply all bt` of it, under --out.

  test/stress/exit_loop.py --build build --rounds 20 --jobs 4
  test/stress/exit_loop.py --build build --rounds 100 --regex '^$' --modes finish,exit   # program only

The summary line is "runs=N failures=F"; the exit status is 1 when anything failed.
"""
import argparse
import concurrent.futures
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

MODES = ["finish", "read", "wait", "release", "exit", "threads", "nowait"]


def ctest_jobs(build, regex):
    """The commands and environments of the ctest tests matching regex."""
    out = subprocess.run(["ctest", "--test-dir", str(build), "--show-only=json-v1", "-R", regex],
                         check=True, capture_output=True, text=True).stdout
    jobs = []
    for t in json.loads(out).get("tests", []):
        if "command" not in t:
            continue
        env = {}
        for prop in t.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                for kv in prop["value"]:
                    k, _, v = kv.partition("=")
                    env[k] = v
        jobs.append({"name": t["name"], "command": t["command"], "env": env})
    return jobs


def exit_program_jobs(build, modes):
    exe = build / "test" / "stress" / "hetero_exit_after_finish"
    if not exe.exists():
        sys.exit(f"{exe} is missing: build the tests first")
    env = {
        "OCL_ICD_FILENAMES": str(next((build / "icd").glob("libHeteroOpenCL.so.*.*"))),
        "OCL_ICD_VENDORS": str(build / "vendors"),
        "HETERO_CONFIG": "/nonexistent",
        "HETERO_DEVICES": "pocl:0,pocl:0",
        "HETERO_MEMORY": "discrete",
        "HETERO_SPLIT": "always",
        "HETERO_TEST_SPLIT_CHAOS": "1",
    }
    return [{"name": f"exit-after-{m}", "command": [str(exe), m], "env": dict(env)} for m in modes]


def backtrace(target, out_file):
    """`thread apply all bt` of a core file or a running process (pid) into out_file."""
    args = ["gdb", "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt"]
    args += target
    with open(out_file, "w") as f:
        subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, timeout=300)


def run_one(job, round_no, seed, no_kcache, out_dir, timeout):
    env = dict(os.environ)
    env.update(job["env"])
    if "HETERO_TEST_SPLIT_CHAOS" in env:
        env["HETERO_TEST_SPLIT_CHAOS"] = str(seed)
    if no_kcache:
        env["POCL_KERNEL_CACHE"] = "0"
    # A PoCL kernel cache per worker thread: PoCL before 6.0 fails a build now and then when two
    # processes write the same cache entry at once (pocl/pocl#1480; CMakeLists.txt's
    # hetero_private_pocl_caches does the same for ctest).
    env["POCL_CACHE_DIR"] = str(Path(out_dir) / "pocl-cache" / str(threading.get_ident()))
    work = Path(tempfile.mkdtemp(prefix="exitloop-"))
    started = time.time()
    proc = subprocess.Popen(job["command"], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE,
                                                                  (resource.RLIM_INFINITY, resource.RLIM_INFINITY)),
                            start_new_session=True)
    hung = False
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        hung = True
        tag = f"{job['name']}.r{round_no}.s{seed}"
        try:
            backtrace(["-p", str(proc.pid)], out_dir / f"{tag}.hang-bt.txt")
        except Exception:
            pass
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
    seconds = time.time() - started
    rc = proc.returncode
    result = {"name": job["name"], "round": round_no, "seed": seed, "no_kcache": no_kcache, "rc": rc,
              "hung": hung, "seconds": round(seconds, 1)}
    if rc != 0 or hung:
        tag = f"{job['name']}.r{round_no}.s{seed}"
        (out_dir / f"{tag}.out.txt").write_bytes(output or b"")
        core = next(iter(sorted(work.glob("core*"))), None)
        if core:
            try:
                backtrace([job["command"][0], str(core)], out_dir / f"{tag}.core-bt.txt")
            except Exception as e:
                (out_dir / f"{tag}.core-bt.txt").write_text(f"gdb failed: {e}\n")
            result["core"] = True
        with open(out_dir / f"{tag}.cmd.txt", "w") as f:
            f.write(" ".join(f"{k}={v}" for k, v in job["env"].items()) + " " + " ".join(job["command"]) + "\n")
            f.write(f"HETERO_TEST_SPLIT_CHAOS={seed} POCL_KERNEL_CACHE={'0' if no_kcache else 'default'}\n")
    shutil.rmtree(work, ignore_errors=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", type=Path)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--regex", default=r"^bench\..*\.hetero|^icd\.split",
                    help="ctest tests to run each round ('^$' for none)")
    ap.add_argument("--modes", default=",".join(MODES), help="modes of hetero_exit_after_finish ('' for none)")
    ap.add_argument("--copies", type=int, default=2, help="runs of each exit-program mode per round")
    ap.add_argument("--timeout", type=float, default=900, help="seconds before a run counts as hung")
    ap.add_argument("--seed", type=int, default=1000, help="first chaos seed")
    ap.add_argument("--out", type=Path, default=Path("exit-loop-results"))
    ap.add_argument("--library", type=Path, help="another libHeteroOpenCL to load (e.g. an older build)")
    args = ap.parse_args()

    build = args.build.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = ctest_jobs(build, args.regex) if args.regex != "^$" else []
    modes = [m for m in args.modes.split(",") if m]
    jobs += exit_program_jobs(build, modes) * args.copies
    if not jobs:
        sys.exit("nothing to run")
    if args.library:
        # The loader reads both variables (icd/CMakeLists.txt): a vendors folder naming only it.
        vendors = args.out / "vendors"
        vendors.mkdir(exist_ok=True)
        (vendors / "hetero.icd").write_text(str(args.library.resolve()) + "\n")
        for j in jobs:
            if "OCL_ICD_FILENAMES" in j["env"]:
                j["env"]["OCL_ICD_FILENAMES"] = str(args.library.resolve())
                j["env"]["OCL_ICD_VENDORS"] = str(vendors.resolve())
    print(f"{len(jobs)} programs per round, {args.rounds} rounds, {args.jobs} at a time", flush=True)

    work = []
    seed = args.seed
    for r in range(args.rounds):
        for j in jobs:
            work.append((j, r, seed, seed % 2 == 1))
            seed += 1
    results = []
    failures = []
    log = open(args.out / "runs.jsonl", "a")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, j, r, s, nk, args.out, args.timeout) for j, r, s, nk in work]
        for f in concurrent.futures.as_completed(futures):
            res = f.result()
            results.append(res)
            log.write(json.dumps(res) + "\n")
            log.flush()
            if res["rc"] != 0 or res["hung"]:
                failures.append(res)
                how = "hung" if res["hung"] else (f"signal {-res['rc']}" if res["rc"] < 0 else f"exit {res['rc']}")
                print(f"FAIL {res['name']} round {res['round']} seed {res['seed']}: {how}"
                      f"{' (core)' if res.get('core') else ''}", flush=True)
            if len(results) % 50 == 0:
                print(f"... {len(results)}/{len(work)} runs, {len(failures)} failures", flush=True)
    by_name = {}
    for res in failures:
        by_name[res["name"]] = by_name.get(res["name"], 0) + 1
    for name, n in sorted(by_name.items()):
        print(f"  {name}: {n} failures")
    print(f"runs={len(results)} failures={len(failures)} (details in {args.out})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
