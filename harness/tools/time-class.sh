#!/usr/bin/env bash
# time-class.sh N "LABS" [OUT]: how long this machine takes to grade a class.
# Makes N hand-ins from the references (each what make handin packs: the
# reference's file of every lab in LABS, as labs/NN-name/FILE), builds the
# references (not timed: they are built once for every class), then times
# make grade-all of the N into OUT/grade (OUT: build/time-class).
#
# The grader's commands run in sandboxes whose processes a shell's `time`
# does not all count, so the CPU time said is the whole machine's over the
# same span, from /proc/stat: run it on a machine doing nothing else, or
# read it as an upper bound. Ends with the verdict that matters more than
# the time: every hand-in graded, with every point.
#
#   harness/tools/time-class.sh 20 "03 04 05 06 07 08 09"
set -u
n=${1:-} labs_given=${2:-} out=${3:-build/time-class}
[[ $n =~ ^[1-9][0-9]*$ ]] && [ -n "$labs_given" ] || {
    echo "usage: harness/tools/time-class.sh N \"LABS\" [OUT], e.g. 20 \"03 04 05 06 07 08 09\"" >&2
    exit 2
}
cd "$(dirname "$0")/../.." || exit 1
rm -rf "$out" && mkdir -p "$out/kit/labs" "$out/handins" || exit 1

# The references, as a student's labs/ folder would hold them (the kit's table of labs says where).
make -s build/labs.tsv build/csv-rows || exit 1
. harness/tools/labs.sh
labs_read build/labs.tsv || exit 1
for lab in $labs_given; do
    lab=$(printf '%02d' "$((10#${lab#lab}))")
    dir=${lab_dir[$lab]-} file=${lab_file[$lab]-}
    [ -n "$dir" ] && [ -f "solutions/$dir/$file" ] || { echo "time-class: no lab $lab with a reference" >&2; exit 2; }
    mkdir -p "$out/kit/labs/$dir"
    cp "solutions/$dir/$file" "$out/kit/labs/$dir/"
done
for i in $(seq -w 1 "$n"); do
    tar -czf "$out/handins/student$i.tar.gz" -C "$out/kit" labs
done
make -s references build/csv-rows LABS="$labs_given" || exit 1

# busy: the CPU time of the whole machine so far, in clock ticks (user, nice, system, irq, softirq)
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
ticks=$(getconf CLK_TCK)
cpu0=$(busy) start=$(date +%s.%N)
make -s grade-all LABS="$labs_given" SUBMISSIONS="$out/handins" GRADE_DIR="$out/grade"
status=$?
end=$(date +%s.%N) cpu1=$(busy)
awk -v n="$n" -v labs="$labs_given" -v start="$start" -v end="$end" -v c="$(((cpu1 - cpu0) / ticks))" -v cores="$(nproc)" \
    'BEGIN { w = end - start; printf "time-class: %d hand-ins of labs %s graded in %.0f s on the clock, %d s of CPU time (the whole machine, %d cores): %.1f s a hand-in\n", n, labs, w, c, cores, w / n }'
# Every row graded, every point: the total is the maximum (the gradebook's columns by
# name, through csv-rows: its details may hold commas, quoted).
book() { build/csv-rows "$out/grade/gradebook.csv" "$@"; }
wrong=$(book student status total max | awk -F'\t' '!($2 == "graded" && $3 == $4) { print $1 }' | tr '\n' ' ')
if [ "$status" = 0 ] && [ -z "$wrong" ]; then
    echo "time-class: all $n graded, every point ($(book total | head -1) each)"
else
    echo "time-class: NOT every hand-in got every point: ${wrong:-grade-all failed (exit $status)}"
    exit 1
fi
