#!/usr/bin/env bash
# Session 40 call G (one H200): callG/writeevent.c natively, three times: what a 1 MiB pinned write
# adds to a launch with and without an event, a flush, and Hetero's way of finishing.
set -uo pipefail
source .device/env.sh
gcc -O2 docs/results/h200-session40/callG/writeevent.c -lOpenCL -o /tmp/writeevent || exit 1
for i in 1 2 3; do /tmp/writeevent; done
