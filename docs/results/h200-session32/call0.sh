#!/usr/bin/env bash
# Session 32 call 0 (one H200): what one build costs from source and from the backend's own binary,
# one process per build, NVIDIA and PoCL alone (bcn.c, run from .scratch/ at the time).
set -uo pipefail
cd "$(dirname "$0")"
gcc -O1 bcn.c -o /tmp/bcn -lOpenCL && nvidia-smi -L
for r in 1 2; do for p in NVIDIA Portable; do
  /tmp/bcn $p save; /tmp/bcn $p binary; /tmp/bcn $p source; /tmp/bcn $p binary
done; done
