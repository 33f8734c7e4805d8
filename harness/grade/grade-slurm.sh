#!/usr/bin/env bash
# grade-slurm.sh SUBMISSIONS_DIR OUT_DIR
#
# grade-all on a Slurm cluster: one job array, one task per hand-in that has
# no result yet, each task running harness/grade/grade.sh exactly as grade-all
# does (harness/grade/slurm/task.sh), then a job that waits for the whole array
# (afterany) and merges OUT_DIR/gradebook.csv (harness/grade/slurm/merge.sh). The
# kit and OUT_DIR must be on a file system the nodes share, as the cluster's
# home or project folders are. In the environment, besides grade.sh's:
#
#   PARTITION ACCOUNT   sbatch's --partition and --account, when given
#   TIME                each task's time limit (sbatch --time), 01:00:00
#   GRES                a task's generic resources: gpu:1 by default when GPU
#                       labs are graded on a GPU (BACKEND=cuda) and the
#                       partition has GPUs; "none" asks for none
#   SBATCH_EXTRA        anything else for sbatch (--qos=..., --mem=4G)
#   WAIT                1: wait for the gradebook, with progress
#   POLL                seconds between two looks at the queue when waiting (10)
#
# sbatch, squeue and sinfo read the cluster's slurm.conf, or SLURM_CONF.
# A hand-in has a result when OUT_DIR/NAME/scores.tsv was graded from its bytes as they
# are now, for this assignment (the same labs, held-back cases and GPU labs' backend:
# OUT_DIR/NAME/assignment.txt, assignment.sh), whatever the files' times say (a late
# hand-in copied in with its own, older time): submitting again grades only the others
# (rm -r OUT_DIR/NAME to grade one again).
set -u
dir=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
: "${WEIGHTS:?} ${TOOLS:?} ${LABS_TSV:?} ${BACKEND:?}"
. harness/tools/labs.sh
CSV_ROWS=$TOOLS/csv-rows labs_read "$LABS_TSV" || exit 2
TIME=${TIME:-01:00:00} WAIT=${WAIT:-} POLL=${POLL:-10}
root=$(pwd)

for tool in sbatch squeue sinfo; do
    command -v "$tool" >/dev/null || {
        echo "grade-all: SCHEDULER=slurm needs Slurm's $tool on this machine (Debian: apt-get install slurm-client)" >&2
        exit 2
    }
done
# An earlier submission of this kit still queued would grade the same
# hand-ins twice, into the same folders.
earlier=$(squeue -h -u "$(id -un)" -n tilelab-grade,tilelab-gradebook -o '%i %Z' 2>/dev/null |
    awk -v root="$root" '$2 == root { print $1 }' | sort -u | tr '\n' ' ')
if [ -n "$earlier" ]; then
    echo "grade-all: jobs of an earlier submission are still queued or running ($earlier): wait for them, or scancel them, before submitting again" >&2
    exit 1
fi
. harness/grade/handins.sh
. harness/grade/assignment.sh
list_handins "$dir" || exit 2
[ -z "${HIDDEN:-}" ] || "$TOOLS/grade-held-back" "$HIDDEN" || exit 2

# The hand-ins without a result, and the list each task reads its own from:
# NAME, then PATH, NUL after each (a path may hold any character but NUL).
# The logs name every hand-in and its score: the grading user's alone.
mkdir -p "$out/logs" "$out/slurm" && chmod 700 "$out/logs"
stamp=$(date +%Y%m%d-%H%M%S)-$$
list=$out/slurm/$stamp.list
todo=0
: >"$list"
this=$(assignment)
for i in "${!paths[@]}"; do
    scores=$out/${names[$i]}/scores.tsv
    if [ -f "$scores" ] &&
        [ "$(cat "$out/${names[$i]}/assignment.txt" 2>/dev/null)" = "$this"$'\n'"hand-in $(handin_sum "${paths[$i]}")" ]; then
        continue
    fi
    printf '%s\0%s\0' "${names[$i]}" "${paths[$i]}" >>"$list"
    todo=$((todo + 1))
done
if [ "$todo" -eq 0 ]; then
    rm -f "$list"
    echo "grade-all: every hand-in in $dir has a result already: nothing to submit; the gradebook merged here"
    merge_gradebook "$out"
    exit 0
fi

# A GPU for each task when GPU labs are timed and the partition has one.
gres=${GRES:-}
gpu_labs=$([[ " ${lab_kind[*]} " == *" gpu "* ]] && echo 1)
if [ -z "$gres" ] && [ "$BACKEND" = cuda ] && [ -n "$gpu_labs" ] &&
    sinfo -h ${PARTITION:+-p "$PARTITION"} -o %G 2>/dev/null | grep -q gpu; then
    gres=gpu:1
fi
[ "$gres" != none ] || gres=
if [ "$BACKEND" = cuda ] && [ -n "$gpu_labs" ] && [ -z "$gres" ]; then
    echo "grade-all: WARNING: the GPU labs are graded without asking Slurm for a GPU (GRES=gpu:1 asks): a task that finds none grades them on the emulator, and says so" >&2
fi

# SBATCH_EXTRA is split at spaces on purpose: it is a list of options.
# shellcheck disable=SC2206
common=(--chdir="$root" --parsable --export=ALL ${PARTITION:+--partition="$PARTITION"}
        ${ACCOUNT:+--account="$ACCOUNT"} ${SBATCH_EXTRA:-})
# Each task times its own GPU labs: it has its node (or its GPU) to itself.
array=$(PERF=all sbatch "${common[@]}" --job-name=tilelab-grade --array=0-$((todo - 1)) \
    --ntasks=1 --cpus-per-task=1 --time="$TIME" ${gres:+--gres="$gres"} \
    --output="$out/slurm/%A_%a.out" harness/grade/slurm/task.sh "$list" "$out") || {
    echo "grade-all: sbatch refused the job array (see its message above)" >&2
    exit 1
}
for i in "${!names[@]}"; do printf '%s\0%s\0' "${names[$i]}" "${handed[$i]}"; done >"$out/slurm/$stamp.class"
array=${array%%;*}
merge=$(sbatch "${common[@]}" --job-name=tilelab-gradebook --dependency=afterany:"$array" \
    --ntasks=1 --time=00:10:00 --output="$out/slurm/%j.out" \
    harness/grade/slurm/merge.sh "$list" "$out/slurm/$stamp.class" "$out" "$array" "$TIME") || {
    echo "grade-all: sbatch refused the gradebook's job; the array $array runs: merge later with make grade-all ... SCHEDULER=slurm" >&2
    exit 1
}
merge=${merge%%;*}
echo "grade-all: submitted $todo of ${#paths[@]} hand-ins to Slurm: job array $array (one task a hand-in), gradebook job $merge"
echo "grade-all: the gradebook will be $out/gradebook.csv; follow with: squeue -j $array,$merge"
[ -n "$WAIT" ] && [ "$WAIT" != 0 ] || exit 0

exec harness/grade/slurm/wait.sh "$list" "$out" "$array" "$merge" "$POLL"
