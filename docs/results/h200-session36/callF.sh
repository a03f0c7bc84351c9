#!/usr/bin/env bash
# Session 36 call F (one H200): natively, does a kernel that reads two fresh 6.8 MB inputs (gesummv
# LARGE's A and B, row per work-item) run slower after writes in pieces (as Hetero's staged writes
# through the CPU's pinned host copy) than after one write each, or after writes from ordinary
# memory? callF/pieces.c, a one-off experiment (no Hetero), 40 interleaved rounds.
set -uo pipefail
source .device/env.sh >/dev/null
gcc -O2 -w -o /tmp/pieces docs/results/h200-session36/callF/pieces.c -lOpenCL -lm && timeout 100 /tmp/pieces
