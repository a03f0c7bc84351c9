"""What the results were measured on: host, CPU, memory, GPU, OpenCL platforms, commit, date."""

import datetime
import os
import platform
import subprocess
import sys


def _read(path):
    try:
        with open(path) as source:
            return source.read()
    except OSError:
        return ""


def _command(args, cwd=None):
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True, timeout=20, cwd=cwd)
        return done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def cpu_model():
    for line in _read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def memory_gib():
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / (1024.0 * 1024.0)
    return None


def gpus():
    text = _command(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                     "--format=csv,noheader"])
    return [line.strip() for line in text.splitlines() if line.strip()]


def git_commit(repo):
    """The checkout's commit; HETERO_COMMIT names it where the tree is a copy without .git (the
    GPU machine)."""
    commit = _command(["git", "rev-parse", "--short=12", "HEAD"], cwd=repo)
    if not commit:
        return os.environ.get("HETERO_COMMIT", "unknown") + " (no git checkout here)"
    dirty = _command(["git", "status", "--porcelain", "--untracked-files=no"], cwd=repo)
    return commit + (" (with uncommitted changes)" if dirty else "")


def header_lines(title, command_line, repo, build_dir, native_platforms, hetero_platforms,
                 settings):
    """Markdown lines describing the session. *_platforms: probe results (lists of dicts) or
    None when not probed."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    memory = memory_gib()
    lines = [
        "# %s" % title,
        "",
        "- date: %s" % now,
        "- command: `%s`" % command_line,
        "- host: %s, %s" % (platform.node(), platform.platform()),
        "- CPU: %s, %d logical cores%s" % (cpu_model(), os.cpu_count() or 0,
                                          ", %.0f GiB memory" % memory if memory else ""),
    ]
    found = gpus()
    lines.append("- GPU: %s" % ("; ".join(found) if found else "none found (no nvidia-smi)"))
    lines.append("- commit: %s; build: `%s`" % (git_commit(repo), build_dir))
    lines.append("- python %s" % sys.version.split()[0])
    for key, value in settings:
        lines.append("- %s: %s" % (key, value))
    for heading, platforms in (("OpenCL platforms (native)", native_platforms),
                               ("Hetero", hetero_platforms)):
        if platforms is None:
            continue
        lines.append("- %s:%s" % (heading, "" if platforms else " none"))
        for p in platforms:
            lines.append("  - %s — %s" % (p["name"], p["version"]))
            for d in p["devices"]:
                lines.append("    - %s [%s] %s, driver %s, %s compute units" % (
                    d["name"], "+".join(d["type"]), d["version"], d["driver"],
                    d["compute_units"]))
    return lines
