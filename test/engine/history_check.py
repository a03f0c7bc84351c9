#!/usr/bin/env python3
"""Auto mode's history between runs (platform/split/history_store.hpp), as an application meets it:
the same program run twice with XDG_CACHE_HOME pointing at a fresh directory. The first run writes
one split-history file for the device set; the second reads it and goes on counting where the first
ended (launches that fit a device at once are never counted), with the launches a process makes
averaged, and a program's last timing, which no decision heard, is written too; a damaged file costs
one warning and is replaced; a cache directory that cannot be written costs one warning;
HETERO_HISTORY_CACHE=off writes nothing; a history that says a kernel splits has its variants built
with the program, and the process's end waits for that build. The program passes every time."""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

KERNEL = re.compile(r"^kernel [0-9a-f]{16}/increment (\d+) ", re.M)


def run(program, env, cache, tag="[.history]"):
    e = dict(env)
    e["HETERO_LOG"] = "info"
    e.pop("HETERO_HISTORY_CACHE", None)
    if cache is not None:
        e["XDG_CACHE_HOME"] = cache
    done = subprocess.run([program, tag], env=e, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit("the program failed (%d):\n%s%s" % (done.returncode, done.stdout[-3000:], done.stderr[-3000:]))
    return done.stdout + done.stderr


def history_file(cache):
    files = glob.glob(os.path.join(cache, "hetero", "split-history-*.txt"))
    if len(files) != 1:
        sys.exit("expected one history file under %s, found %s" % (cache, files))
    with open(files[0]) as f:
        return files[0], f.read()


def launches(text):
    m = KERNEL.search(text)
    if not m:
        sys.exit("no record of kernel 'increment' in:\n" + text)
    return int(m.group(1))


def per_process(text):
    """The launches a process made of kernel 'increment', averaged over the runs (None: not written)."""
    m = re.search(r"^kernel [0-9a-f]{16}/increment .* perprocess=(\S+)$", text, re.M)
    return float(m.group(1)) if m else None


def check(condition, message):
    if not condition:
        sys.exit(message)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    args = parser.parse_args()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as work:
        cache = os.path.join(work, "cache")
        os.mkdir(cache)
        run(args.program, env, cache)
        path, text = history_file(cache)
        check(text.startswith("device set: Hetero "), "the file does not name its device set:\n" + text)
        check(re.search(r"^size 1 65536 1 1 \S+ \S+ 1 ", text, re.M), "the timed size is not in the file:\n" + text)
        first = launches(text)
        check(first == 6, "the first run decided %d launches, not 6" % first)
        check(per_process(text) == 6, "the first run's launches per process are not 6:\n" + text)
        check(not re.search(r"^kernel [0-9a-f]{16}/calibrate ", text, re.M),
              "launches of one work-group (they fit any device at once) were counted in the history:\n" + text)

        out = run(args.program, env, cache)
        check("split history read from " + path in out, "the second run did not read the history:\n" + out)

        _, text = history_file(cache)
        check(launches(text) == 12, "the second run did not go on from the first (%d launches)" % launches(text))
        check(per_process(text) == 6, "two runs of 6 launches do not average 6 a process:\n" + text)

        header = text.split("\n", 1)[0]
        for damaged in ("\x00\x01 not a history at all\n", header + "\nkernel broken\n"):
            with open(path, "w") as f:
                f.write(damaged)
            out = run(args.program, env, cache)
            warnings = out.count("is not a split history Hetero can read")
            check(warnings == 1, "a damaged file should cost one warning, got %d:\n%s" % (warnings, out))
            _, text = history_file(cache)
            check(launches(text) == 6, "the damaged file was not replaced by what the run learned:\n" + text)

        # Hetero's folder of the cache is a file: nothing can be written there (the backends keep
        # their own folders of the cache directory, PoCL its kernel cache).
        blocked = os.path.join(work, "blocked")
        os.mkdir(blocked)
        with open(os.path.join(blocked, "hetero"), "w") as f:
            f.write("not a directory")
        out = run(args.program, env, blocked)
        check(out.count("cannot write the split history") == 1, "an unwritable cache should cost one warning:\n" + out)

        # A program whose last launch was timed: no decision hears the timing, the exit does.
        last = os.path.join(work, "last")
        os.mkdir(last)
        run(args.program, env, last, "[.history-last]")
        _, text = history_file(last)
        check(re.search(r"^size 1 65536 1 1 \S+ \S+ 1 ", text, re.M),
              "a timing only the exit could hear is not in the file:\n" + text)

        # A history that says increment splits: its variants are built with the program, in the
        # background (held longer here), and the launches that meet the build are right; a process
        # that ends before any launch waits for the build.
        wants = os.path.join(work, "prebuild")
        os.mkdir(wants)
        run(args.program, env, wants)
        path, text = history_file(wants)
        text = re.sub(r"^(kernel [0-9a-f]{16}/increment .*?)( perprocess=)", r"\1 prebuild=1\2", text, flags=re.M)
        check(" prebuild=1 " in text, "could not mark increment in:\n" + text)
        with open(path, "w") as f:
            f.write(text)
        slow = dict(env)
        slow["HETERO_TEST_VARIANTS_BUILD_DELAY_MS"] = "300"
        out = run(args.program, slow, wants)
        check("split variants built with the program: the history says kernel increment splits" in out,
              "the history's prebuild=1 did not build the variants with the program:\n" + out)
        check(out.count("split variants built in ") == 1, "the variants were not built once:\n" + out)
        with open(path, "w") as f:
            f.write(text)
        out = run(args.program, slow, wants, "[.history-build-only]")
        check("split variants built in " in out, "the process ended before the variants' build:\n" + out)

        off = os.path.join(work, "off")
        os.mkdir(off)
        e = dict(env)
        e["HETERO_HISTORY_CACHE"] = "off"
        e["XDG_CACHE_HOME"] = off
        done = subprocess.run([args.program, "[.history]"], env=e, capture_output=True, text=True, timeout=600)
        check(done.returncode == 0, "the program failed with HETERO_HISTORY_CACHE=off")
        check(not glob.glob(os.path.join(off, "hetero", "split-history-*")), "HETERO_HISTORY_CACHE=off wrote a file")
    print("history kept between runs: ok")


if __name__ == "__main__":
    main()
