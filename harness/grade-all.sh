#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS_DIR OUT_DIR
#
# Grades every hand-in in SUBMISSIONS_DIR (.tar.gz files or folders) with
# grade.sh, several at a time, and writes OUT_DIR/gradebook.csv: one row per
# student, one column per lab. One broken hand-in never stops the others.
# Counts from the emulator and from cache simulation are the same however
# busy the machine is, so they run in parallel; timings on a GPU do not:
# they are left to a second pass that runs one hand-in at a time.
set -u
dir=$1 out=$2
mkdir -p "$out"
jobs=$(nproc 2>/dev/null || echo 2)
list=$(find "$dir" -mindepth 1 -maxdepth 1 \( -name '*.tar.gz' -o -name '*.tgz' -o -type d \) | sort)
[ -n "$list" ] || { echo "grade-all: no hand-ins (.tar.gz or folders) in $dir" >&2; exit 2; }

perf=all
[ "$BACKEND" != cuda ] || perf=gpu-later
printf '%s\n' "$list" | PERF=$perf xargs -d '\n' -P "$jobs" -I{} sh -c \
    'harness/grade.sh "$1" "$2" >/dev/null 2>"$2/.$(basename "$1").log" || echo "grade-all: $1 failed: see $2/.$(basename "$1").log" >&2' \
    sh {} "$out"
if [ "$perf" = gpu-later ]; then
    printf '%s\n' "$list" | while read -r sub; do PERF=only harness/grade.sh "$sub" "$out" >/dev/null; done
fi

labs=$(for spec in $LAB_SPEC; do echo $((10#${spec%%:*})); done)
{
    printf 'student'
    for l in $labs; do printf ',lab%s' "$l"; done
    printf ',total,max\n'
    printf '%s\n' "$list" | while read -r sub; do
        name=$(basename "$sub"); name=${name%.tar.gz}; name=${name%.tgz}
        scores=$out/$name/scores.tsv
        printf '%s' "$name"
        total=0 max=0
        for l in $labs; do
            s=$(awk -F'\t' -v l="$l" '$1 == l { print $2 }' "$scores" 2>/dev/null)
            m=$(awk -F'\t' -v l="$l" '$1 == l { print $3 }' "$scores" 2>/dev/null)
            printf ',%s' "${s:-0}"
            total=$(awk -v a="$total" -v b="${s:-0}" 'BEGIN { print a + b }')
            max=$(awk -v a="$max" -v b="${m:-0}" 'BEGIN { print a + b }')
        done
        printf ',%s,%s\n' "$total" "$max"
    done
} >"$out/gradebook.csv"
echo "graded $(printf '%s\n' "$list" | wc -l) hand-ins: $out/gradebook.csv"
