#!/usr/bin/env bash
# merge.sh LIST CLASS OUT_DIR ARRAY TIME: the job that runs once grade-slurm.sh's
# array ARRAY has ended, however its tasks ended (afterany). A task that wrote
# no exit file, or whose grader failed, gets OUT_DIR/NAME/status.txt saying
# so, and grade-report's gradebook shows that in the row's status column
# instead of zeros. Then the gradebook of the whole class (CLASS: each
# hand-in's name and what it was handed in as, NUL after each) is merged from every hand-in's results, old and new.
set -u
list=$1 class=$2 out=$3 array=$4 time=$5
. harness/grade/handins.sh

i=0
while IFS= read -r -d '' name && IFS= read -r -d '' _; do
    exit_file=$out/slurm/${array}_$i.exit task_out=$out/slurm/${array}_$i.out
    why=
    # Slurm's own word comes first: a task killed at its time limit can still
    # write its exit file (the grader dies of the SIGTERM, 143, and the task
    # outlives it for a moment), and that must read as timed out, not failed.
    # (STATUS<tab>DETAILS, as the gradebook's two last columns say it.)
    if grep -q 'DUE TO TIME LIMIT' "$task_out" 2>/dev/null; then
        why="timed out	Slurm task ${array}_$i ran past its time limit ($time; TIME= sets it)"
    elif grep -q 'CANCELLED' "$task_out" 2>/dev/null; then
        why="not graded	Slurm task ${array}_$i was cancelled before it ended (see slurm/${array}_$i.out)"
    elif [ -f "$exit_file" ]; then
        read -r _ status <"$exit_file"
        if [ "$status" != 0 ] || [ ! -f "$out/$name/scores.tsv" ]; then
            why="not graded	the grader stopped with exit status $status in Slurm task ${array}_$i (see logs/$name.log)"
        fi
    else
        why="not graded	Slurm task ${array}_$i ended without a result (a node lost, or out of memory? see slurm/${array}_$i.out)"
    fi
    if [ -n "$why" ]; then
        # The grader's partial record stays for the instructor to read, but
        # its scores, if any, are no result.
        mkdir -p "$out/$name"
        rm -f "$out/$name/scores.tsv"
        printf '%s\n' "$why" >"$out/$name/status.txt"
        echo "$name: ${why/	/: }"
    fi
    i=$((i + 1))
done <"$list"

names=() handed=()
while IFS= read -r -d '' name && IFS= read -r -d '' as; do names+=("$name") handed+=("$as"); done <"$class"
merge_gradebook "$out"
