#!/usr/bin/env bash
# labs/labs.mk says "add a lab here and nowhere else": this holds it to that.
# In a copy of the kit, a throwaway lab at the next free number (lab 1's
# stub, reference and suite under new names) is added to labs.mk alone, with
# no line in grading.conf, the help, the figures or the slides; then its
# suite passes the reference and fails the stub, make help lists it where it
# lists CPU labs, the table of labs (tl-labs) has its row, its bench writes
# its CSV, make plots names it, and make grade scores it, saying it used the
# default points. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

kit=$tmp/kit
copy_kit "$kit"

# The next free number, and a folder name no lab has.
kit_labs || not_ok "the table of labs"
num=$(printf '%02d' $((10#${labs[-1]} + 1)))
lab=$((10#$num)) dir=$num-cpu-scratch
mkdir -p "$kit/labs/$dir" "$kit/solutions/$dir"
cp labs/01-cpu-naive/transpose.c labs/01-cpu-naive/README.md "$kit/labs/$dir/"
cp solutions/01-cpu-naive/transpose.c "$kit/solutions/$dir/"
sed "s/lab01/lab$num/g; s/Lab 1:/Lab $lab:/" tests/lab01_test.c >"$kit/tests/lab${num}_test.c"
{
    sed "s/^LABS := .*/& $num/" labs/labs.mk
    printf '\nlab%s_dir := %s\nlab%s_kind := cpu\nlab%s_file := transpose.c\nlab%s_tunables :=\nlab%s_title := CPU scratch\n' \
        "$num" "$dir" "$num" "$num" "$num" "$num"
} >"$kit/labs/labs.mk"

kmake() { make -s -C "$kit" B=build "$@"; }

if kmake "lab$lab" test SOLUTION=1 >"$tmp/ref.log" 2>&1 && grep -q "Failing: 0" "$tmp/ref.log"; then
    ok "make lab$lab test SOLUTION=1 passes: the new lab builds and its suite passes the reference"
else
    not_ok "make lab$lab test SOLUTION=1 failed" "$tmp/ref.log"
fi
if kmake "lab$lab" test >"$tmp/stub.log" 2>&1; then
    not_ok "make lab$lab test passes the stub: its tests cannot fail" "$tmp/stub.log"
elif grep -qE "Failing: [1-9]" "$tmp/stub.log"; then
    ok "make lab$lab test fails the stub, test by test"
else
    not_ok "make lab$lab test did not run the stub's tests" "$tmp/stub.log"
fi

# The help: the lab in the list, and among the CPU labs wherever the help names them.
kmake help >"$tmp/help" 2>&1
if grep -qE "^  lab $lab +labs/$dir/transpose.c +\(CPU scratch\)" "$tmp/help"; then
    ok "make help lists lab $lab with its file and title"
else
    not_ok "make help does not list lab $lab" "$tmp/help"
fi
cpu_line=$(grep 'cachegrind' "$tmp/help")
if echo "$cpu_line" | grep -qE "labs? ([0-9]+, )*$lab\)"; then
    ok "make help counts lab $lab among the CPU labs (cachegrind)"
else
    not_ok "make help's CPU labs leave out lab $lab: $cpu_line" "$tmp/help"
fi

# The table of labs everything but the Makefile reads: the new lab's row, each field as labs.mk has it.
if kmake build/labs.tsv >"$tmp/table.log" 2>&1 &&
    [ "$("$tmp/labs/csv-rows" --where "lab=$num" "$kit/build/labs.tsv" lab dir kind op file tunables title baseline unit | cat -A)" = "$num^I$dir^Icpu^Itranspose^Itranspose.c^I^ICPU scratch^I^IGB/s\$" ]; then
    ok "the table of labs has lab $lab's row: its folder, kind, operation (the default), file, no tunables, title, no baseline, its operation's unit"
else
    not_ok "the table of labs lacks lab $lab's row, or a field of it" "$kit/build/labs.tsv"
fi

# The bench and its CSV, read by the header's names: a run of some sizes and
# repetitions writes a CSV named for them, beside the full run's labNN.csv.
csv=$kit/build/bench/lab$num-SIZES64_33x65-REPS1.csv
if kmake "lab$lab" bench SIZES=64,33x65 REPS=1 >"$tmp/bench.log" 2>&1 && [ -s "$csv" ] &&
    awk -F, -v lab="$lab" '/^#/ || !NF { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $c["lab"] == lab && $c["variant"] == "reference" && $c["rows"] "x" $c["cols"] == "33x65" { found = 1 }
        END { exit !found }' "$csv"; then
    ok "make lab$lab bench runs and writes build/bench/lab$num-SIZES64_33x65-REPS1.csv, its rows marked lab $lab"
else
    not_ok "make lab$lab bench wrote no CSV of lab $lab" "$tmp/bench.log"
fi
if kmake plots FIGURE_DIR=build/figures-all >"$tmp/plots.log" 2>&1 && grep -qE "^ +lab$num +.*make lab$lab bench" "$tmp/plots.log"; then
    ok "make plots names lab $lab's figure as not drawn, and how to make it"
else
    not_ok "make plots says nothing of lab $lab" "$tmp/plots.log"
fi

# A hand-in holding the new lab's file, graded: scored, with the default points said.
mkdir -p "$tmp/handin/labs/$dir"
cp solutions/01-cpu-naive/transpose.c "$tmp/handin/labs/$dir/"
if ! command -v valgrind >/dev/null; then
    ok "# SKIP make grade measures CPU labs with valgrind, which is not installed (make deps installs it)"
elif kmake grade LABS="$num" SUBMISSION="$tmp/handin" >"$tmp/grade.log" 2>&1; then
    summary=$kit/build/grade/handin/summary.txt
    row=$(awk -v lab="$lab" -F'\t' '$1 == lab' "$kit/build/grade/handin/scores.tsv" 2>/dev/null)
    if [ -n "$row" ] && awk -F'\t' '{ exit !($2 > 0 && $2 == $3) }' <<<"$row"; then
        ok "make grade scores lab $lab: $(echo "$row" | awk -F'\t' '{ print $2 " of " $3 }') points for the reference handed in"
    else
        not_ok "make grade gave lab $lab no score (scores.tsv: ${row:-no row})" "$summary"
    fi
    if grep -qE "lab $lab has no line in labs/grading.conf" "$summary"; then
        ok "the summary says lab $lab was graded with the default points"
    else
        not_ok "the summary does not say lab $lab's points are the defaults" "$summary"
    fi
else
    not_ok "make grade of a hand-in with lab $lab failed" "$tmp/grade.log"
fi
tap_plan
