#!/usr/bin/env bash
# tests/gpu/emulator_detect.sh OUT_DIR: run on a GPU (make grade on the GPU).
#
# Hand-ins whose host code tells the emulator from a GPU (tests/gpu/detect/detect-*.cu:
# the device's name, its attributes, CUDA events, the host's clock) and launch a padded
# tile where technique is counted (the emulator's build) and the naive kernel where it is
# timed (the GPU's), beside the honest naive kernel (honest-naive.cu) and the references,
# graded as a class on the GPU. Each detector must score no more in lab 5 than the honest
# naive kernel, its technique tests failing with what ran where; the references full marks.
# The GPU labs alone are graded (LABS=): what is asked is the GPU's.
source "$(dirname "$0")/../tap.sh"
# tap.sh moves to the folder above this script's, tests/: the kit's root is one more up.
cd .. || exit 1
out=$(mkdir -p "$1" && cd "$1" && pwd)
class=$tmp/class
for f in tests/gpu/detect/*.cu; do
    name=$(basename "$f" .cu)
    mkdir -p "$class/$name/labs/05-gpu-bank-free"
    cp "$f" "$class/$name/labs/05-gpu-bank-free/transpose.cu"
done
mkdir -p "$class/references/labs"
for d in solutions/0[3-9]-* solutions/10-*; do
    [ -d "$d" ] && cp -R "$d" "$class/references/labs/"
done
make -s grade-all B="$build" LABS="03 04 05 06 07 08 09 10" SUBMISSIONS="$class" GRADE_DIR="$out/grade" >"$out/grade-all.log" 2>&1
book=$out/grade/gradebook.csv
score() { awk -F, -v who="$1" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    $1 == who && (col in at) { print $(at[col]) }' "$book"; }
control=$(score honest-naive lab5)
for f in tests/gpu/detect/detect-*.cu; do
    name=$(basename "$f" .cu) s=$(score "$(basename "$f" .cu)" lab5)
    echo "# $name: lab 5 $s (honest naive $control); technique:"
    grep -i "technique" "$out/grade/$name/summary.txt" 2>/dev/null | head -n 4 | sed 's/^/#   /'
    if [ -n "$s" ] && [ -n "$control" ] && awk -v s="$s" -v c="$control" 'BEGIN { exit !(s <= c + 0.05) }'; then
        ok "$name scores $s in lab 5, at most the honest naive kernel's $control"
    else
        not_ok "$name scores '${s:-not graded}' in lab 5, the honest naive kernel '${control:-not graded}'" "$out/grade/$name/summary.txt"
    fi
done
total=$(score references total)/$(score references max)
echo "# references: $total"
if awk -v t="$total" 'BEGIN { split(t, p, "/"); exit !(p[2] > 0 && p[1] + 0.005 >= p[2]) }'; then
    ok "the references score full marks: $total"
else
    not_ok "the references score $total" "$out/grade/references/summary.txt"
fi
tap_plan
