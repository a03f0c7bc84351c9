"""What the bench tools' Python drivers (bandwidth.py, launch_cost.py, split_cost.py) share: the bench
runner's environments and statistics, the tool's path in a build, the native platform, one run of a tool, and a
configuration run with another build's Hetero (--baseline) or with Hetero variables of its own (--variant)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from runner import configs as runner_configs  # noqa: E402  (a configuration with variables of its own)
from runner.configs import Config, hetero_library  # noqa: E402,F401  (the bench runner's environments)
from runner.stats import median_difference  # noqa: E402,F401


def tool_path(build, name):
    """build/bench/<name>, or exit saying the project must be built first."""
    tool = os.path.join(os.path.abspath(build), "bench", name)
    if not os.path.exists(tool):
        sys.exit("%s is missing: build the project first (cmake --build %s)" % (tool, build))
    return tool


def native_platform(tool):
    """The platform native runs use: NVIDIA where the machine has it, else PoCL."""
    listed = subprocess.run([tool, "--list"], capture_output=True, text=True,
                            env=Config("n", "", "", "").environment(os.environ, "."))
    return "NVIDIA" if "NVIDIA" in listed.stdout else "Portable"


def run_tool(command, config, build, line, timeout=900):
    """One process of a tool in `config`'s environment (Hetero from `build`): the matches of the
    compiled pattern `line` among its output lines. A failed run, or one with no match, is reported
    on stderr with the end of its output."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=config.environment(os.environ, build))
    matches = [m for m in (line.match(text.strip()) for text in done.stdout.splitlines()) if m]
    if done.returncode != 0 or not matches:
        sys.stderr.write("%s: exit %d%s\n%s%s" % (config.name, done.returncode, "" if matches else ", no result",
                                                  done.stdout[-2000:], done.stderr[-2000:]))
    return matches


def with_baseline(config, baseline):
    """`config` with the Hetero library of the build `baseline` (another tree's, built beside this
    one: before/after in one run, interleaved), named "<name> (baseline)"."""
    build = os.path.abspath(baseline)
    env = dict(config.env, OCL_ICD_FILENAMES=hetero_library(build), OCL_ICD_VENDORS=os.path.join(build, "vendors"))
    return Config(config.name + " (baseline)", config.label + ", Hetero of " + build, config.platform, config.device,
                  hetero=True, env=env)


def with_variant(configs, spec):
    """The configuration a --variant NAME:VAR=VALUE[,VAR=VALUE...] asks for: the Hetero configuration
    NAME among `configs` with those variables added (a knob's effect, interleaved with the
    configuration without it), named "NAME, VAR=VALUE,..." (runner.configs.with_variables: a comma
    starts the next variable only where VAR= follows it). Exits on a malformed spec."""
    name, _, assignments = spec.partition(":")
    base = next((c for c in configs if c.name == name and c.hetero), None)
    if base is not None:
        try:
            return runner_configs.with_variables(base, "%s, %s" % (name, assignments), assignments)
        except ValueError:
            pass  # malformed variables: the same message
    sys.exit("--variant %r: expected NAME:VAR=VALUE[,VAR=VALUE...] with NAME one of the Hetero "
             "configurations (%s)" % (spec, ", ".join(c.name for c in configs if c.hetero)))
