#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS_DIR OUT_DIR
#
# Grades every hand-in in SUBMISSIONS_DIR (.tar.gz, .tgz and .tar files, and
# folders) with grade.sh, several at a time, and writes OUT_DIR/gradebook.csv:
# one row per student, one column per lab (grade-report writes it). One
# broken or hostile hand-in never stops the others or touches their results.
# Each hand-in's name is its file's without the suffix, or its folder's;
# names made of other characters than letters, digits, . _ - are changed,
# and two hand-ins of one name (bob.tar.gz, bob.tgz) become bob and bob-2:
# each change is said. Counts from the emulator and from cache simulation
# are the same however busy the machine is, so they run in parallel;
# timings on a GPU do not: a second pass runs them one hand-in at a time.
set -u
dir=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
: "${WEIGHTS:?} ${TOOLS:?}"
jobs=$(nproc 2>/dev/null || echo 2)

declare -A taken=([gradebook.csv]=1 [logs]=1)
paths=() names=()
while IFS= read -r -d '' path; do
    base=$(basename "$path")
    if [ -d "$path" ]; then
        name=$base
    else
        case "$base" in
        *.tar.gz) name=${base%.tar.gz} ;;
        *.tgz) name=${base%.tgz} ;;
        *.tar) name=${base%.tar} ;;
        *) echo "grade-all: $base is not a hand-in (.tar.gz, .tgz, .tar or a folder): skipped" >&2; continue ;;
        esac
    fi
    safe=$(printf '%s' "$name" | LC_ALL=C tr -c 'A-Za-z0-9._-' '_')
    safe=${safe#.}; safe=${safe:-handin}
    unique=$safe k=2
    while [ -n "${taken[$unique]:-}" ]; do unique=$safe-$k; k=$((k + 1)); done
    taken[$unique]=1
    [ "$unique" = "$name" ] || echo "grade-all: $base is graded as '$unique'" >&2
    paths+=("$path") names+=("$unique")
done < <(find "$dir" -mindepth 1 -maxdepth 1 -print0 | sort -z)
[ ${#paths[@]} -gt 0 ] || { echo "grade-all: no hand-ins (.tar.gz, .tgz, .tar or folders) in $dir" >&2; exit 2; }

. harness/held-back.sh
read_held_back "${HIDDEN:-}" || exit 2
mkdir -p "$out/logs"
perf=all
[ "$BACKEND" != cuda ] || perf=gpu-later
for i in "${!paths[@]}"; do printf '%s\0%s\0' "${paths[$i]}" "${names[$i]}"; done |
    PERF=$perf xargs -0 -n 2 -P "$jobs" sh -c \
        'harness/grade.sh "$2" "$1" "$3" >/dev/null 2>"$1/logs/$3.log" || echo "grade-all: $3 failed: see $1/logs/$3.log" >&2' \
        sh "$out"
if [ "$perf" = gpu-later ]; then
    for i in "${!paths[@]}"; do
        PERF=only harness/grade.sh "${paths[$i]}" "$out" "${names[$i]}" >/dev/null 2>>"$out/logs/${names[$i]}.log"
    done
fi
book=()
for name in "${names[@]}"; do book+=("$name" "$out/$name"); done
"$TOOLS/grade-report" gradebook "$WEIGHTS" "$out/gradebook.csv" "${book[@]}"
echo "graded ${#paths[@]} hand-ins: $out/gradebook.csv"
