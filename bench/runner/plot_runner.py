"""Runs plot.py under a Python that has matplotlib.

The runner itself needs only the standard library, and the interpreter that runs it may lack
matplotlib where another one has it (Debian's python3-matplotlib belongs to /usr/bin/python3,
while `python3` on PATH may be a pyenv or venv interpreter). So the charts are drawn in a child
process of the first interpreter that can import matplotlib: this one, /usr/bin/python3, or
python3 on PATH. Where none can (the GPU machine), the CSV files are all there is and the charts
are drawn elsewhere from them (bench/run --from).
"""

import os
import shutil
import subprocess
import sys

PLOT_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot.py")
CHART_NAMES = ("results.png", "static-split.png")  # what plot.py may write
_found = []  # memo: [interpreter or None] once searched


def candidates():
    seen = []
    for path in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if path and os.path.exists(path) and os.path.realpath(path) not in \
                [os.path.realpath(p) for p in seen]:
            seen.append(path)
    return seen


def has_matplotlib(interpreter):
    try:
        done = subprocess.run([interpreter, "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def interpreter_with_matplotlib():
    """The first candidate that imports matplotlib, or None."""
    if not _found:
        _found.append(next((p for p in candidates() if has_matplotlib(p)), None))
    return _found[0]


def draw(results_csv, out_dir, title=None, timeout=300):
    """Draws the charts of results_csv into out_dir. Returns (paths written, None) or
    ([], why not)."""
    interpreter = interpreter_with_matplotlib()
    if interpreter is None:
        return [], "no Python with matplotlib here (tried %s; Debian: apt-get install " \
                   "python3-matplotlib)" % ", ".join(candidates())
    command = [interpreter, "-B", PLOT_SCRIPT, results_csv, out_dir] + ([title] if title else [])
    env = dict(os.environ, MPLBACKEND="Agg")
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return [], "plot.py took more than %d s" % timeout
    if done.returncode != 0:
        return [], "plot.py failed (exit %d): %s" % (done.returncode, done.stderr.strip()[-600:])
    return [line for line in done.stdout.splitlines() if line.strip()], None
