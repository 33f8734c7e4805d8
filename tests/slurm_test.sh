#!/usr/bin/env bash
# make grade-all SCHEDULER=slurm against a real Slurm: a cluster of one node,
# this machine, started and stopped as README says an instructor tries it
# (make slurm-start, make slurm-stop: harness/grade/slurm/cluster.sh), grades
# a class with a hostile hand-in in it; its gradebook must be the one
# grade-all writes here, a task past its time limit must show as such, and
# submitting again must grade only what has no result. Prints TAP; make
# check counts it, and counts it as skipped where the daemons cannot start.
source "$(dirname "$0")/tap.sh"
cluster=$(mkdir -p "$build" && cd "$build" && pwd)/slurm-test-cluster
trap 'make -s slurm-stop SLURM_DIR="$cluster" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# merge.sh alone, on task records planted as Slurm leaves them: which word
# wins where two are left. A task killed at its time limit may still write
# its exit file (143: the grader died of Slurm's SIGTERM first).
merge_case() { # NAME EXIT-FILE-LINE-OR-EMPTY SLURM-OUT-LINE SCORES(0/1)
    local i=${#planted[@]}
    planted+=("$1")
    printf '%s\0%s\0' "$1" "/nowhere/$1" >>"$tmp/m/list"
    [ -z "$2" ] || printf '%s %s\n' "$1" "$2" >"$tmp/m/slurm/9_$i.exit"
    printf 'tilelab: grading %s\n%s\n' "$1" "$3" >"$tmp/m/slurm/9_$i.out"
    [ "$4" = 0 ] || { mkdir -p "$tmp/m/$1"; printf '1\t10.00\t10.00\n' >"$tmp/m/$1/scores.tsv"; }
}
planted=()
mkdir -p "$tmp/m/slurm" && : >"$tmp/m/list"
merge_case late 143 'slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-11-24T10:00:00 DUE TO TIME LIMIT ***' 1
merge_case killed '' 'slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-11-24T10:00:00 DUE TO TIME LIMIT ***' 0
merge_case cancelled '' 'slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-11-24T10:00:00 ***' 0
merge_case failed 2 '' 1
merge_case lost '' '' 0
for name in "${planted[@]}"; do printf '%s\0%s\0' "$name" "$name.tar.gz"; done >"$tmp/m/class"
make -s "$build/grade-report" >/dev/null
TOOLS=$root/$build WEIGHTS=labs/grading.conf harness/grade/slurm/merge.sh \
    "$tmp/m/list" "$tmp/m/class" "$tmp/m" 9 00:01:00 >"$tmp/m.log" 2>&1
# NAME|STATUS|DETAILS: status.txt holds the gradebook's status, a tab, and details that start so.
for want in 'late|timed out|Slurm task 9_0 ran past its time limit' 'killed|timed out|Slurm task 9_1 ' \
            'cancelled|not graded|Slurm task 9_2 was cancelled' \
            'failed|not graded|the grader stopped with exit status 2' 'lost|not graded|Slurm task 9_4 ended without a result'; do
    IFS='|' read -r name status details <<<"$want"
    IFS=$'\t' read -r got_status got_details <"$tmp/m/$name/status.txt" 2>/dev/null
    if [ "${got_status:-}" = "$status" ] && [ "${got_details#"$details"}" != "${got_details:-}" ] && [ ! -f "$tmp/m/$name/scores.tsv" ]; then
        ok "merge.sh, planted: $name reads '$status: $details...', its scores dropped"
    else
        not_ok "merge.sh, planted: $name should read '$status: $details...'" "$tmp/m.log"
    fi
    got_status= got_details=
done
if grep -qxF 'lost,lost.tar.gz,,0.00,not graded,"Slurm task 9_4 ended without a result (a node lost, or out of memory? see slurm/9_4.out)"' "$tmp/m/gradebook.csv"; then
    ok "merge.sh: each row names what its hand-in was handed in as (the class file), even where no result came"
else
    not_ok "merge.sh: the lost hand-in's row, named as handed in" "$tmp/m/gradebook.csv"
fi

# Through a pipe, as a person runs it (make slurm-start | tail): a daemon holding the
# pipe would keep the reader waiting for ever; timeout would end it, and the start fail.
timeout 300 bash -c 'set -o pipefail; make -s slurm-start SLURM_DIR="$1" 2>&1 | cat' _ "$cluster" >"$tmp/start.log" 2>&1
started=$?
if [ "$started" -eq 124 ]; then
    not_ok "make slurm-start | cat never returned: a daemon holds the pipe" "$tmp/start.log"
    tap_plan
    exit 0
elif [ "$started" -ne 0 ]; then
    why=$(sed -n 's/^slurm: the cluster of one node cannot start here: //p' "$tmp/start.log")
    echo "# the Slurm daemons cannot start here: ${why:-$(tail -n 1 "$tmp/start.log")}"
    n=$((n + 1))
    echo "ok $n # SKIP a Slurm cluster of one node cannot start here: ${why:-see above}"
    tap_plan
    exit 0
fi
export SLURM_CONF=$cluster/slurm.conf
if grep -qxF "  make grade-all SUBMISSIONS=handins/ SCHEDULER=slurm WAIT=1 SLURM_CONF=$SLURM_CONF" "$tmp/start.log" &&
    [ "$(wc -l <"$cluster/daemons.pids")" = 3 ]; then
    ok "make slurm-start starts a Slurm cluster of one node here (munged, slurmctld, slurmd) and says how to grade on it"
else
    not_ok "make slurm-start" "$tmp/start.log"
fi
make -s slurm-start SLURM_DIR="$cluster" >"$tmp/again.log" 2>&1
check "... started again, it says it runs already and starts nothing more" \
    sh -c "grep -q 'runs in $cluster already' '$tmp/again.log' && [ \$(wc -l <'$cluster/daemons.pids') = 3 ]"

# A class: honest work as a folder and as an archive, a hand-in that does not
# build, one with a lab missing, and a hostile one that tries to rewrite
# another student's scores and to leave a process behind.
labs="01 03"
pwned=$tmp/pwned
class=$tmp/class
mkdir -p "$class/alice/labs" "$class/broken/labs/01-cpu-naive" "$class/partial/labs" "$class/mallory/labs/01-cpu-naive"
cp -r solutions/01-cpu-naive solutions/03-gpu-naive "$class/alice/labs/"
tar -czf "$class/bob.tar.gz" -C "$class/alice" labs
echo 'not C at all(' >"$class/broken/labs/01-cpu-naive/transpose.c"
tar -cf "$class/broken.tar" -C "$class/broken" labs && rm -r "$class/broken"
cp -r solutions/01-cpu-naive "$class/partial/labs/"
cat >"$class/mallory/labs/01-cpu-naive/transpose.c" <<HOSTILE
#include "lab.h"
#include <stdio.h>
#include <stddef.h>
#include <unistd.h>
__attribute__((constructor)) static void early(void)
{
    FILE *f = fopen("$tmp/slurm-out/alice/scores.tsv", "w");
    if (f) fputs("1 0.00 10.00\n", f), fclose(f);
    if (fork() == 0) {
        setsid();
        for (;;) {
            f = fopen("$pwned", "w");
            if (f) fputs("daemon", f), fclose(f);
            sleep(1);
        }
    }
}
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
HOSTILE

# grade_all OUT [NAME=VALUE...]: make grade-all of the class into OUT; its output in $log
grade_all() {
    local out=$1
    shift
    log=$tmp/$(basename "$out").log
    make -s grade-all LABS="$labs" SUBMISSIONS="$class" GRADE_DIR="$out" "$@" >"$log" 2>&1
}
# expect WHAT PATTERN FILE: FILE matches the pattern (grep -E)
expect() {
    if grep -qE -- "$2" "$3"; then ok "$1"; else not_ok "$1 (no /$2/ in $3)" "$3"; fi
}

start=$SECONDS
grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=1
slurm_book=$tmp/slurm-out/gradebook.csv
took=$((SECONDS - start))
expect "grade-all SCHEDULER=slurm submits one job array and a gradebook job, and says their ids" \
    "submitted 5 of 5 hand-ins to Slurm: job array [0-9]+ \(one task a hand-in\), gradebook job [0-9]+" "$log"
expect "... WAIT=1 shows progress: done, running, waiting and failed tasks" \
    "^slurm: [0-4] of 5 done, [0-9] running, [0-9] waiting, 0 failed$" "$log"
expect "... until every task is done" "^slurm: 5 of 5 done, 0 running, 0 waiting, 0 failed$" "$log"
expect "... each hand-in is said as it lands, with its points and status" "^alice: 20.00 of 20.00 points, graded: .*/slurm-out/alice/summary.txt$" "$log"
expect "... and the gradebook is merged by the job that waits for the array, with its end report" "^gradebook: .*/slurm-out/gradebook.csv: 5 hand-ins, 4 graded, 1 to look at:$" "$log"
expect "... honest work gets every point, beside a hostile hand-in" "^alice,alice,10.00,10.00,20.00,20.00,graded,$" "$slurm_book"
expect "... as an archive too" "^bob,bob.tar.gz,10.00,10.00,20.00,20.00,graded,$" "$slurm_book"
expect "... a lab that does not build is graded 0, the one left out an empty cell, and the status says both" \
    "^broken,broken.tar,0.00,,0.00,20.00,build failed,lab 1: did not build; lab 3: not handed in$" "$slurm_book"
expect "... a lab left out is an empty cell, never 0" "^partial,partial,10.00,,10.00,20.00,graded,lab 3: not handed in$" "$slurm_book"

start=$SECONDS
grade_all "$tmp/local-out"
if cmp -s "$slurm_book" "$tmp/local-out/gradebook.csv"; then
    ok "the gradebook from Slurm is the one grade-all writes on this machine, byte for byte (Slurm ${took}s, here $((SECONDS - start))s)"
else
    diff "$slurm_book" "$tmp/local-out/gradebook.csv" >"$tmp/diff" 2>&1
    not_ok "the gradebook from Slurm differs from grade-all's here" "$tmp/diff"
fi
sleep 2
if [ -e "$pwned" ]; then not_ok "the hostile hand-in left a process behind on the node" /dev/null; else ok "... and no process of the hostile hand-in outlived its sandbox"; fi

grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=1
expect "submitting again when every hand-in has a result submits nothing, and merges the gradebook" \
    "every hand-in in .* has a result already: nothing to submit" "$log"

# A late hand-in, copied in with the time it was handed in (cp -p, tar, unzip, an LMS's
# download), older than the results: its bytes are new, and it is graded again. By the
# files' times it once kept the first hand-in's grade, "nothing to submit" (instructor17).
stamp=$(stat -c %Y "$class/bob.tar.gz")
tar -czf "$class/bob.tar.gz" -C "$class/partial" labs
touch -d "@$((stamp - 3600))" "$class/bob.tar.gz"
grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=1
expect "a late hand-in whose file is older than its result, its bytes new, is graded again" "submitted 1 of 5 hand-ins to Slurm" "$log"
expect "... and its row is the late hand-in's" "^bob,bob.tar.gz,10.00,,10.00,20.00,graded,lab 3: not handed in$" "$slurm_book"
touch "$class/alice/labs/01-cpu-naive/transpose.c"
grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=1
expect "... while a file touched, its bytes the same, is not graded again" "every hand-in in .* has a result already: nothing to submit" "$log"

# A hand-in whose calls wait forever, graded with a Slurm time limit shorter
# than its tests' own limits together. It sleeps rather than spins: the
# suites end a call that spins at once (tests/tl_test.h's watch on its CPU
# time), while one that waits runs to each test's limit on the clock.
mkdir -p "$class/sleeper/labs/01-cpu-naive"
printf '#include <unistd.h>\n#include "lab.h"\nvoid transpose(float *out, const float *in, int rows, int cols)\n{ (void)out; (void)in; (void)rows; (void)cols; for (;;) sleep(60); }\n' \
    >"$class/sleeper/labs/01-cpu-naive/transpose.c"
cp "$slurm_book" "$tmp/before.csv"
grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=2 TIME=00:01:00
expect "submitting again grades only the hand-in that has no result" "submitted 1 of 6 hand-ins to Slurm" "$log"
expect "... a task past its time limit counts as failed in the progress" "^slurm: 0 of 1 done, 0 running, 0 waiting, 1 failed$" "$log"
expect "... and is said at the end" "^  sleeper: timed out: Slurm task" "$log"
# (its first test, past Criterion's clock, was run again alone before the task's end: a flag)
expect "... the gradebook says it timed out, with empty cells, never a silent 0" \
    '^sleeper,sleeper,,,,20.00,timed out,Slurm task [0-9]+_0 ran past its time limit \(00:01:00; TIME= sets it\)(; flagged: [0-9]+ \(flags\.txt\))?$' "$slurm_book"
if [ "$(grep -v '^sleeper,' "$slurm_book")" = "$(cat "$tmp/before.csv")" ]; then
    ok "... and every other row is the one graded before"
else
    not_ok "the rows graded before changed" "$slurm_book"
fi

# A result graded for another assignment is no result for this one: the class submitted
# again for lab 1 alone grades every hand-in again (once, each kept its labs 1 and 3 and the
# gradebook merged them: "nothing to submit"), and its gradebook has lab 1's column alone.
rm -rf "$class/sleeper" "$tmp/slurm-out/sleeper"
# With a partition and an account, as INSTRUCTORS.md's command gives them: the jobs ran in
# them (Slurm keeps a finished job's record for MinJobAge, 300 s unless set).
grade_all "$tmp/slurm-out" SCHEDULER=slurm WAIT=1 POLL=1 LABS=01 PARTITION=grading ACCOUNT=cs418
expect "submitting again for other labs grades every hand-in again" "submitted 5 of 5 hand-ins to Slurm" "$log"
expect "... and its gradebook has the labs asked for" "^student,handed in as,lab1,total,max,status,details$" "$slurm_book"
array=$(sed -n 's/.*job array \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
scontrol show job "${array:-none}" >"$tmp/job.txt" 2>&1
if [ -n "$array" ] && grep -q 'Partition=grading' "$tmp/job.txt" && grep -q 'Account=cs418' "$tmp/job.txt"; then
    ok "... in the partition and with the account PARTITION= and ACCOUNT= name (job array $array)"
else
    not_ok "PARTITION=grading ACCOUNT=cs418: job array '${array:-none}' ran elsewhere" "$tmp/job.txt"
fi

# ... and so is one graded for other points: the assignment a result is kept with names the
# weights' checksum (an instructor who changed labs/grading.conf once got "nothing to submit",
# and the old points).
# shellcheck disable=SC2034 # assignment.sh's assignment reads them
assigned() { (labs=(01) HIDDEN='' BACKEND=emu WEIGHTS=$1 && . harness/grade/assignment.sh && assignment); }
sed 's/^1 .*/1      7            0          3            0.50     0.90/' labs/grading.conf >"$tmp/other-points.conf"
if ! cmp -s labs/grading.conf "$tmp/other-points.conf" && [ "$(assigned labs/grading.conf)" != "$(assigned "$tmp/other-points.conf")" ] &&
    [ "$(assigned labs/grading.conf | grep '^points ')" = "$(grep '^points ' "$tmp/slurm-out/alice/assignment.txt" 2>/dev/null)" ]; then
    ok "a result graded under other points is graded again: its kept assignment names the weights' checksum"
else
    not_ok "the assignment kept with a result does not tell other points apart" "$tmp/other-points.conf"
fi

mapfile -t pids <"$cluster/daemons.pids"
make -s slurm-stop SLURM_DIR="$cluster" >"$tmp/stop.log" 2>&1
alive=0
for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); done
if [ "$alive" -eq 0 ] && [ "$(cat "$tmp/stop.log")" = "slurm: the cluster of one node in $cluster is stopped" ]; then
    ok "make slurm-stop stops every daemon make slurm-start started (${#pids[@]})"
else
    not_ok "$alive daemons still run" "$tmp/stop.log"
fi
tap_plan
