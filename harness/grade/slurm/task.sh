#!/usr/bin/env bash
# task.sh LIST OUT_DIR: one task of grade-slurm.sh's job array (sbatch runs a
# copy of it, from the kit's root). It grades the hand-in at its index in
# LIST with harness/grade/grade.sh, as grade-all does, and then writes
# OUT_DIR/slurm/<array>_<index>.exit: the hand-in's name and grade.sh's exit
# status. A task that Slurm kills (its time limit, a node lost) writes none:
# merge.sh reads why from the task's own output file.
set -u
list=$1 out=$2
index=${SLURM_ARRAY_TASK_ID:?this script is a task of a Slurm job array: make grade-all SCHEDULER=slurm submits it}
name= path= i=0
while IFS= read -r -d '' n && IFS= read -r -d '' p; do
    if [ "$i" -eq "$index" ]; then name=$n path=$p; break; fi
    i=$((i + 1))
done <"$list"
[ -n "$name" ] || { echo "task $index: no hand-in at this index of $list" >&2; exit 2; }
echo "tilelab: grading $name ($path) on $(hostname)"
harness/grade/grade.sh "$path" "$out" "$name" >"$out/logs/$name.log" 2>&1
status=$?
[ "$status" -eq 0 ] || echo "tilelab: $name: the grader failed (exit $status): see $out/logs/$name.log" >&2
printf '%s %d\n' "$name" "$status" >"$out/slurm/${SLURM_ARRAY_JOB_ID}_$index.exit"
exit "$status"
