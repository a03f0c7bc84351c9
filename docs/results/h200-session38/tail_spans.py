#!/usr/bin/env python3
"""The spans of a Hetero trace's last launches, in µs from each launch's NDRange command start:
where a split launch's time goes after its GPU kernel (calls A and B).
Usage: tail_spans.py TRACE.json[.gz] [LAUNCHES]"""
import gzip
import json
import sys


def main():
    path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        data = json.load(f)
    events = [e for e in (data["traceEvents"] if isinstance(data, dict) else data) if e.get("ph") == "X"]
    launches = [e for e in events if e["name"].startswith("NDRangeKernel")]
    for launch in launches[-count:]:
        t0, end = launch["ts"], launch["ts"] + launch["dur"] + 200
        print("%-30s %9s %9s %9s" % ("span", "start", "length", "end"))
        for e in sorted(events, key=lambda e: (e["ts"], -e.get("dur", 0))):
            if t0 - 1 <= e["ts"] <= end:
                print("%-30s %9.1f %9.1f %9.1f" % (e["name"][:30], e["ts"] - t0, e["dur"], e["ts"] - t0 + e["dur"]))
        print()


if __name__ == "__main__":
    main()
