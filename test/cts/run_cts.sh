#!/usr/bin/env bash
# Runs chosen cases of the Khronos OpenCL CTS against the native backend and against Hetero (one
# backend slot; two PoCL slots with every launch split), one process per case with a time limit,
# and prints per suite how many cases passed in each configuration and every case whose outcome
# differs from native. See README.md beside this file.
set -u

usage() {
    cat <<'EOF'
usage: test/cts/run_cts.sh [options] SUITE[:CASE,CASE...] ...
  SUITE           a CTS binary name (test_api, test_events, test_cl_get_info, ...); alone: all its
                  cases (from --list); with :CASE,...: only those. CASE+ARG+ARG... passes the ARGs
                  after the case name (the image binaries: 2D+CL_RGBA+CL_UNORM_INT8); the whole
                  string names the case in results.tsv
options:
  --cts DIR       where the CTS binaries are (default $HETERO_CTS_DIR); searched recursively
  --build DIR     Hetero's build directory (default: build/ of this checkout)
  --configs LIST  comma list of native,one,split,split-eager,piped (default native,one,split-eager:
                  split-eager is the configuration whose launches really split; piped: one slot in
                  discrete memory, every launch in a loop made by a pipe thread held back up to 30 us)
  --out DIR       logs and results.tsv (default cts-results/); cases already there are not rerun
  --timeout S     seconds per case (default 300); a case past it counts as a hang
  --jobs N        cases run at once (default 1)
  --native-icd L  the vendor library of the native configuration (default: the one in
                  /etc/OpenCL/vendors/pocl.icd)
  --report        only print the comparison of what --out holds
EOF
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cts="${HETERO_CTS_DIR:-}"
build="$repo/build"
configs="native,one,split-eager"
out="$repo/cts-results"
timeout_s=300
jobs=1
native_icd=""
report_only=0
specs=()

# One case in one configuration (the script calls itself for each, possibly in parallel).
if [[ "${1:-}" == "--run-one" ]]; then
    shift
    config="$1" suite_bin="$2" case_name="$3" log="$4" limit="$5"
    mkdir -p "$(dirname "$log")"
    # CASE+ARG+...: the harness runs CASE with the ARGs (formats, sizes) and reports it as CASE.
    IFS='+' read -r -a case_args <<<"$case_name"
    start=$(date +%s.%N)
    timeout -k 10 "$limit" "$suite_bin" "${case_args[@]}" >"$log" 2>&1 </dev/null
    rc=$?
    full_name="$case_name" case_name="${case_args[0]}"
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    # What the harness printed decides; the exit status tells hangs and crashes apart.
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then outcome=hang
    elif grep -q -E "^${case_name} (test )?(not supported|skipped)" "$log"; then outcome=skip
    elif grep -q -E "^${case_name} passed" "$log"; then
        if [[ $rc -ge 128 ]]; then outcome=pass-crash-at-exit; else outcome=pass; fi
    elif grep -q -E "^${case_name} FAILED" "$log"; then outcome=fail
    elif [[ $rc -ge 128 ]]; then outcome=crash
    elif [[ $rc -eq 0 ]]; then outcome=pass
    else outcome=fail
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$(basename "$suite_bin")" "$full_name" "$outcome" "$rc" "$secs"
    exit 0
fi

while [[ $# -gt 0 ]]; do
    case "$1" in
    --cts) cts="$2"; shift 2 ;;
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --configs) configs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --native-icd) native_icd="$2"; shift 2 ;;
    --report) report_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) specs+=("$1"); shift ;;
    esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
results="$out/results.tsv"
touch "$results"

report() {
    # Per suite and configuration: pass / fail / skip / hang / crash; then the cases whose outcome
    # differs from native (or from the first configuration run).
    awk -F'\t' -v configs="$configs" '
    BEGIN { n = split(configs, cfg, ",") }
    { o[$1 FS $2 FS $3] = $4; suites[$2] = 1; cases[$2 FS $3] = 1 }
    END {
        printf "%-28s", "suite"
        for (i = 1; i <= n; i++) printf " | %-34s", cfg[i]
        printf "\n"
        for (s in suites) {
            printf "%-28s", s
            for (i = 1; i <= n; i++) {
                p = f = k = h = c = e = 0
                for (key in cases) {
                    split(key, parts, FS); if (parts[1] != s) continue
                    r = o[cfg[i] FS key]
                    if (r == "pass") p++; else if (r == "fail") f++; else if (r == "skip") k++
                    else if (r == "hang") h++; else if (r == "crash") c++; else if (r == "pass-crash-at-exit") e++
                }
                cell = sprintf("%d pass", p)
                if (f) cell = cell sprintf(", %d fail", f)
                if (h) cell = cell sprintf(", %d hang", h)
                if (c) cell = cell sprintf(", %d crash", c)
                if (e) cell = cell sprintf(", %d exit-crash", e)
                if (k) cell = cell sprintf(", %d skip", k)
                printf " | %-34s", cell
            }
            printf "\n"
        }
        printf "\ncases whose outcome differs between configurations:\n"
        any = 0; missing = 0
        for (key in cases) {
            differs = 0; line = ""; complete = 1
            for (i = 1; i <= n; i++) {
                r = o[cfg[i] FS key]; if (r == "") { r = "-"; complete = 0 }
                if (i > 1 && r != first) differs = 1
                if (i == 1) first = r
                line = line sprintf(" %s=%s", cfg[i], r)
            }
            if (!complete) { missing++; continue }
            if (differs) { split(key, parts, FS); printf "  %s %s:%s\n", parts[1], parts[2], line; any = 1 }
        }
        if (!any) printf "  none\n"
        if (missing) printf "(%d cases not run in every configuration are left out)\n", missing
    }' "$results"
}

if [[ $report_only -eq 1 ]]; then report; exit 0; fi
if [[ ${#specs[@]} -eq 0 ]]; then usage >&2; exit 2; fi
if [[ -z "$cts" || ! -d "$cts" ]]; then echo "say where the CTS binaries are: --cts DIR or HETERO_CTS_DIR" >&2; exit 2; fi
hetero_lib="$build/icd/libHeteroOpenCL.so.1"
if [[ ",$configs," == *,one,* || ",$configs," == *,split,* || ",$configs," == *,split-eager,* || ",$configs," == *,piped,* ]]; then
    [[ -e "$hetero_lib" ]] || { echo "no Hetero library at $hetero_lib (build it, or --build DIR)" >&2; exit 2; }
fi
if [[ -z "$native_icd" ]]; then
    native_icd="$(head -n1 /etc/OpenCL/vendors/pocl.icd 2>/dev/null)"
    [[ -n "$native_icd" ]] || { echo "no /etc/OpenCL/vendors/pocl.icd: give --native-icd" >&2; exit 2; }
fi
native_vendors="$out/native-vendors"
mkdir -p "$native_vendors"
echo "$native_icd" >"$native_vendors/native.icd"

# The loader environment of each configuration: show the loader only the one library.
config_env() {
    case "$1" in
    native) echo "OCL_ICD_FILENAMES=$native_icd OCL_ICD_VENDORS=$native_vendors" ;;
    one) echo "OCL_ICD_FILENAMES=$hetero_lib OCL_ICD_VENDORS=$build/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=pocl:0" ;;
    split) echo "OCL_ICD_FILENAMES=$hetero_lib OCL_ICD_VENDORS=$build/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=pocl:0,pocl:0 HETERO_SPLIT=always HETERO_MEMORY=discrete" ;;
    # As split, with the split variants built with the program: with lazy building (split's) a
    # kernel's first launch runs whole, and most CTS cases launch each kernel once or twice.
    split-eager) echo "OCL_ICD_FILENAMES=$hetero_lib OCL_ICD_VENDORS=$build/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=pocl:0,pocl:0 HETERO_SPLIT=always HETERO_SPLIT_BUILD=eager HETERO_MEMORY=discrete" ;;
    # One slot in discrete memory (as on a GPU), every launch in a loop made by the queue's pipe
    # thread (devices/call_pipe.hpp), which is held back before each launch.
    piped) echo "OCL_ICD_FILENAMES=$hetero_lib OCL_ICD_VENDORS=$build/vendors HETERO_CONFIG=/nonexistent HETERO_DEVICES=pocl:0 HETERO_MEMORY=discrete HETERO_SUBMIT_THREAD=on HETERO_TEST_PIPE_AFTER_RUN=1 HETERO_TEST_PIPE_DELAY_US=30" ;;
    *) echo "unknown configuration $1" >&2; exit 2 ;;
    esac
}

find_suite() { find "$cts" -type f -perm -u+x -name "$1" | head -n1; }

tasks="$out/tasks.$$"
: >"$tasks"
for spec in "${specs[@]}"; do
    suite="${spec%%:*}"
    bin="$(find_suite "$suite")"
    [[ -n "$bin" ]] || { echo "no CTS binary $suite under $cts" >&2; exit 2; }
    if [[ "$spec" == *:* ]]; then
        IFS=',' read -r -a names <<<"${spec#*:}"
    else
        mapfile -t names < <(env $(config_env native) "$bin" --list 2>/dev/null | sed -n 's/^\t\([^ ]*\)$/\1/p')
    fi
    for config in ${configs//,/ }; do
        for name in "${names[@]}"; do
            grep -q -F "$(printf '%s\t%s\t%s\t' "$config" "$suite" "$name")" "$results" && continue
            printf '%s\t%s\t%s\t%s\n' "$config" "$(config_env "$config")" "$bin" "$name" >>"$tasks"
        done
    done
done
echo "$(wc -l <"$tasks") cases to run ($jobs at a time, ${timeout_s}s each at most); results in $results" >&2
while IFS=$'\t' read -r config environment bin name; do
    printf '%s\0' "$config" "$environment" "$bin" "$name"
done <"$tasks" | xargs -0 -n4 -P "$jobs" bash -c '
    here="$1" out="$2" limit="$3" config="$4" environment="$5" bin="$6" name="$7"
    env $environment "$here/run_cts.sh" --run-one "$config" "$bin" "$name" "$out/$config/${bin##*/}/$name.log" "$limit"
' _ "$here" "$out" "$timeout_s" | tee -a "$results" | awk -F'\t' '{ printf "%-6s %-22s %-45s %s (%ss)\n", $1, $2, $3, $4, $6; fflush() }' >&2
rm -f "$tasks"
report
