#!/usr/bin/env python3
"""Draws scaling.png from this directory's slot-cost logs: speedup over one H100 of every launch
split over 2 and 4 GPUs + the CPU at EXTRALARGE (call D, this session's tree), and of default mode
at LARGE over 2 GPUs, 4 GPUs and 4 GPUs + the CPU (call A). Run: python3 plot_gpus.py (matplotlib)."""
import collections
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))


def minimums(name):
    runs = collections.defaultdict(list)
    for line in open(os.path.join(here, name)):
        f = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "kernel_ms" in f:
            runs[(f["program"], f["config"])].append(float(f["kernel_ms"]))
    return {k: min(v) for k, v in runs.items()}


def panel(ax, runs, configs, labels, title, programs=None):
    programs = programs or sorted({p for p, _ in runs})
    width = 0.8 / len(configs)
    for i, (c, label) in enumerate(zip(configs, labels)):
        ys = [runs[(p, "native")] / runs[(p, c)] if (p, c) in runs else 0 for p in programs]
        ax.bar([x + i * width for x in range(len(programs))], ys, width, label=label)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_xticks([x + width * (len(configs) - 1) / 2 for x in range(len(programs))])
    ax.set_xticklabels(programs, rotation=60, ha="right")
    ax.set_ylabel("speedup over one H100 (native)")
    ax.set_title(title)
    ax.legend()


fig, (left, right) = plt.subplots(1, 2, figsize=(15, 5.5), gridspec_kw={"width_ratios": [1, 3]})
panel(left, minimums("callD-xl-always.txt"), ["new2gc", "new4gc"], ["2 GPUs + CPU", "4 GPUs + CPU"],
      "EXTRALARGE, every launch split")
panel(right, minimums("callA-large.txt"), ["2g", "4g", "4g+cpu"], ["2 GPUs", "4 GPUs", "4 GPUs + CPU"],
      "LARGE, default mode (first run)")
fig.suptitle("Hetero on 4x H100 80GB HBM3 (driver 580.159.04, PoCL 5.0), 2026-11-26")
fig.tight_layout()
fig.savefig(os.path.join(here, "scaling.png"), dpi=110)
