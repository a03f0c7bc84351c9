#!/usr/bin/env python3
"""Each split launch of a Hetero trace as a timeline, in ms from the launch's start: the host's
spans (launch, CPU chunks, sends, merge) beside the same commands on the devices' clocks
(the "(device clock)" lanes, session 49). Usage: timeline.py TRACE.json [KERNEL]"""
import json, sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"] if isinstance(trace, dict) else trace
lanes = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
spans = sorted((e for e in events if e.get("ph") == "X"), key=lambda e: e["ts"])
launches = [e for e in spans if lanes.get((e["pid"], e["tid"]), "").startswith("launches")
            and (len(sys.argv) < 3 or e["name"] == sys.argv[2])]
for n, l in enumerate(launches):
    t0, t1 = l["ts"], l["ts"] + l["dur"]
    print(f"launch {n + 1}: {l['name']} {l['dur'] / 1e3:.3f} ms, cpu groups {l.get('args', {}).get('cpu_work_groups')}")
    for e in spans:
        lane = lanes.get((e["pid"], e["tid"]), "?")
        if e is l or lane.startswith("launches") or lane.startswith("queue") or lane == "stream-back":
            continue
        if e["ts"] < t0 - 200 or e["ts"] > t1 + 300:
            continue
        print(f"   {(e['ts'] - t0) / 1e3:8.3f} {(e['ts'] + e['dur'] - t0) / 1e3:8.3f}  {lane:34s} {e['name']}")
