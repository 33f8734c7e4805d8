#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS_DIR OUT_DIR
#
# Grades every hand-in in SUBMISSIONS_DIR (.tar.gz, .tgz and .tar files, and
# folders) with grade.sh, several at a time, and writes OUT_DIR/gradebook.csv:
# one row per student, one column per lab (grade-report writes it). One
# broken or hostile hand-in never stops the others or touches their results.
# Names are given as harness/grade/handins.sh says. Counts from the emulator and
# from cache simulation are the same however busy the machine is, so they
# run in parallel; timings on a GPU do not: a second pass runs them one
# hand-in at a time. (On a cluster, grade-slurm.sh gives each its own node.)
set -u
dir=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
: "${WEIGHTS:?} ${TOOLS:?}"
jobs=$(nproc 2>/dev/null || echo 2)

. harness/grade/handins.sh
list_handins "$dir" || exit 2

. harness/grade/held-back.sh
read_held_back "${HIDDEN:-}" || exit 2
mkdir -p "$out/logs"
perf=all
[ "$BACKEND" != cuda ] || perf=gpu-later
for i in "${!paths[@]}"; do printf '%s\0%s\0' "${paths[$i]}" "${names[$i]}"; done |
    PERF=$perf xargs -0 -n 2 -P "$jobs" sh -c \
        'harness/grade/grade.sh "$2" "$1" "$3" >/dev/null 2>"$1/logs/$3.log" || echo "grade-all: $3 failed: see $1/logs/$3.log" >&2' \
        sh "$out"
if [ "$perf" = gpu-later ]; then
    for i in "${!paths[@]}"; do
        PERF=only harness/grade/grade.sh "${paths[$i]}" "$out" "${names[$i]}" >/dev/null 2>>"$out/logs/${names[$i]}.log"
    done
fi
merge_gradebook "$out"
echo "graded ${#paths[@]} hand-ins: $out/gradebook.csv"
