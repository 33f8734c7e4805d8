#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS_DIR OUT_DIR
#
# Grades every hand-in in SUBMISSIONS_DIR (.tar.gz, .tgz and .tar files, and
# folders) with grade.sh, several at a time, and writes OUT_DIR/gradebook.csv:
# one row per student, one column per lab (grade-report writes it). One
# broken or hostile hand-in never stops the others or touches their results.
# Names are given as harness/grade/handins.sh says. Counts from the emulator and
# from cache simulation are the same however busy the machine is, so they
# run in parallel; timings on a GPU do not: a second pass runs them once
# every hand-in's tests have run, side by side, but each timing with the GPU
# to itself. (On a cluster, grade-slurm.sh gives each its own node.)
#
# It says how far it is on a line each time a hand-in is graded (done,
# running, waiting, and that hand-in's points and status), and ends with
# the gradebook's end report: every hand-in that is not simply graded, and
# what the grading met (grade_book.c). Each hand-in's log is OUT_DIR/logs/NAME.log.
set -u
dir=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
: "${WEIGHTS:?} ${TOOLS:?}"
cores=$(nproc 2>/dev/null || echo 2)

. harness/grade/handins.sh
list_handins "$dir" || exit 2

[ -z "${HIDDEN:-}" ] || "$TOOLS/grade-held-back" "$HIDDEN" || exit 2
# The graders' logs name every hand-in and its score: the grading user's alone (a
# sandbox that runs student code as another user, setpriv's, must not list them).
mkdir -p "$out/logs" && chmod 700 "$out/logs"
perf=all
[ "$BACKEND" != cuda ] || perf=gpu-later
total=${#paths[@]}
# Every core busy and none shared: hand-ins at once, and within each, labs at once.
jobs=$((cores < total ? cores : total))
lab_jobs=$((cores / jobs))
echo "grade-all: grading $total hand-in$([ "$total" = 1 ] || echo s), $jobs at a time$([ "$lab_jobs" = 1 ] || echo ", $lab_jobs labs at a time each")$([ "$perf" = all ] || echo "; then their GPU labs are timed, one timing on the GPU at a time")"

# result NAME STATUS: the hand-in's line (grade-report's last), or why there is none.
result() {
    if [ "$2" = 0 ]; then
        tail -n 1 "$out/logs/$1.log"
    else
        echo "$1: the grader failed (exit status $2): see $out/logs/$1.log"
    fi
}

# each_handin PERF: grade.sh with PERF for every hand-in, $jobs at a time, a line as each ends.
each_handin() {
    local perf=$1 done=0 next=0 finished status name
    local -A running=() # pid -> name
    while [ "$next" -lt "$total" ] || [ ${#running[@]} -gt 0 ]; do
        while [ "$next" -lt "$total" ] && [ ${#running[@]} -lt "$jobs" ]; do
            PERF=$perf GRADE_JOBS=$lab_jobs harness/grade/grade.sh "${paths[$next]}" "$out" "${names[$next]}" \
                >>"$out/logs/${names[$next]}.log" 2>&1 &
            running[$!]=${names[$next]}
            next=$((next + 1))
        done
        finished=
        wait -n -p finished
        status=$?
        [ -n "$finished" ] || continue
        name=${running[$finished]}
        unset "running[$finished]"
        done=$((done + 1))
        if [ "$perf" = only ]; then
            echo "grade-all: GPU labs timed, $done of $total: $(result "$name" "$status")"
        else
            echo "grade-all: $done of $total done, ${#running[@]} running, $((total - next)) waiting: $(result "$name" "$status")$(
                [ "$perf" = all ] || echo " (its GPU labs not timed yet)")"
        fi
    done
}

for name in "${names[@]}"; do : >"$out/logs/$name.log"; done
each_handin "$perf"
# The GPU timings once every hand-in's tests have run: side by side, each
# timing with the GPU to itself (the benches' lock, grade_measuring.c).
[ "$perf" != gpu-later ] || each_handin only
merge_gradebook "$out"
