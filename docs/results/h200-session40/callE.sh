#!/usr/bin/env bash
# Session 40 call E (one H200): callE/pinoffset.c natively, three times: what a 1 MiB pinned write
# adds to a launch by where the source lies in a pinned slab, and with a flush between them.
set -uo pipefail
source .device/env.sh
gcc -O2 docs/results/h200-session40/callE/pinoffset.c -lOpenCL -o /tmp/pinoffset || exit 1
for i in 1 2 3; do /tmp/pinoffset; done
