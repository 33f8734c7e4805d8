#!/usr/bin/env bash
# wait.sh LIST OUT_DIR ARRAY MERGE POLL: waits for grade-slurm.sh's job array
# ARRAY and its gradebook job MERGE to leave the queue, saying on one line a
# change how many tasks are done, running, waiting and failed. squeue shows
# what is queued or running; what has ended is read from the exit files the
# tasks write themselves (task.sh), so no accounting database is needed;
# each hand-in graded is said as it lands, with its points and status.
# Then prints the gradebook's end report (grade_book.c).
set -u
list=$1 out=$2 array=$3 merge=$4 poll=$5
total=$(tr -cd '\0' <"$list" | wc -c)
total=$((total / 2))

progress() {
    local running pending done=0 failed=0 f status
    running=$(squeue -h -r -j "$array" -t RUNNING,COMPLETING -o %i 2>/dev/null | wc -l)
    pending=$(squeue -h -r -j "$array" -t PENDING,CONFIGURING -o %i 2>/dev/null | wc -l)
    for f in "$out/slurm/${array}"_*.exit; do
        [ -f "$f" ] || continue
        read -r _ status <"$f"
        if [ "$status" = 0 ]; then done=$((done + 1)); else failed=$((failed + 1)); fi
    done
    # A task that left the queue without an exit file was killed: failed.
    local gone=$((total - done - failed - running - pending))
    [ "$gone" -le 0 ] || failed=$((failed + gone))
    echo "slurm: $done of $total done, $running running, $pending waiting, $failed failed"
}

# landed: each hand-in graded since the last look, with its points and status (its log's last line).
declare -A said=()
landed() {
    local f name status
    for f in "$out/slurm/${array}"_*.exit; do
        [ -f "$f" ] && [ -z "${said[$f]:-}" ] || continue
        said[$f]=1
        read -r name status <"$f"
        if [ "$status" = 0 ]; then tail -n 1 "$out/logs/$name.log"; else echo "$name: the grader failed (exit status $status): see $out/logs/$name.log"; fi
    done
}

queued() { squeue -h -j "$array,$merge" -o %i 2>/dev/null | grep -q .; }

last=
while queued; do
    landed
    now=$(progress)
    [ "$now" = "$last" ] || { echo "$now"; last=$now; }
    sleep "$poll"
done
landed
now=$(progress)
[ "$now" = "$last" ] || echo "$now"
if [ ! -f "$out/gradebook.csv" ] || [ "$out/gradebook.csv" -ot "$list" ]; then
    echo "grade-all: the gradebook job $merge ended without writing $out/gradebook.csv: see $out/slurm/$merge.out" >&2
    exit 1
fi
# The end report the gradebook job wrote: every hand-in not simply graded, what the grading met.
cat "$out/anomalies.txt"
