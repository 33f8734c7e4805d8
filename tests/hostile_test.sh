#!/usr/bin/env bash
# hostile_test.sh OUT_DIR   (make check runs it on this machine's backend; make hostile too)
#
# The public catalogue of leaderboard cheats, as hand-ins: every file of
# tests/hostile/ (.cu for a GPU lab, .c for a CPU lab) whose header names its
# honest control ("control: FILE", a file of tests/hostile/honest/ of the
# same effort) is handed in as its lab's file, beside its control, and the
# class is graded at once (make grade-all).
# Each hostile hand-in must score no more than its control in its lab. On a
# GPU the performance points come from a clock: two kernels of the same speed
# differ there by the timing's spread, which SPREAD (a share of the ratio,
# 0.02 unless told) grants in points; the emulator's counts have no spread.
# With REFERENCES=1 the references are handed in too and must score full
# marks (make hostile: the record of a GPU run). HOSTILE=PATTERN grades the
# files whose names match it alone (HOSTILE='lab0[4-6]-*').
#
# Writes OUT_DIR/hostile.csv (hand_in,lab,score,max,control,control_score,
# verdict), whose header names the machine, and prints TAP.
source "$(dirname "$0")/tap.sh"
out=$(mkdir -p "$1" && cd "$1" && pwd)
class=$tmp/class
mkdir -p "$class"

# The kit's labs: their numbers in all_labs, their fields in lab_dir, lab_file, lab_kind.
kit_labs || not_ok "the table of labs"
all_labs=("${labs[@]}")
hand_in() { # NAME LAB SOURCE: a hand-in of one lab's file
    local dir=${lab_dir[$2]-} file=${lab_file[$2]-}
    mkdir -p "$class/$1/labs/$dir"
    cp "$3" "$class/$1/labs/$dir/$file"
}

labs=() names=() controls=()
for f in tests/hostile/${HOSTILE:-lab[0-9][0-9]-*}.{c,cu}; do
    [ -f "$f" ] || continue
    control=$(sed -n 's/^ \* control: *//p' "$f" | head -n 1)
    [ -n "$control" ] || continue
    name=$(basename "$f") && name=${name%.*} && lab=${name:3:2}
    [ -f "tests/hostile/honest/$control" ] || { not_ok "$name: its control tests/hostile/honest/$control is not there"; continue; }
    hand_in "$name" "$lab" "$f"
    hand_in "honest-${control%.*}-lab$lab" "$lab" "tests/hostile/honest/$control"
    names+=("$name") controls+=("honest-${control%.*}-lab$lab")
    [[ " ${labs[*]} " == *" $lab "* ]] || labs+=("$lab")
done
if [ -n "${REFERENCES:-}" ]; then
    for lab in "${all_labs[@]}"; do
        [ "${lab_kind[$lab]}" = gpu ] || continue
        hand_in references "$lab" "solutions/${lab_dir[$lab]}/${lab_file[$lab]}"
        [[ " ${labs[*]} " == *" $lab "* ]] || labs+=("$lab")
    done
fi

make -s grade-all B="$build" LABS="${labs[*]}" SUBMISSIONS="$class" GRADE_DIR="$out/grade" >"$out/grade-all.log" 2>&1
book=$out/grade/gradebook.csv
[ -s "$book" ] || { not_ok "grade-all wrote no gradebook" "$out/grade-all.log"; tap_plan; exit 0; }

# field NAME COLUMN: the hand-in's cell in that column of the gradebook, read by its header
field() {
    awk -F, -v who="$1" -v col="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $1 == who && (col in at) { print $(at[col]) }' "$book"
}
# score NAME LAB: the hand-in's points in that lab (empty when it was not graded)
score() { field "$1" "lab$((10#$2))"; }
max_of() { awk -v l="$((10#$1))" '$1 == l { print $2 + $3 + $4 }' labs/grading.conf; }
correctness_of() { awk -v l="$((10#$1))" '$1 == l { print $2 }' labs/grading.conf; }
# spread_of LAB: the performance points a timing's spread (SPREAD of the ratio) is worth, on a GPU
spread_of() {
    nvidia-smi -L >/dev/null 2>&1 || { echo 0; return; }
    awk -v l="$((10#$1))" -v s="${SPREAD:-0.02}" '$1 == l { printf "%.2f", $4 * s / ($6 - $5) }' labs/grading.conf
}

{
    echo "# tilelab hostile hand-ins, each beside an honest control of the same effort (tests/hostile_test.sh)"
    echo "# machine: $(nvidia-smi -L 2>/dev/null | head -n 1 | sed 's/ (UUID.*//' | grep . || echo "no GPU: the CPU emulator")"
    echo "# date: $(date -u +%Y-%m-%dT%H:%MZ); commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "hand_in,lab,score,max,control,control_score,verdict"
} >"$out/hostile.csv"
# An honest control is correct code: unless it earns its lab's correctness
# points, "at most the control's score" proves nothing.
declare -A control_seen
for i in "${!names[@]}"; do
    control=${controls[i]} lab=${names[i]:3:2}
    [ -z "${control_seen[$control]:-}" ] || continue
    control_seen[$control]=1
    c=$(score "$control" "$lab") need=$(correctness_of "$lab")
    if [ -n "$c" ] && awk -v c="$c" -v n="$need" 'BEGIN { exit !(c + 0.005 >= n) }'; then
        ok "the honest control $control earns at least lab $((10#$lab))'s $need correctness points ($c)"
    else
        not_ok "the honest control $control scores '${c:-not graded}' in lab $((10#$lab)), less than its $need correctness points: the comparisons with it say nothing" \
            "$out/grade/$control/summary.txt"
    fi
done
for i in "${!names[@]}"; do
    name=${names[i]} control=${controls[i]} lab=${names[i]:3:2}
    s=$(score "$name" "$lab") c=$(score "$control" "$lab") max=$(max_of "$lab") spread=$(spread_of "$lab")
    if [ -n "$s" ] && [ -n "$c" ] && awk -v s="$s" -v c="$c" -v d="$spread" 'BEGIN { exit !(s <= c + d + 0.005) }'; then
        verdict=ok
        ok "$name scores $s of $max in lab $((10#$lab)), at most its honest control's $c ($control)$(awk -v d="$spread" 'BEGIN { if (d > 0) printf ", or %.2f more: the timing'"'"'s spread", d }')"
    else
        verdict=MORE
        not_ok "$name scores '${s:-not graded}' of $max in lab $((10#$lab)), its honest control '${c:-not graded}' ($control)" \
            "$out/grade/$name/summary.txt"
    fi
    echo "$name,$((10#$lab)),$s,$max,$control,$c,$verdict" >>"$out/hostile.csv"
done
if [ -n "${REFERENCES:-}" ]; then
    total=$(field references total)/$(field references max)
    if [[ $total =~ ^[0-9.]+/[0-9.]+$ ]] && awk -v t="$total" 'BEGIN { split(t, p, "/"); exit !(p[2] > 0 && p[1] + 0.005 >= p[2]) }'; then
        ok "the references handed in score full marks: $total"
    else
        not_ok "the references handed in score ${total:-nothing}" "$out/grade/references/summary.txt"
    fi
    echo "references,all,${total%/*},${total#*/},-,-,$([ "${total%/*}" = "${total#*/}" ] && echo full || echo LESS)" >>"$out/hostile.csv"
fi
echo "# wrote $out/hostile.csv"
tap_plan
