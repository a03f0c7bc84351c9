"""The configurations a benchmark runs under: which platform and device the program asks for, and
which environment it gets.

Native runs see the machine's ordinary ICD registry: OCL_ICD_VENDORS and every HETERO_* variable
are removed. Hetero runs see the freshly built Hetero alone, under either ICD loader:
OCL_ICD_VENDORS=<build>/vendors (what ocl-icd reads) and OCL_ICD_FILENAMES=<the library that
<build>/vendors/hetero.icd names> (what the Khronos loader was seen to read). Hetero finds its own
backends in /etc/OpenCL/vendors or HETERO_BACKENDS.
"""

import os
import re

from .real_ideal import SHARE_DIGITS, share_key

# The real ideal's measurements (stats.real_ideal): each side of the static split of share s run
# alone (HETERO_TEST_SPLIT_ONLY, results wrong on purpose, so unchecked). The GPU side of s = 1 and
# the CPU side of s = 0 have no work-groups and are not run.
PARTS = ("gpu", "cpu")
# The CPU shares of the static splits and of their sides: tenths, and 0.02 and 0.05, because with a
# CPU 10-20x slower than the GPU the best share is 0.05-0.09: a tenth is already too much for the
# CPU, and tenths alone would report no gain where there is one (syr2k on one H100,
# docs/results/h100-session23).
SPLIT_SHARES = tuple(sorted({round(0.1 * i, 1) for i in range(11)} | {0.02, 0.05}))
assert all(share_key(s) == s for s in SPLIT_SHARES), "a share finer than real_ideal.SHARE_DIGITS"
# Any other share of SHARE_DIGITS decimals by name (static-0.07, gpu-part-0.07, cpu-part-0.07), for a
# program whose real ideal lies between those (syr2k STANDARD on the H200: 0.07,
# docs/results/h200-session38): the groups keep SPLIT_SHARES.
_SHARE_NAME = re.compile(r"(static|gpu-part|cpu-part)-([0-9]*\.?[0-9]+)$")
MEMORY_MODELS = ("discrete", "unified")
MEMORY_PAIR = "pocl:0,pocl:0"


class Config:
    def __init__(self, name, label, platform, device, hetero=False, env=None, share=None,
                 part=None):
        self.name = name          # short identifier used in files and --configs
        self.label = label        # human-readable description for the Markdown header
        self.platform = platform  # substring of the platform name (--platform)
        self.device = device      # --device argument
        self.hetero = hetero      # runs through the Hetero ICD of the build tree
        self.env = dict(env or {})
        self.share = share        # HETERO_CPU_SHARE for static splits and split sides, else None
        self.part = part          # "gpu" / "cpu": one side of the static split `share` run alone
        # A side run alone computes only part of the result: the program's check is skipped.
        self.no_check = part is not None

    @property
    def is_static(self):
        return self.share is not None and self.part is None

    def environment(self, base, build_dir):
        """The child process's environment, built from base (normally os.environ)."""
        env = {k: v for k, v in base.items() if not k.startswith("HETERO_")}
        env.pop("OCL_ICD_VENDORS", None)
        if self.hetero:
            build = os.path.abspath(build_dir)
            env["OCL_ICD_FILENAMES"] = hetero_library(build)
            env["OCL_ICD_VENDORS"] = os.path.join(build, "vendors")
            # Keep an explicit backend list the user gave; it is Hetero's, not the loader's.
            if "HETERO_BACKENDS" in base:
                env["HETERO_BACKENDS"] = base["HETERO_BACKENDS"]
        env.update(self.env)
        return env

    def __repr__(self):
        return "Config(%s)" % self.name


def hetero_library(build):
    """The library the build tree's vendor file names (its path if the file is missing)."""
    icd = os.path.join(build, "vendors", "hetero.icd")
    try:
        with open(icd) as f:
            return f.readline().strip()
    except OSError:
        return os.path.join(build, "icd", "libHeteroOpenCL.so")


def static_name(share):
    return "static-" + share_text(share)


def share_text(share):
    """0.3 as "0.3", 0.05 as "0.05": a share as configuration names and HETERO_CPU_SHARE spell it."""
    return "%.1f" % share if round(share, 1) == share else "%.*f" % (SHARE_DIGITS, share)


def part_name(part, share):
    """gpu-part-0.3: the GPU side of static-0.3 (the low 70 % of the work-groups) run alone."""
    return "%s-part-%s" % (part, share_text(share))


def part_shares(part, shares=SPLIT_SHARES):
    return [s for s in shares if (s < 1.0 if part == "gpu" else s > 0.0)]


def shares_named(names):
    """The shares beyond SPLIT_SHARES that configuration names such as static-0.07 ask for. Raises
    ValueError for a share outside 0..1, finer than SHARE_DIGITS decimals, or a side with no
    work-groups (gpu-part-1.0, cpu-part-0.0)."""
    extra = set()
    for name in names:
        match = _SHARE_NAME.match(name)
        if not match:
            continue
        kind, share = match.group(1), float(match.group(2))
        if not 0.0 <= share <= 1.0 or share_key(share) != share:
            raise ValueError("'%s': a share is 0..1 with at most %d decimals" % (name, SHARE_DIGITS))
        if (kind == "gpu-part" and share == 1.0) or (kind == "cpu-part" and share == 0.0):
            raise ValueError("'%s': that side has no work-groups" % name)
        if share not in SPLIT_SHARES:
            extra.add(share)
    return extra


def all_configs(extra_shares=()):
    """Every known configuration, in the order they are run and shown; the static splits and
    their sides at SPLIT_SHARES and `extra_shares` (shares_named)."""
    shares = sorted(set(SPLIT_SHARES) | {share_key(s) for s in extra_shares})
    configs = [
        Config("native-gpu", "native GPU (NVIDIA platform, --device gpu)", "NVIDIA", "gpu"),
        Config("native-cpu", "native CPU (PoCL platform, --device cpu)", "Portable", "cpu"),
        Config("hetero-gpu", "Hetero held to the GPU (HETERO_DEVICES=gpu)", "Hetero", "all",
               hetero=True, env={"HETERO_DEVICES": "gpu"}),
        Config("hetero-cpu", "Hetero held to the CPU (HETERO_DEVICES=cpu)", "Hetero", "all",
               hetero=True, env={"HETERO_DEVICES": "cpu"}),
    ]
    for share in shares:
        configs.append(Config(static_name(share),
                              "Hetero static split, HETERO_CPU_SHARE=%s" % share_text(share),
                              "Hetero", "all", hetero=True,
                              env={"HETERO_CPU_SHARE": share_text(share), "HETERO_SPLIT_BUILD": "eager"},
                              share=share))
    configs.append(Config("hetero", "Hetero adaptive split (no knobs set)", "Hetero", "all",
                          hetero=True))
    for part in PARTS:
        for share in part_shares(part, shares):
            what = "the low %d %% of the work-groups on the GPU" % round(100 * (1 - share)) \
                if part == "gpu" else "the top %d %% of the work-groups on the CPU" % round(100 * share)
            configs.append(Config(part_name(part, share),
                                  "%s side of a static split at %s alone: %s (HETERO_CPU_SHARE=%s, "
                                  "HETERO_TEST_SPLIT_ONLY=%s; results wrong on purpose, unchecked)"
                                  % (part.upper(), share_text(share), what, share_text(share), part),
                                  "Hetero", "all", hetero=True,
                                  env={"HETERO_CPU_SHARE": share_text(share),
                                       "HETERO_TEST_SPLIT_ONLY": part},
                                  share=share, part=part))
    # Unified against discrete memory on one device pair that shares host memory (two PoCL slots),
    # every launch split: the FluidiCL engine (copies, merges) against exclusive partitioning.
    for model in MEMORY_MODELS:
        configs.append(Config("hetero-" + model,
                              "Hetero split in %s memory (HETERO_MEMORY=%s, HETERO_DEVICES=%s, "
                              "HETERO_SPLIT=always, HETERO_SPLIT_BUILD=eager)" % (model, model, MEMORY_PAIR),
                              "Hetero", "all", hetero=True,
                              env={"HETERO_MEMORY": model, "HETERO_DEVICES": MEMORY_PAIR,
                                   "HETERO_SPLIT": "always", "HETERO_SPLIT_BUILD": "eager"}))
    return configs


# --variant NAME=BASE:VAR=VALUE[,VAR=VALUE...]: the configuration BASE again, with more environment
# variables, under a name of its own (the files and tables use it), run round by round with the rest:
# a knob's effect (HETERO_TEST_FLUSH_EVERY=0), or a preload (LD_PRELOAD=...), beside the same
# configuration without it. A comma separates assignments only where VAR= follows it, so a value
# may hold commas (HETERO_DEVICES=pocl:0,pocl:0).
_VARIANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*$")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_NEXT_ASSIGNMENT = re.compile(r",(?=[A-Za-z_][A-Za-z0-9_]*=)")


def assignments(text):
    """VAR=VALUE[,VAR=VALUE...] as a dict, in order. Raises ValueError when there is none, or one
    without '=' or with a name that is no environment variable's."""
    pairs = [a.partition("=") for a in _NEXT_ASSIGNMENT.split(text)] if text else []
    if not pairs or any(not _VARIABLE.match(var) or not eq for var, eq, _ in pairs):
        raise ValueError("'%s': expected VAR=VALUE[,VAR=VALUE...]" % text)
    return {var: value for var, _, value in pairs}


def variant(spec):
    """The configuration a --variant NAME=BASE:VAR=VALUE[,...] asks for. Raises ValueError for a
    malformed spec, an unknown BASE, or a NAME that is a known configuration's."""
    name, _, rest = spec.partition("=")
    base_name, colon, text = rest.partition(":")
    if not _VARIANT_NAME.match(name) or not colon:
        raise ValueError("--variant '%s': expected NAME=BASE:VAR=VALUE[,VAR=VALUE...] (NAME of "
                         "letters, digits and ._+-)" % spec)
    try:
        taken = _SHARE_NAME.match(name) is not None or bool(select(name))
    except ValueError:
        taken = False
    if taken:
        raise ValueError("--variant '%s': %s names a configuration or group already" % (spec, name))
    known = all_configs(shares_named([base_name]))
    base = next((c for c in known if c.name == base_name), None)
    if base is None:
        raise ValueError("--variant '%s': no configuration %s (known: %s)" % (
            spec, base_name, ", ".join(c.name for c in known)))
    try:
        return with_variables(base, name, text)
    except ValueError as error:
        raise ValueError("--variant '%s': %s" % (spec, error))


def with_variables(base, name, text):
    """`base` again under `name`, with the variables of `text` (VAR=VALUE[,VAR=VALUE...],
    assignments) over its own: the runner's and the bench tools' --variant. A column of its own: the
    static curve and the real ideal keep their base's points (no share or side here), and a side's
    variant computes its part of the result only, unchecked. ValueError for malformed variables."""
    made = Config(name, "%s, with %s" % (base.label, text), base.platform, base.device, hetero=base.hetero,
                  env=dict(base.env, **assignments(text)))
    made.no_check = base.no_check
    return made


def from_earlier(name, hetero):
    """A configuration an earlier session's files name that this runner does not know (a
    --variant): shown under its name."""
    return Config(name, "%s (a --variant of an earlier session)" % name, "", "", hetero=hetero)


# What runs when --configs is not given: the user's question, each device alone against Hetero
# as installed (no knobs).
DEFAULT_SELECTION = "native-gpu,native-cpu,hetero"
# The full comparison of the published GPU-machine results: Hetero held to the GPU (its overhead)
# and the thirteen static splits (the curve against the ideal) as well.
SWEEP_SELECTION = "native-gpu,native-cpu,hetero-gpu,static,hetero"
# The real ideal co-execution (stats.real_ideal): the native devices and each side of every static
# split run alone.
REAL_IDEAL_SELECTION = "native-gpu,native-cpu,gpu-part,cpu-part"


def select(spec):
    """Parses a --configs value: comma-separated names or groups (default, sweep, all, native,
    static, hetero-all, memory, real-ideal, gpu-part, cpu-part), or a static split or one of its
    sides at any share of two decimals (static-0.07, gpu-part-0.07). Returns the configurations in
    canonical order; raises ValueError on unknown names."""
    items = [part.strip() for part in spec.split(",") if part.strip()]
    known = all_configs(shares_named(items))
    by_name = {c.name: c for c in known}
    groups = {
        # The split sides alone compute wrong results on purpose: only by name or real-ideal.
        "all": [c.name for c in known if not c.part],
        "default": None,  # expanded below
        "sweep": None,
        "native": ["native-gpu", "native-cpu"],
        "static": [static_name(s) for s in SPLIT_SHARES],
        "hetero-all": [c.name for c in known if c.hetero and not c.part],
        "memory": ["hetero-" + m for m in MEMORY_MODELS],
        "real-ideal": None,
        "gpu-part": [part_name("gpu", s) for s in part_shares("gpu")],
        "cpu-part": [part_name("cpu", s) for s in part_shares("cpu")],
    }
    wanted = set()
    pending = list(items)
    if not pending:
        raise ValueError("no configuration named")
    while pending:
        item = pending.pop()
        if item == "default":
            pending.extend(DEFAULT_SELECTION.split(","))
        elif item == "sweep":
            pending.extend(SWEEP_SELECTION.split(","))
        elif item == "real-ideal":
            pending.extend(REAL_IDEAL_SELECTION.split(","))
        elif item in groups:
            wanted.update(groups[item])
        elif item in by_name:
            wanted.add(item)
        else:
            # static-0.30 or gpu-part-.3 style spellings of a share
            match = _SHARE_NAME.match(item)
            if match:
                name = "%s-%s" % (match.group(1), share_text(float(match.group(2))))
                if name in by_name:
                    wanted.add(name)
                    continue
            raise ValueError("unknown configuration '%s' (known: %s, or groups %s)" % (
                item, ", ".join(by_name), ", ".join(sorted(groups))))
    return [c for c in known if c.name in wanted]
