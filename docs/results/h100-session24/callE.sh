#!/usr/bin/env bash
# Session 24 call E (one H100): the split engine's corpus tests that call D's ctest did not reach
# (they share one PoCL cache and run one at a time, and corpus-11 took 354 s there from a cold
# cache): engine.corpus-failing-chunks, engine.corpus-three-slots, engine.unified-13 and
# engine.unified-adaptive on NVIDIA + PoCL with 8771dec, run at once, each with its ctest
# environment and a PoCL cache of its own.
set -uo pipefail
source .device/env.sh
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
t0=$SECONDS
new=/tmp/hetero-new
etc/gpu-builds.sh $new --tests nvidia:0,pocl:0
echo "built after $((SECONDS - t0)) s"
cd $new
ctest --show-only=json-v1 -R "engine.corpus-failing-chunks|engine.corpus-three-slots|engine.unified-13|engine.unified-adaptive" > /tmp/tests.json
python3 - "$OUT" "$(( 580 - (SECONDS - t0) ))" <<'PY'
import json, os, subprocess, sys, time
out, budget = sys.argv[1], int(sys.argv[2])
tests = json.load(open("/tmp/tests.json"))["tests"]
procs = []
for t in tests:
    env = dict(os.environ)
    for p in t["properties"]:
        if p["name"] == "ENVIRONMENT":
            env.update(kv.split("=", 1) for kv in p["value"])
    env["POCL_CACHE_DIR"] = "/tmp/pocl-" + t["name"]
    log = open(os.path.join(out, t["name"] + ".txt"), "w")
    procs.append((t["name"], time.time(), subprocess.Popen(t["command"], env=env, stdout=log, stderr=subprocess.STDOUT)))
for name, start, p in procs:
    try:
        rc = p.wait(timeout=max(1, budget - (time.time() - start)))
    except subprocess.TimeoutExpired:
        p.kill(); rc = "timeout"
    print("%s: rc=%s after %.0f s" % (name, rc, time.time() - start))
PY
for f in $OUT/*.txt; do echo "$f: $(tail -3 $f | grep -E 'passed|failed' | tr '\n' ' ')"; done
