#!/usr/bin/env bash
# wait.sh LIST OUT_DIR ARRAY MERGE POLL: waits for grade-slurm.sh's job array
# ARRAY and its gradebook job MERGE to leave the queue, saying on one line a
# change how many tasks are done, running, waiting and failed. squeue shows
# what is queued or running; what has ended is read from the exit files the
# tasks write themselves (task.sh), so no accounting database is needed.
# Then prints the gradebook's rows that were not graded.
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

queued() { squeue -h -j "$array,$merge" -o %i 2>/dev/null | grep -q .; }

last=
while queued; do
    now=$(progress)
    [ "$now" = "$last" ] || { echo "$now"; last=$now; }
    sleep "$poll"
done
now=$(progress)
[ "$now" = "$last" ] || echo "$now"
if [ ! -f "$out/gradebook.csv" ] || [ "$out/gradebook.csv" -ot "$list" ]; then
    echo "grade-all: the gradebook job $merge ended without writing $out/gradebook.csv: see $out/slurm/$merge.out" >&2
    exit 1
fi
echo "gradebook: $out/gradebook.csv"
ungraded=$(sed 1d "$out/gradebook.csv" | grep -v ',graded$')
if [ -n "$ungraded" ]; then
    printf '%s\n' "$ungraded" | sed 's/^/  not graded: /'
    echo "  ($(printf '%s\n' "$ungraded" | wc -l) hand-ins have no result: submit again to grade only those)"
fi
