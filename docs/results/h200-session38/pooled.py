#!/usr/bin/env python3
"""syr2k STANDARD's real ideal and auto mode's share of its gain, per call and pooled (calls C, F, G):
each call's `standard.txt` has lines "<config> <kernel_ms>" (call F's auto lines "auto-pN kernel_ms=X ...")."""
import collections
import re
import statistics as st
import sys


def read(path):
    d = collections.defaultdict(list)
    for line in open(path):
        m = re.match(r"(\S+)\s+(?:kernel_ms=)?([0-9.]+)", line)
        if m:
            d[m.group(1)].append(float(m.group(2)))
    return d


def summary(name, d):
    native = st.median(d["native"])
    sides = {}
    for key in d:
        if key.startswith("gpu-part-"):
            s = key[len("gpu-part-"):]
            if "cpu-part-" + s in d:
                sides[s] = max(st.median(d[key]), st.median(d["cpu-part-" + s]))
    share, ideal = min(sides.items(), key=lambda kv: kv[1])
    auto = st.median([v for k in ("auto-p2", "auto-p3", "auto-p4", "auto-p5") for v in d.get(k, [])])
    static = st.median(d["static-0.05"]) if "static-0.05" in d else float("nan")
    gain = native - ideal
    print(f"{name:8s} native {native:.3f}  real ideal {ideal:.3f} at {share} (gain {gain:.3f})  "
          f"auto p2-p5 {auto:.3f}: {100 * (native - auto) / gain:.0f} %  static 0.05 {static:.3f}: "
          f"{100 * (native - static) / gain:.0f} %")


pooled = collections.defaultdict(list)
for path in sys.argv[1:]:
    d = read(path)
    summary(path.split("/")[0], d)
    for k, v in d.items():
        pooled[k].extend(v)
summary("pooled", pooled)
