#!/usr/bin/env bash
# The grader against honest, broken and hostile hand-ins: honest work gets
# every point, and each attack is contained, scored for what it is, touches
# nothing outside and finishes in bounded time. Prints TAP, one line per
# check; make check counts them.
source "$(dirname "$0")/tap.sh"

# handin NAME LAB_DIR [EXT] < C source: a hand-in of that lab's file (plus lab 2's reference)
handin() {
    local dir=$tmp/$1
    mkdir -p "$dir/labs/$2" "$dir/labs/02-cpu-blocked"
    cat >"$dir/labs/$2/transpose.${3:-c}"
    [ "$2" = 02-cpu-blocked ] || cp solutions/02-cpu-blocked/transpose.c "$dir/labs/02-cpu-blocked/"
    echo "$dir"
}

# grade NAME LABS [HIDDEN]: grade the hand-in, leaving its summary in $summary, the seconds of
# CPU time its tests took in $took (what the grader's limits count: grade-run's records,
# kept with KEEP_BUILD) and the seconds on the clock its grading took in $took_clock
# (KEEP_BUILD=1 unless the caller sets it empty: its builds, outputs and files kept, for the checks that read them)
grade() {
    summary=$build/grade/${1%.tar.gz}/summary.txt
    rm -f "$summary"
    local start=$SECONDS
    make -s grade LABS="$2" SUBMISSION="$tmp/$1" ${3:+HIDDEN="$3"} KEEP_BUILD="${KEEP_BUILD-1}" >"$tmp/$1.log" 2>&1
    took_clock=$((SECONDS - start))
    took=$(cat "$build/grade/${1%.tar.gz}"/records/lab*/cpu-lab* 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s + 0.999 }')
    [ -f "$summary" ] || cp "$tmp/$1.log" "$summary" 2>/dev/null
}

# expect WHAT PATTERN: the summary matches the pattern (grep -E)
expect() {
    if grep -qE -- "$2" "$summary"; then ok "$1"; else not_ok "$1 (no /$2/ in $summary)" "$summary"; fi
}
refute() {
    if grep -qE -- "$2" "$summary"; then not_ok "$1 (/$2/ is in $summary)" "$summary"; else ok "$1"; fi
}
# result QUERY [LAB]: a field of the results.json beside $summary (the hand-in last graded):
#   parts LAB    each part's points of the lab, summed over its tests, and the lab's:
#                "CORRECTNESS/MAX TECHNIQUE/MAX PERFORMANCE/MAX TOTAL/MAX" (%.2f each)
#   perf LAB     its performance test's measurement: "measured RATIO" or "not measured REASON"
#   lab LAB      what became of the lab (extra_data's labs: graded, build failed, ...)
#   test LAB NAME  the lab's test NAME (of any part: "lab LAB PART: NAME"): "SCORE/MAX VISIBILITY"
#                (%.2f each), or "none"
#   output LAB [NAME]  the output of the lab's test NAME, or of all its tests in order, one after
#                the other (what the student reads of them)
#   status       the hand-in's status and its details (extra_data's): "STATUS: DETAILS"
#   sandbox      where its code ran (extra_data's sandbox)
result() {
    python3 - "$(dirname "$summary")/results.json" "$@" <<'PY' 2>&1
import json, re, sys
r = json.load(open(sys.argv[1]))
query, lab = sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else "")
mine = [t for t in r["tests"] if re.match(r"lab %s (correctness|technique|performance):" % lab, t["name"])]
if query == "parts":
    parts = [[sum(t[k] for t in mine if t["name"].split()[2] == p + ":") for k in ("score", "max_score")]
             for p in ("correctness", "technique", "performance")]
    parts.append([sum(p[0] for p in parts), sum(p[1] for p in parts)])
    print(" ".join("%.2f/%.2f" % (a, b) for a, b in parts))
elif query == "perf":
    e = [t.get("extra_data", {}) for t in mine if t["name"].split()[2] == "performance:"]
    print(" ".join(str(x) for x in ([e[0]["performance"], e[0].get("reason", e[0].get("ratio"))] if e else ["none"])))
elif query == "lab":
    print(r["extra_data"]["labs"].get(lab, "none"))
elif query == "test":
    t = [t for t in mine if t["name"].split(": ", 1)[1] == sys.argv[4]]
    print("%.2f/%.2f %s" % (t[0]["score"], t[0]["max_score"], t[0]["visibility"]) if t else "none")
elif query == "output":
    t = [t for t in mine if len(sys.argv) < 5 or t["name"].split(": ", 1)[1] == sys.argv[4]]
    print("\n".join(x.get("output", "") for x in t) if t else "none")
elif query == "status":
    print("%s: %s" % (r["extra_data"]["status"], r["extra_data"]["details"]))
elif query == "sandbox":
    print(r["extra_data"].get("sandbox", "none"))
PY
}
# has WHAT REGEX QUERY [LAB]: result QUERY matches REGEX (bash's =~)
has() {
    local what=$1 re=$2 got
    shift 2
    got=$(result "$@")
    if [[ $got =~ $re ]]; then ok "$what"; else not_ok "$what ($* is '$got', not /$re/)" "$summary"; fi
}
# within WHAT SECONDS: the last grading's tests took at most SECONDS of CPU time (what the
# grader's limits count, which a busy machine does not change: a loop it failed to stop
# shows), and the grading at most four times as many on the clock and a minute more (a
# wait it failed to stop shows)
within() {
    local wall=$((4 * $2 + 60))
    if [ "$took" -le "$2" ] && [ "$took_clock" -le "$wall" ]; then
        ok "$1 (${took}s of CPU time, ${took_clock}s on the clock)"
    else
        not_ok "$1: took ${took}s of CPU time (at most $2) and ${took_clock}s on the clock (at most $wall)" "$summary"
    fi
}
nothing_at() { # WHAT PATH: the attack left nothing there
    if [ -e "$2" ]; then not_ok "$1: $2 exists" /dev/null; else ok "$1"; fi
}
# points DIR: a graded hand-in's points in all, from its scores.tsv (LAB, points, of, status a lab)
points() { awk -F'\t' '$1 ~ /^[0-9]+$/ { s += $2; n++ } END { if (n) printf "%.2f\n", s }' "$1/scores.tsv" 2>/dev/null; }
# at_most WHAT ATTACK CONTROL: the attack's hand-in scored no more than its honest control's
# (each a folder graded, holding scores.tsv)
at_most() {
    local a c
    a=$(points "$2") c=$(points "$3")
    if [ -n "$a" ] && [ -n "$c" ] && awk -v a="$a" -v c="$c" 'BEGIN { exit !(a <= c) }'; then
        ok "$1 ($a, its control $c)"
    else
        not_ok "$1: scored ${a:-nothing}, its control ${c:-nothing}" "$2/summary.txt"
    fi
}

transpose_body='for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];'
pwned=$tmp/pwned
# What the tests below read of the build folder: the compiled references the grader grades
# against, and lab 1's reference suite. make check's build step has built them; run alone,
# the test builds them (half a second where they are up to date).
check "the references and lab 1's reference suite are built" make -s B="$build" references "$build/lab01/reference/test"
absbuild=$(cd "$build" && pwd)

# ---------------------------------------------------------------- honest work

mkdir -p "$tmp/references/labs"
for d in solutions/[0-9]*/; do
    mkdir -p "$tmp/references/labs/$(basename "$d")"
    find "$d" -maxdepth 1 -type f -exec cp {} "$tmp/references/labs/$(basename "$d")/" \; # not lab 10's steps/
done
printf '# held back from the class\nseed 4242\nshapes 97x131,5x3\nproducts 33x17x65,5x3x2\nsides 97,5\n' >"$tmp/held-back.txt"
# The references handed in, graded with held-back cases: every lab, a minute
# and a half of CPU time, so graded in the background beside the rest of this
# suite and checked at its end, under a lock of its own (grade.sh's
# TILELAB_GRADE_LOCK): a test of another hand-in run again alone here does
# not wait for it. Their grading without held-back cases is the same grading's
# report less the held-back tests' lines (below): the held-back cases are a
# suite run of their own, after the visible and technique runs and the
# measurement, which are those of a grading without them.
kit_labs || not_ok "the table of labs"
all_labs=${labs[*]}
cp -r "$tmp/references" "$tmp/references-08"
TILELAB_GRADE_LOCK=$tmp/references.lock grade references "$all_labs" "$tmp/held-back.txt" &
references_graded=$!
printf 'shapes 97x131\n' >"$tmp/shapes-only.txt"
grade references-08 08 "$tmp/shapes-only.txt"
has "a file of transpose shapes alone gives the products no held-back test (a transpose's shape is no product's)" \
    '^none$' test 8 'held_back_shapes (held back)'
handin heldonly 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
/* Right but at 97 x 131, one of the held-back shapes. */
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = rows == 97 && cols == 131 && r + c == 0 ? 0.0f : in[(size_t)r * cols + c];
}
EOF
grade heldonly 01 "$tmp/held-back.txt"
has "a hand-in wrong only at a held-back shape is told why its performance was not measured" \
    '^not measured held-back-failing$' perf 1
refute "... and its summary says 'held back' once a line" "held back\).*\[held back\]"
refute "... and its summary, which may go back to the student, shows no held-back shape or seed" "97 x 131|97x131|4242"
expect "... but says a held-back case failed" "a held-back case \(0.00 of"
if [ -f "$build/grade/heldonly/junit.xml" ] && grep -q 'name="a held-back case"' "$build/grade/heldonly/junit.xml" &&
    ! grep -E -q '97 x 131|97x131|4242' "$build/grade/heldonly/junit.xml"; then
    ok "... and so does its junit.xml, which a CI dashboard may show students: no held-back shape or seed"
else
    not_ok "junit.xml shows a held-back case's shape or seed, or does not name it" "$build/grade/heldonly/junit.xml"
fi
# Graded again alone, into the class's folder and without the class's HIDDEN=: the folder's
# held-back cases are gone, and grade-all's gradebook there keeps the class's row. Both went
# without a word (an instructor's trial, 2026-11-28); the grader says both.
mkdir -p "$tmp/class-grade"
make -s grade LABS=01 SUBMISSION="$tmp/heldonly" HIDDEN="$tmp/held-back.txt" GRADE_DIR="$tmp/class-grade" >/dev/null 2>&1
echo 'name,handed_in_as' >"$tmp/class-grade/gradebook.csv"
summary=$tmp/heldonly-again.log
make -s grade LABS=01 SUBMISSION="$tmp/heldonly" GRADE_DIR="$tmp/class-grade" >"$summary" 2>&1
expect "a hand-in graded again without the held-back cases it was graded with says they are gone" \
    "WARNING: heldonly was graded before with held-back cases .*graded now without HIDDEN=, its results have none"
expect "... and that the class's gradebook beside it was not updated" \
    "class-grade/gradebook.csv is grade-all's and was not updated"
printf 'seed 4242\nshapes 97x131, 5x3\n' >"$tmp/bad-held-back.txt"
grade references-08 08 "$tmp/bad-held-back.txt"
expect "a held-back file with a line the grader cannot read stops it, naming the line" \
    "bad-held-back.txt, line 2: 'shapes 97x131, 5x3' is not one of"
summary=$tmp/no-valgrind.log
make -s grade SUBMISSION="$tmp/references" VALGRIND=/nonexistent/valgrind >"$summary" 2>&1
expect "without valgrind, grading the CPU labs stops at once and says why (their performance could not be measured)" \
    "this machine has no valgrind at /nonexistent/valgrind: run make deps \(or grade the GPU labs alone: make grade LABS=\"03 04"
make -n grade LABS="03 04 05 06 07 08 09" SUBMISSION="$tmp/references" VALGRIND=/nonexistent/valgrind >"$summary" 2>&1
refute "... while the GPU labs alone, as it says, go on to be graded" "no valgrind"
expect "... (make -n shows the grader's command)" "harness/grade/grade.sh"

# A textbook lab 2, with the stub's own BLOCK, gets its performance points.
handin textbook2 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#define BLOCK $(sed -n 's/^#define BLOCK //p' labs/02-cpu-blocked/transpose.c)
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int rb = 0; rb < rows; rb += BLOCK)
        for (int cb = 0; cb < cols; cb += BLOCK)
            for (int r = rb; r < rb + BLOCK && r < rows; r++)
                for (int c = cb; c < cb + BLOCK && c < cols; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
EOF
grade textbook2 02
has "a textbook blocked loop with the stub's BLOCK scores at least 9 of 10 in lab 2" '^6\.00/6\.00 [^ ]+ [^ ]+ (9\.[0-9]+|10\.00)/10\.00$' parts 2
summary=$build/grade/textbook2/results.json
has "... and its performance line says what was measured" '^measured [0-9.]+$' perf 2
# The same file graded again, under a longer name and with a longer PATH: the measured
# program's path, the grader's paths in its environment, and so where its stack lies, all
# change, and its simulated misses must not. The textbook loop at BLOCK 16 measured 0.8987
# and then 0.898 by the full-marks threshold, 0.90 (an instructor's trial, 2026-11-28):
# the same file, two grades.
textbook2_ratio=$(result perf 2)
again=textbook2-graded-again-under-a-name-of-another-length
cp -r "$tmp/textbook2" "$tmp/$again"
PATH="$PATH:/nonexistent/a/folder/that/makes/the/path/longer/than/it/was" grade "$again" 02
summary=$build/grade/$again/results.json
has "... and graded again from another path, it measures the very same ratio ($textbook2_ratio)" \
    "^${textbook2_ratio//./\\.}\$" perf 2
# (graded with KEEP_BUILD=1, as grade() does unless told: its build is kept)
if [ -x "$build/grade/textbook2/build/lab02/student/test" ]; then
    ok "KEEP_BUILD=1 keeps a hand-in's build once it is graded"
else
    not_ok "KEEP_BUILD=1 kept no build" /dev/null
fi

# Points from raw outcomes, as on a GPU (no GPU needed): grade-report alone, on
# the bench's record (bench.h's TL_BENCH_RECORD_HEADER), read by its columns' names.
# test_points RESULTS NAME: "SCORE of MAX", the fields of test NAME in a results.json ("none": no such test)
test_points() {
    sed -n "s/.*{\"name\": \"$2\", \"score\": \([0-9.]*\), \"max_score\": \([0-9.]*\),.*/\1 of \2/p" "$1" | grep . || echo none
}
equal() { # WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: '$2', not '$3'"; fi
}
mkdir -p "$tmp/report"
record_head() { printf '# tilelab bench\nlab\tvariant\trole\trows\tcols\tdepth\toutcome\trate\tunit\tratio_to_reference\tnote\n'; }
row() { printf '7\t%s\t%s\t1024\t1024\t1024\t%s\t%s\tGFLOP/s\t%s\t%s\n' "$@"; } # VARIANT ROLE OUTCOME RATE RATIO NOTE
{
    record_head
    row reference reference timed 2000 1.0000 ''
    row student student timed 1150 0.5750 ''
    row ref_naive reference timed 200 1.0000 ''
    row naive student timed 100 0.5000 ''
} >"$tmp/report/bench.tsv"
printf 'test\t07\tcorrectness\tlab07/a\tpass\t-\ntest\t07\ttechnique\tlab07_technique/b\tpass\t-\nperf\t07\tgpu\t%s\t-\t-\t-\n' \
    "$tmp/report/bench.tsv" >"$tmp/report/outcomes.tsv"
printf 'test\t04\tcorrectness\tlab04/a\tpass\t-\ntest\t04\tcorrectness\tlab04/b\tskip\t-\ntest\t04\ttechnique\tlab04_technique/c\tpass\t-\nperf\t04\tnone\t-\t-\t-\t-\n' \
    >>"$tmp/report/outcomes.tsv"
"$build/grade-report" labs/grading.conf "$tmp/report/outcomes.tsv" "$tmp/report" someone >/dev/null
equal "a GPU ratio of 0.575, halfway from lab 7's 0.40 to its 0.75, earns half its performance points" \
    "$(test_points "$tmp/report/results.json" "lab 7 performance: performance")" "1.000000 of 2.000000"
equal "... and the rest of lab 7 all of its own" \
    "$(awk -F'\t' '$1 == 7 { print $2 " of " $3 }' "$tmp/report/scores.tsv")" "9.000000 of 10.000000"
summary=$tmp/report/results.json
expect "... in GFLOP/s at its size, both rates said" "ratio 0.575: GFLOP/s at 1024x1024 on the GPU, median of repetitions in one run: reference 2000, yours 1150"
# A kernel of the student's the bench did not time (its record's outcome), and why (its note),
# for the grader to say; one refused (a rate above the GPU's), flagged for the instructor too.
for case in untimed refused; do
    mkdir -p "$tmp/report/$case"
    {
        record_head
        row reference reference timed 2000 1.0000 ''
        row student student timed 1150 0.5750 ''
        row ref_naive reference timed 200 1.0000 ''
        if [ $case = untimed ]; then
            row naive student untimed '' '' 'WRONG, not timed: out(3, 4) is 7, not 12'
        else
            row naive student refused '' '' 'REFUSED, faster than this GPU can go: 90000 GFLOP/s, above cuBLAS'
        fi
    } >"$tmp/report/$case/bench.tsv"
    printf 'test\t07\tcorrectness\tlab07/a\tpass\t-\nperf\t07\tgpu\t%s\t-\t-\t-\n' "$tmp/report/$case/bench.tsv" \
        >"$tmp/report/$case/outcomes.tsv"
    for _ in 1 2; do # written twice: flagged once
        "$build/grade-report" labs/grading.conf "$tmp/report/$case/outcomes.tsv" "$tmp/report/$case" someone >/dev/null
    done
done
equal "a kernel of the student's the bench's record says was not timed earns no performance points" \
    "$(test_points "$tmp/report/untimed/results.json" "lab 7 performance: performance")" "0.000000 of 2.000000"
if grep -qF '"name": "lab 7 performance: performance", "score": 0.000000, "max_score": 2.000000, "visibility": "visible", "output": "not measured: your code was not timed: naive: WRONG, not timed: out(3, 4) is 7, not 12"' \
    "$tmp/report/untimed/results.json"; then
    ok "... and says which kernel, with the record's note, whole"
else
    not_ok "... and says which kernel, with the record's note, whole" "$tmp/report/untimed/results.json"
fi
[ ! -e "$tmp/report/untimed/flags.txt" ] && ok "... and flags nothing" || not_ok "an untimed kernel was flagged" "$tmp/report/untimed/flags.txt"
equal "a rate the bench refused earns no performance points" \
    "$(test_points "$tmp/report/refused/results.json" "lab 7 performance: performance")" "0.000000 of 2.000000"
equal "... and is flagged for the instructor, once" "$(cat "$tmp/report/refused/flags.txt" 2>/dev/null)" \
    "lab 7: a rate above what the GPU can give was refused"
summary=$tmp/report/summary.txt
expect "a skipped test is said at the top of the summary, never silently 0" "^NOTE: 1 test\(s\) did not run here \(skipped\)"
has "... and performance waits for every correctness test" '^not measured correctness-failing$' perf 4

# A callgrind output is read strictly (grade_callgrind.c): one events: and one
# summary: line in its header, one totals: line at its end. Made-up counts of
# three runs: the reference's, the baseline's (no call), and a student's
# whose D1mw (700000, a naive loop's) a second events: line among its costs
# renames to its I1mr column (70000): read by that line, ratio 1.0.
cg_out() { # FILE NAME MODE IR I1MR D1MR D1MW [LINE]: a callgrind output, LINE among its costs
    local counts="$4 $(($4 / 5)) $(($4 / 5)) $5 $6 $7 10 10 10"
    printf '%s\n' "# callgrind format" "version: 1" "creator: callgrind-3.19.0" "pid: 2" \
        "cmd:  /g/build/lab02/grade-perf-$2 1000 $3 -" "part: 1" "" \
        "desc: I1 cache: 32768 B, 64 B, 8-way associative" "desc: D1 cache: 32768 B, 64 B, 8-way associative" \
        "desc: LL cache: 8388608 B, 64 B, 16-way associative" "" "positions: line" \
        "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw" "summary: $counts" "" "ob=(1) /g/grade-perf-$2" \
        "fl=(1) ???" ${8:+"$8"} "fn=(1) 0x0000000000001139" "0 $counts" "" "totals: $counts" >"$1"
}
mkdir -p "$tmp/cg/plain" "$tmp/cg/renamed" "$tmp/cg/trimmed"
cg_out "$tmp/cg/reference.out" reference call 5000000 10 70000 70000
cg_out "$tmp/cg/baseline.out" reference skip 4000000 10 10 10
cg_out "$tmp/cg/plain.out" student call 5000000 10 70000 70000
cg_out "$tmp/cg/renamed.out" student call 5000000 70000 70000 700000 "events: Ir Dr Dw D1mw D1mr I1mr ILmr DLmr DLmw"
# callgrind leaves out a line's trailing zero counts (a run that fits the last
# level has no DLmr or DLmw): the same counts as plain's, DLmr and DLmw 0, unwritten
cg_out "$tmp/cg/trimmed.out" student call 5000000 10 70000 70000
sed -i -E 's/^(summary:|totals:|0) (.*) 10 10 10$/\1 \2 10/' "$tmp/cg/trimmed.out"
: >"$tmp/cg/run.txt"
for v in plain renamed trimmed; do
    printf 'test\t02\tcorrectness\tlab02/a\tpass\t-\nperf\t02\tcallgrind\t%s\t%s\t%s\t%s\n' "$tmp/cg/$v.out" \
        "$tmp/cg/reference.out" "$tmp/cg/baseline.out" "$tmp/cg/run.txt" >"$tmp/cg/$v/outcomes.tsv"
    "$build/grade-report" labs/grading.conf "$tmp/cg/$v/outcomes.tsv" "$tmp/cg/$v" "$v" >/dev/null
done
if [ "$(points "$tmp/cg/plain")" = 10.00 ]; then
    ok "callgrind's totals, where it writes them, are read: a ratio of 1.0 earns lab 2's every point"
else
    not_ok "callgrind's totals were not read: $(points "$tmp/cg/plain") points" "$tmp/cg/plain/summary.txt"
fi
if [ "$(points "$tmp/cg/renamed")" = 6.00 ]; then
    ok "... and a second events: line among its costs leaves the run unmeasured, not read by it"
else
    not_ok "a second events: line among callgrind's costs: $(points "$tmp/cg/renamed") points, 6.00 without performance" "$tmp/cg/renamed/summary.txt"
fi
if [ "$(points "$tmp/cg/trimmed")" = 10.00 ] && ! grep -q " 10 10 10$" "$tmp/cg/trimmed.out"; then
    ok "... and counts callgrind leaves out at a line's end (trailing zeros) are read as zero"
else
    not_ok "callgrind's lines without their trailing zero counts: $(points "$tmp/cg/trimmed") points, 10.00 expected" "$tmp/cg/trimmed/summary.txt"
fi

# The emulator's counts, refused where they are below what any call moves
# (its input read once, its output written once: 16384 sectors at 256 x 256),
# as a GPU's bench refuses a rate above the hardware's: work moved by a path
# the emulator did not count (issue 36's 1.94 and 24.0). Flagged, once.
mkdir -p "$tmp/report/emu"
emu_profile() { # STUDENT_LOAD STUDENT_STORE: lab 5's profile, the reference's counts as recorded
    printf '# tilelab profile on the CPU emulator\n'
    printf 'variant,kernel,rows,cols,depth,launches,blocks,threads,global_load_requests,global_load_sectors,'
    printf 'global_store_requests,global_store_sectors,shared_load_requests,shared_load_wavefronts,'
    printf 'shared_store_requests,shared_store_wavefronts,global_load_bytes,global_store_bytes,'
    printf 'shared_load_ideal,shared_store_ideal,constant_load_requests,constant_load_passes,least_sectors\n'
    printf 'reference,transpose_padded,256,256,256,1,64,16384,2048,8192,2048,8192,2048,2048,2048,2048,262144,262144,2048,2048,0,0,16384\n'
    printf 'student,naive,256,256,256,1,256,65536,2048,%d,2048,%d,0,0,0,0,262144,262144,0,0,0,0,16384\n' "$1" "$2"
}
for case in "refused 4352 4352" "measured 8192 8192"; do
    set -- $case
    emu_profile "$2" "$3" >"$tmp/report/emu/$1.csv"
    printf 'test\t05\tcorrectness\tlab05/a\tpass\t-\nperf\t05\temu\t%s\t-\t-\t-\n' "$tmp/report/emu/$1.csv" \
        >"$tmp/report/emu/$1.tsv"
    mkdir -p "$tmp/report/emu/$1"
    for _ in 1 2; do # written twice: flagged once
        "$build/grade-report" labs/grading.conf "$tmp/report/emu/$1.tsv" "$tmp/report/emu/$1" someone >/dev/null
    done
done
summary=$tmp/report/emu/refused/summary.txt
has "emulator counts below what the call must move earn no performance points" '^8\.00/8\.00 0\.00/0\.00 0\.00/2\.00 8\.00/10\.00$' parts 5
expect "... and say why" "REFUSED: the emulator counted 8704 memory transactions .* fewer than the 16384 sectors any call must move"
summary=$tmp/report/emu/refused/flags.txt
expect "... flagged for the instructor" "^lab 5: a count below what the work must move was refused$"
[ "$(wc -l <"$summary")" = 1 ] && ok "... once, though the report was written twice" || not_ok "flags.txt holds $(wc -l <"$summary") lines, not 1" "$summary"
summary=$tmp/report/emu/measured/summary.txt
has "emulator counts at that least are a ratio (16896 / 16384), and earn their points" '^8\.00/8\.00 0\.00/0\.00 2\.00/2\.00 10\.00/10\.00$' parts 5
summary=$tmp/report/emu/measured/results.json
has "... said" '^measured 1\.031' perf 5
[ ! -e "$tmp/report/emu/measured/flags.txt" ] && ok "... and flag nothing" || not_ok "a measured ratio was flagged" "$tmp/report/emu/measured/flags.txt"

# Technique counts once most correctness tests pass (technique_needs): a
# kernel that fails 10 of 12 shows no technique, whatever its counts.
mkdir -p "$tmp/report/gate"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    printf 'test\t05\tcorrectness\tlab05/t%d\t%s\t-\n' "$i" "$([ "$i" -le 2 ] && echo pass || echo fail)"
done >"$tmp/report/gate.tsv"
printf 'test\t05\ttechnique\tlab05_technique/padded\tpass\t-\nperf\t05\tnone\t-\t-\t-\t-\n' >>"$tmp/report/gate.tsv"
"$build/grade-report" labs/grading.conf "$tmp/report/gate.tsv" "$tmp/report/gate" someone >/dev/null
summary=$tmp/report/gate/summary.txt
has "a technique test passed by a kernel that fails 10 of 12 correctness tests earns nothing" '^0\.83/5\.00 0\.00/3\.00 ' parts 5
expect "... and says why" "not counted: technique counts once 75 % of the lab's correctness tests pass, and 2 of 12 do"
sed -i '3,9s/\tfail\t/\tpass\t/' "$tmp/report/gate.tsv"
"$build/grade-report" labs/grading.conf "$tmp/report/gate.tsv" "$tmp/report/gate" someone >/dev/null
has "... while one that passes 9 of 12 earns it" '^3\.75/5\.00 3\.00/3\.00 ' parts 5

# A lab that grading.conf has no line for (added to labs.mk alone) takes the
# default of its kind, said in the summary; one with no default either stops
# grade-report, naming it, rather than leaving the lab out.
printf 'test\t12\tcorrectness\tlab12/a\tpass\t-\ntest\t12\tcorrectness\tlab12/b\tfail\t-\nperf\t12\tnone\t-\t-\t-\t-\n' >"$tmp/report/new.tsv"
mkdir -p "$tmp/report/new"
# The table of labs as make would write it with lab 12 added (tl-labs, harness/tools/labs.c).
"$tmp/labs/tl-labs" 01 dir=01-cpu-naive kind=cpu file=transpose.c 'title=CPU naive' \
    12 dir=12-gpu-new kind=gpu file=new.cu 'title=GPU new' >"$tmp/report/labs-01-12.tsv"
"$tmp/labs/tl-labs" 12 dir=12-gpu-new kind=gpu file=new.cu 'title=GPU new' >"$tmp/report/labs-12.tsv"
LABS_TSV=$tmp/report/labs-01-12.tsv \
    "$build/grade-report" labs/grading.conf "$tmp/report/new.tsv" "$tmp/report/new" someone >/dev/null 2>"$tmp/report/new.err"
summary=$tmp/report/new/summary.txt
has "a lab without a line in grading.conf is graded with its kind's default points" '^4\.00/8\.00 0\.00/0\.00 0\.00/2\.00 4\.00/10\.00$' parts 12
expect "... and the summary says so" "^NOTE: lab 12 has no line in labs/grading.conf: graded with the default points of a gpu transpose lab"
grep -v '^default' labs/grading.conf >"$tmp/report/no-defaults.conf"
if LABS_TSV=$tmp/report/labs-12.tsv "$build/grade-report" "$tmp/report/no-defaults.conf" \
    "$tmp/report/new.tsv" "$tmp/report/new" someone >"$tmp/report/none.log" 2>&1; then
    not_ok "a lab with neither a line nor a default was graded anyway" "$tmp/report/none.log"
elif grep -q "lab 12 (12-gpu-new, gpu transpose) has no line" "$tmp/report/none.log"; then
    ok "a lab with neither a line nor a default stops grade-report, which names it"
else
    not_ok "grade-report failed without naming the lab that has no points" "$tmp/report/none.log"
fi

# ---------------------------------------------------------------- broken work

handin broken 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
void transpose(float *out, const float *in, int rows, int cols) { this is not C; }
EOF
grade broken "01 02"
has "a lab that does not build scores 0, with the compiler's message" '^build failed$' lab 1
has "... the message is the compiler's" 'error:' output 1
has "... and the other labs are still graded" '^6\.00/6\.00 ' parts 2
# On the emulator, where nvcc is installed, nvcc checks a GPU lab first: its errors are
# headed by nvcc's command, never by g++'s (the emulator's build, which never ran).
if [ -n "$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)" ]; then
    handin broken3 03-gpu-naive cu >/dev/null <<EOF
#include "lab.h"
void transpose(float *d_out, const float *d_in, int rows, int cols) { int x = 1 (void)x; }
EOF
    grade broken3 "03"
    has "a GPU lab nvcc refuses does not build on the emulator either" '^build failed$' lab 3
    expect "... its errors headed by nvcc's command, which wrote them" "^ *nvcc -c labs/03-gpu-naive/transpose.cu"
    refute "... not by the emulator's g++, which never ran" "^ *g\+\+ -c labs/03-gpu-naive/transpose.cu"
fi

handin endless 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <signal.h>
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    signal(SIGTERM, SIG_IGN), signal(SIGALRM, SIG_IGN), signal(SIGINT, SIG_IGN);
    while (rows == 2 && cols == 3)
        ;
    $transpose_body
}
EOF
grade endless 01
has "an endless loop that ignores SIGTERM and SIGALRM is stopped at its test's limit" '^0\.00/' test 1 tiny_rectangles
# Named by the suite's watch on CPU time (lab_client.h), or, on a machine too busy for it to
# come first, by the grader's clock.
has "... and says so, naming the call and the shape" 'transpose\(\) of a 2 x 3 matrix did not return|stopped after [0-9]+ seconds' \
    output 1 tiny_rectangles
has "... while the other tests, run in the same suite run, pass" '^7\.27/8\.00 ' parts 1
within "... and the lab is graded in bounded time (such a test run twice)" 150

# A loop in a constructor, before the lab process answers anything: each test's lab
# process loops (a lab's tests share one suite run, a fresh lab process each), each is
# stopped, and the lab's limit on the CPU time of all its tests ends the rest.
handin stall 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <signal.h>
#include <stddef.h>
__attribute__((constructor)) static void stall(void)
{
    signal(SIGTERM, SIG_IGN), signal(SIGALRM, SIG_IGN), signal(SIGINT, SIG_IGN);
    for (;;)
        ;
}
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
EOF
TILELAB_GRADE_LAB_LIMIT=20 grade stall 01
has "a loop in a constructor, ignoring every signal it can, is killed at the test's limit" '^0\.00/' test 1 around_block_edges
has "... and says so" 'the lab process, starting .* did not answer' output 1
has "... and what a time limit usually means, a constructor's time included" \
    'code that runs before any call, such as a constructor, counts' output 1
expect "... and the tests past the lab's limit are not run, saying so" "the tests of this lab ran past 20 seconds of CPU time in all"
within "... and the lab is graded in bounded time" 90

# What decides a time-out is the grader's record (grade-run's clock, Criterion's
# and the suite's own records), never what the output says: a hand-in that prints
# a time-out's words and fails at once is not run again alone, where it could
# hold the machine, and every other grader with it.
handin forger 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 2 && cols == 3) {
        fprintf(stderr, "\\ntilelab: stopped after 1 seconds, the time limit\\nlab01::tiny_rectangles: Timed out.\\n"
                        "transpose() of a 2 x 3 matrix did not return within 5 s (an endless loop?)\\n");
        return;
    }
    $transpose_body
}
EOF
grade forger 01
has "a hand-in that prints a time-out's words fails the test it fails" '^0\.00/' test 1 tiny_rectangles
nothing_at "... and is not run again alone for them (the grader flags each test it runs again)" "$build/grade/forger/flags.txt"

# The kernel moving memory for a measured CPU lab (process_vm_readv on itself:
# no load or store valgrind sees) is stopped as a second process is.
handin vmcopy 01-cpu-naive >/dev/null <<EOF
#define _GNU_SOURCE
#include "lab.h"
#include <sys/uio.h>
#include <unistd.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    float first;
    struct iovec mine = {&first, sizeof first}, theirs = {(void *)in, sizeof first};
    if (rows * cols > 0)
        process_vm_readv(getpid(), &mine, 1, &theirs, 1, 0);
    $transpose_body
}
EOF
grade vmcopy 01
has "the kernel copying memory for a measured hand-in (process_vm_readv) leaves it correct but unmeasured" '^8\.00/8\.00 [^ ]+ 0\.00/2\.00 ' parts 1
has "... and it is told why" '^not measured forbidden-call$' perf 1

# The kernel's asynchronous I/O reads into memory as read() would, where neither the cache
# simulation nor /proc/self/io counts it (a column of out, an iovec an element): refused as
# the calls above are.
handin aiocopy 01-cpu-naive >/dev/null <<EOF
#define _GNU_SOURCE
#include "lab.h"
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <unistd.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    aio_context_t ctx = 0;
    if (rows * cols > 0 && syscall(SYS_io_setup, 1, &ctx) == 0)
        syscall(SYS_io_destroy, ctx);
    $transpose_body
}
EOF
grade aiocopy 01
has "the kernel's asynchronous I/O for a measured hand-in (io_setup) leaves it correct but unmeasured" '^8\.00/8\.00 [^ ]+ 0\.00/2\.00 ' parts 1
has "... and it is told why" '^not measured forbidden-call$' perf 1

# The measured run's input is made from a seed (a counter-based generator): a lab that knew
# it could make in's values itself and never read in across its rows. It is no longer on
# the command line; it comes on standard input, after the lab's constructors: one that
# takes it first leaves the run nothing to make its input from, and is not measured.
# (It knows the measured run by valgrind's library in LD_PRELOAD: measured, it can open
# no file, its command line included.)
handin seedtaker 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char taken[64];
__attribute__((constructor)) static void take(void)
{
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload"))
        (void)!read(0, taken, sizeof taken - 1);
}
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
EOF
grade seedtaker 01
has "a constructor that takes the measured run's seed leaves it correct but unmeasured" '^8\.00/8\.00 [^ ]+ 0\.00/2\.00 ' parts 1
has "... and it is told why" '^not measured refused$' perf 1

# A copy the kernel makes through a pipe, a column gathered at a time: the cache
# simulation would see none of its traffic. Measured, no pipe can be made
# (grade_perf_confine.c), and a lab that counts on one leaves out unwritten:
# not measured, and said why.
handin pipecopy 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <sys/uio.h>
#include <unistd.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    int p[2];
    struct iovec v[1024];
    if (rows < 64 || rows > 1024) {
        $transpose_body
        return;
    }
    if (pipe(p) != 0)
        return;
    for (int c = 0; c < cols; c++) {
        for (int r = 0; r < rows; r++)
            v[r] = (struct iovec){(void *)&in[(size_t)r * cols + c], sizeof(float)};
        if (writev(p[1], v, rows) < 0 || read(p[0], &out[(size_t)c * rows], (size_t)rows * sizeof(float)) < 0)
            return;
    }
    close(p[0]);
    close(p[1]);
}
EOF
grade pipecopy 01
has "a copy made by the kernel through a pipe leaves a hand-in correct but unmeasured" '^8\.00/8\.00 [^ ]+ 0\.00/2\.00 ' parts 1
has "... and it is told why" '^not measured wrong-result$' perf 1

# A student's prints at the measured shape (1000 x 1000): a line every 5 rows (5 KB) once
# cut the digest the measuring program prints last, and lost the performance points as
# "ended early (exit() in the lab code?)"; a line an element (34 MB) is too much to be
# measured, and once read "failed (a crash, a wrong result, or the time limit)", with the
# student's own lines as the reason, where the run had said why (instructor17).
handin progress 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 1000 && cols == 1000)
        for (int r = 0; r < rows; r += 5)
            printf("progress: row %d of %d\n", r, rows);
    $transpose_body
}
EOF
grade progress 01
has "a lab 1 that prints 200 progress lines as it is measured is measured all the same" '^measured ' perf 1
handin chatty 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 1000 && cols == 1000)
        for (int i = 0; i < rows * cols; i++)
            printf("debug: element %d of %d\n", i, rows * cols);
    $transpose_body
}
EOF
grade chatty 01
has "a lab 1 that prints a line an element as it is measured is not measured" '^not measured refused$' perf 1
expect "... and is told it was its prints" "moved [0-9]+ bytes through the kernel .*printf\(\) and puts\(\) included.*a debugging print left in its loops"

# An index out of bounds in the shared memory the matrices lie in faults with SIGBUS, which
# the test once called "a misaligned or unmapped memory access": a student's lab 2 whose
# blocks ran past the edge was told of alignment (instructor17).
handin pastend 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
/* 32 x 32 blocks, none stopped at the matrix's edge */
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int rb = 0; rb < rows; rb += 32)
        for (int cb = 0; cb < cols; cb += 32)
            for (int r = rb; r < rb + 32; r++)
                for (int c = cb; c < cb + 32; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
EOF
grade pastend 01
expect "a lab whose blocks run past the matrix's edge is told, where it faults with SIGBUS, that it went past the end" \
    "killed by SIGBUS: an access past the end of a matrix"
refute "... never of a misaligned access alone" "SIGBUS: a misaligned or unmapped"

# A kernel that never ends at one row: graded, the technique check runs (the student's own
# run stops at the hang), and its first call, of one row, never returns. It once said the
# call "failed before any kernel of it ran", where the kernel had run and never ended
# (instructor17).
handin spinner 03-gpu-naive cu >/dev/null <<EOF
#include "lab.h"
__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    while (rows == 1) {
    }
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
EOF
grade spinner 03
expect "a kernel that never ends at one row: the technique check says its call faulted or never ended" \
    "cannot be judged: the call failed before any launch of it was on record \\(a kernel that faulted or never ended"
refute "... never that no kernel of it ran" "before any kernel of it ran"

# Load never decides a verdict: a test that runs past its limit is run again
# alone, with RETRY_SCALE times the reference's time for it on this machine
# (here a knob stands in for a loaded machine's slow reference), and the
# gradebook flags the hand-in. One that runs past that too fails, told so.
handin sleepy 01-cpu-naive >/dev/null <<EOF
#define _DEFAULT_SOURCE
#include "lab.h"
#include <stddef.h>
#include <unistd.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 1 && cols == 1)
        sleep(31); /* one_by_one's limit is 10 seconds, and Criterion's clock stops it at 30 */
    $transpose_body
}
EOF
# Each of its calls at 1 x 1 sleeps: its two gradings below, minutes of
# waiting, run in the background beside the rest of this suite, each under a
# lock of its own (its tests run again alone hold it), checked at its end.
cp -r "$tmp/sleepy" "$tmp/sleepy-again"
TILELAB_GRADE_LOCK=$tmp/sleepy.lock TILELAB_GRADE_RETRY_SCALE=1000 grade sleepy 01 &
TILELAB_GRADE_LOCK=$tmp/sleepy-again.lock grade sleepy-again 01 &

# The limits every build, test and measurement runs under hold whatever the command
# ignores: its CPU time, of all its processes together, a child that left its process
# group and one whose parent ended (grade-run waits for it) included; and, for what
# waits without using the CPU, the clock. Each time, nothing of it is left running.
spin="trap '' TERM INT ALRM; while :; do : tilelab-spin-$$; done"
verdict=$("$build/grade-run" --limit 2 --cpu-record "$tmp/limit.cpu" --output "$tmp/limit.txt" -- \
    sh -c "($spin) & setsid sh -c '$spin' & sh -c '($spin) &' & $spin")
cpu=$(cat "$tmp/limit.cpu" 2>/dev/null)
if [ "$verdict" = fail ] && grep -q "stopped after 2 seconds of CPU time" "$tmp/limit.txt" &&
    awk -v c="${cpu:-0}" 'BEGIN { exit !(c >= 2 && c < 4) }' && ! pgrep -f "tilelab-spin-$$" >/dev/null; then
    ok "grade-run stops a command at its CPU time limit, all its processes counted ($cpu s), whatever they ignore"
else
    not_ok "grade-run's CPU limit: $verdict, ${cpu:-no} seconds recorded, $(pgrep -fc "tilelab-spin-$$") left running" "$tmp/limit.txt"
    pkill -KILL -f "tilelab-spin-$$"
fi
start=$SECONDS
verdict=$("$build/grade-run" --limit 2 --wall 3 --output "$tmp/limit.txt" -- sh -c "trap '' TERM INT ALRM; sleep 60.$$ & sleep 60.$$")
took=$((SECONDS - start))
if [ "$verdict" = fail ] && grep -q "stopped after 3 seconds on the clock.*waiting for something that never came" "$tmp/limit.txt" &&
    [ "$took" -lt 60 ] && ! pgrep -f "sleep 60.$$" >/dev/null; then
    ok "... and, where it waits using no CPU, at its limit on the clock, saying so (${took}s)"
else
    not_ok "grade-run's limit on the clock: $verdict after ${took}s" "$tmp/limit.txt"
fi

# What a command says last is kept, past whatever it printed before: a measurement's
# verdict ("transposed: DIGEST", or why it measured nothing) comes after a lab's own
# prints. Kept to the first 4000 bytes, a lab 1 that printed 200 progress lines (5 KB)
# lost its digest and its performance points, told "your code ended the measured run
# before its output could be checked (exit() in the lab code?)" (instructor17).
"$build/grade-run" --limit 10 --output "$tmp/long.txt" -- \
    sh -c 'echo first line; i=0; while [ $i -lt 2000 ]; do echo "progress: row $i"; i=$((i + 1)); done; echo "transposed: 0123abcd"' >/dev/null
if head -1 "$tmp/long.txt" | grep -qx 'first line' && tail -1 "$tmp/long.txt" | grep -qx 'transposed: 0123abcd' &&
    grep -q '^\[\.\.\. [0-9]* more bytes cut\]$' "$tmp/long.txt" && [ "$(wc -c <"$tmp/long.txt")" -le 4100 ]; then
    ok "grade-run keeps a long output's first lines and its last, the cut said between them, in $(wc -c <"$tmp/long.txt") bytes"
else
    not_ok "grade-run's cut of a long output: its first and last lines, 4000 bytes" "$tmp/long.txt"
fi

# The GPU timing lock (grade_measuring.c) reaches the bench in its sandbox as
# descriptor 4, open to read and write (its locks are fcntl's: tests/timing_lock_test.c),
# and no other of the grader's descriptors does.
: >"$tmp/gpu.lock"
sandboxed=(bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent --new-session)
"${sandboxed[@]}" true 2>/dev/null || sandboxed=()
exec {held}<"$tmp/gpu.lock" # one of the grader's own, which must not reach the command
"$build/grade-run" --limit 10 --output "$tmp/lock.txt" --lock "$tmp/gpu.lock" -- "${sandboxed[@]}" \
    sh -c 'readlink /proc/$$/fd/4; sed -n "s/^flags:[[:space:]]*//p" /proc/$$/fdinfo/4; [ ! -e /proc/$$/fd/5 ] || echo "descriptor 5 open"' >/dev/null
exec {held}<&-
if [ "$(sed -n 1p "$tmp/lock.txt")" = "$tmp/gpu.lock" ] && [[ $(sed -n 2p "$tmp/lock.txt") == *2 ]] && [ "$(wc -l <"$tmp/lock.txt")" = 2 ]; then
    ok "grade-run --lock: the command has the GPU timing lock as descriptor 4, to read and write ($([ ${#sandboxed[@]} = 0 ] && echo "no sandbox: bwrap cannot run here" || echo "through bwrap")), and no other descriptor of the grader's"
else
    not_ok "grade-run --lock: the command's descriptor 4 and 5 said: $(tr '\n' ' ' <"$tmp/lock.txt") (want $tmp/gpu.lock, flags ending in 2, nothing more)"
fi

handin crash 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    if (rows == 2 && cols == 3)
        out = (float *)16;
    $transpose_body
}
EOF
grade crash 01
has "a crash is a failed test" '^0\.00/' test 1 tiny_rectangles
has "... with the signal named" 'SIGSEGV' output 1 tiny_rectangles

# ---------------------------------------------------------------- hostile work

handin flood 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    /* A euro sign across the cut at 4000 bytes; invalid UTF-8, terminal escapes and controls. */
    if (rows == 1 && cols == 1)
        for (int i = 0; i < 3999; i++)
            fputc('a', stderr);
    else
        fprintf(stderr, "\xff\xfe bad \xc0\xaf \xed\xa0\x80 \x1b[31mred\x1b[0m \x1b]0;title\x07 \x01\x02\x7f \xc2\x9b tab\there\n");
    for (int i = 0; i < 20000; i++)
        fprintf(stderr, "\xe2\x82\xac noise noise noise noise noise noise noise noise\n");
    (void)out, (void)in, (void)rows, (void)cols;
}
EOF
grade flood 01
expect "output is cut at a limit" "more bytes cut"
size=$(wc -c <"$build/grade/flood/results.json")
if [ "$size" -lt 200000 ]; then ok "... so results.json stays small ($size bytes)"; else not_ok "results.json is $size bytes" /dev/null; fi
if command -v python3 >/dev/null; then
    check "... and is valid UTF-8 JSON" python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$build/grade/flood/results.json"
else
    check "... and is valid UTF-8 (iconv)" iconv -f UTF-8 -t UTF-8 -o /dev/null "$build/grade/flood/results.json"
fi
if tr -d '\n' <"$summary" | LC_ALL=C grep -q '[[:cntrl:]]'; then not_ok "summary.txt holds control characters" "$summary"; else ok "summary.txt holds no control characters"; fi
check "... and is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$summary"

handin quits 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdlib.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
    exit(0);
}
EOF
grade quits 01
has "exit(0) does not pass" '^0\.00/8\.00 ' parts 1
expect "... and is named" "your code ended its process with exit status 0 before transpose\(\) returned"

# Signals: a lab's code shares its user with the suite's processes (and, sandboxed, their PID
# namespace). A right transpose that, in three tests, signals the suite's process that started
# it and every process it may (kill(-1)), the parent's thread, and makes the parent its stdout's
# SIGIO owner: each call is refused in the lab process, and only those tests lose their points,
# each told why. (Once, kill(-1) ended the tests beside it and the runner that collects results:
# the lab scored 0 or 7.27 by which died first, every message false.) The same file graded by
# grade-all gets the same points (the class, below).
handin signaller 01-cpu-naive >/dev/null <<EOF
#define _GNU_SOURCE
#include "lab.h"
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    if (rows == 97 && cols == 89) {
        kill(getppid(), SIGKILL);
        kill(-1, SIGKILL);
    }
    if (rows == 2 && cols == 3)
        syscall(SYS_tgkill, getppid(), getppid(), SIGKILL);
    if (rows == 1000 && cols == 1)
        fcntl(1, F_SETOWN, getppid());
}
EOF
grade signaller 01
has "signals to other processes in three tests cost those three tests alone (8 of their 11)" '^5\.82/8\.00 ' parts 1
signalled=$(python3 -c 'import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
print(" ".join(sorted(t["name"].split(": ")[1] for t in tests if "correctness" in t["name"] and t["score"] < t["max_score"] and "your code tried to send a signal to another process before transpose() returned" in t["output"])),
      sum(t["score"] >= t["max_score"] for t in tests if "correctness" in t["name"]))' "$build/grade/signaller/results.json" 2>&1)
equal "... each of them told that its call signalled another process, the 8 others full" "$signalled" "primes single_column tiny_rectangles 8"

# Criterion's own lines, printed by the lab's code: each test's part of the output is cut
# at Criterion's end lines, and a forged "[PASS] lab01::one_by_one" once took that test's
# diagnosis away (it showed only the forged line, 0 points) and filed what followed under
# the next test that failed. The lab process's prints now come through its suite, each
# line marked as the lab process's: the failed test keeps its diagnosis, first, and its own
# prints after it, marked; a line longer than a read is no end line either; no other test
# reads them.
handin marker 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    if (rows == 97 && cols == 89) {
        static char long_line[2100];
        memset(long_line, 'A', 2048 - 14); /* "[PASS]" at byte 2048 of the line, behind "[lab process] " */
        printf("[PASS] lab01::primes: (0.00s)\n[RUN ] lab01::tiny_rectangles\nforged after the end\n");
        printf("%s[PASS] lab01::tiny_rectangles: (0.00s)\nforged after a long line\n", long_line);
        fflush(stdout);
        fprintf(stderr, "[FAIL] lab01::single_row: (0.00s)\npartial, no newline");
        out[0] = 0.5f;
    }
    if (rows == 2 && cols == 3)
        printf("[FAIL] lab01::tiny_rectangles: (0.00s)\n");
}
EOF
grade marker 01
has "Criterion's lines forged by the lab's code cost nothing but the test it failed" '^7\.27/8\.00 ' parts 1
marked=$(python3 -c 'import json, sys
tests = {t["name"].split(": ")[1]: t for t in json.load(open(sys.argv[1]))["tests"] if "correctness" in t["name"]}
one = tests["primes"]["output"]
said = ["first mismatch: out[0][0] should be in[0][0]" in one,
        "[lab process] [PASS] lab01::primes: (0.00s)" in one,
        "[lab process] forged after the end" in one,
        "[lab process] forged after a long line" in one,
        "[lab process] partial, no newline" in one,
        "\n[PASS] " not in one and not one.startswith("[PASS] "),
        one.find("first mismatch") < one.find("[lab process]")]
elsewhere = [k for k, t in tests.items() if k != "primes" and "forged" in t["output"]]
print(" ".join(str(int(x)) for x in said), tests["primes"]["score"], sum(t["score"] >= t["max_score"] for t in tests.values()), elsewhere)' "$build/grade/marker/results.json" 2>&1)
equal "... which keeps its diagnosis, the lab process's lines marked as its own beside it, no other test reading them" \
    "$marked" "1 1 1 1 1 1 1 0.0 10 []"

handin liar 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
/* Prints and writes passing records everywhere it can: stdout, the TAP
 * descriptor, the completion record, in a constructor and a destructor. */
static void forge(void)
{
    const char *done = getenv("TILELAB_DONE_FILE");
    static const char *tests[] = {"one_by_one", "tiny_rectangles", "single_row", "single_column",
        "primes", "around_block_edges", "tall_rectangle", "wide_rectangle", "large_square",
        "large_rectangle", "random_shapes"};
    for (int i = 0; i < 11; i++) {
        char line[128];
        int n = snprintf(line, sizeof line, "ok - lab01::%s  (0.00s)\n", tests[i]);
        printf("%s", line);
        (void)!write(3, line, (size_t)n);
        int fd = done ? open(done, O_WRONLY | O_APPEND | O_NONBLOCK) : -1;
        if (fd >= 0) {
            n = snprintf(line, sizeof line, "done lab01/%s\n", tests[i]);
            (void)!write(fd, line, (size_t)n);
            close(fd);
        }
    }
}
__attribute__((constructor)) static void early(void) { forge(); }
__attribute__((destructor)) static void late(void) { forge(); }
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
    forge();
}
EOF
grade liar 01
has "forged TAP lines and completion records, from constructors and destructors, do not pass" '^0\.00/8\.00 ' parts 1

handin insider 01-cpu-naive >/dev/null <<EOF
#define _DEFAULT_SOURCE
#include "lab.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* Speaks the grader's protocol from inside, wherever it can reach: passing
 * TAP lines and completion records into every descriptor of every other
 * process, and into any FIFO named in their environments. Says what it
 * reached, and whose. */
static const char *tests[] = {"one_by_one", "tiny_rectangles", "single_row", "single_column",
    "primes", "around_block_edges", "tall_rectangle", "wide_rectangle", "large_square",
    "large_rectangle", "random_shapes"};
static void forge_into(const char *path, const char *whose)
{
    char line[128], target[256] = "";
    int fd = open(path, O_WRONLY | O_NONBLOCK);
    if (fd < 0)
        return;
    ssize_t n = readlink(path, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    fprintf(stderr, "insider: reached %s (%s) of %s\n", path, n > 0 ? target : path, whose);
    for (int i = 0; i < 11; i++) {
        int len = snprintf(line, sizeof line, "ok - lab01::%s  (0.00s)\ndone lab01/%s\n", tests[i], tests[i]);
        (void)!write(fd, line, (size_t)len);
    }
    close(fd);
}
static void forge(void)
{
    DIR *procs = opendir("/proc");
    struct dirent *e;
    char path[300], env[8192], whose[64];
    while (procs && (e = readdir(procs))) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%d/comm", pid);
        FILE *c = fopen(path, "r");
        if (!c || !fgets(whose, sizeof whose, c))
            snprintf(whose, sizeof whose, "?");
        whose[strcspn(whose, "\n")] = '\0';
        if (c)
            fclose(c);
        for (int fd = 0; fd < 32; fd++) {
            snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
            forge_into(path, whose);
        }
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        int r = open(path, O_RDONLY);
        ssize_t n = r >= 0 ? read(r, env, sizeof env - 1) : -1;
        for (ssize_t at = 0; n > 0 && at < n; at += (ssize_t)strlen(env + at) + 1) {
            env[n] = '\0';
            if (!strncmp(env + at, "TILELAB_DONE_FILE=", 18))
                forge_into(env + at + 18, whose);
        }
        if (r >= 0)
            close(r);
    }
    if (procs)
        closedir(procs);
}
__attribute__((constructor)) static void early(void) { forge(); }
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
    forge();
}
EOF
grade insider 01
has "lab code that writes passing records into every descriptor of every process it can open does not pass" '^0\.00/8\.00 ' parts 1
summary=$build/grade/insider/results.json
refute "... it reaches no descriptor of the suite's own processes (not dumpable: its code runs in a process of its own)" \
    'insider: reached [^ ]* \([^)]*\) of test'
refute "... nor the completion records' FIFO" 'insider: reached [^ ]*done.fifo'
expect "... only the sandbox's first process's output, which decides nothing" \
    'insider: reached /proc/1/fd/1 \(pipe:\[[0-9]+\]\) of bwrap'

handin hoarder 01-cpu-naive >/dev/null <<EOF
#define _DEFAULT_SOURCE
#include "lab.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
/* Lifts its file-size limit if it can, then makes a 600 MiB file (sparse: no disk used). */
void transpose(float *out, const float *in, int rows, int cols)
{
    struct rlimit all = {RLIM_INFINITY, RLIM_INFINITY};
    setrlimit(RLIMIT_FSIZE, &all);
    int fd = open("/tmp/hoard", O_CREAT | O_WRONLY, 0600);
    if (fd >= 0 && ftruncate(fd, 600L << 20) == 0)
        printf("hoarder: wrote 600 MiB\n");
    $transpose_body
}
EOF
grade hoarder 01
summary=$build/grade/hoarder/results.json
refute "a lab's code cannot lift the file-size limit, nor write a file past it" "hoarder: wrote 600 MiB"
expect "... its process is stopped there, and the test says so" "killed by File size limit exceeded"
if (ulimit -S -f 65536 && "$build/lab01/reference/test" --filter 'lab01/large_square') >"$tmp/soft.txt" 2>&1; then
    ok "... while a suite shares matrices larger than a soft cap with its lab process (4096 x 4096 under 64 MiB, as 8192 x 8192 on a GPU under the grader's 512 MiB)"
else
    not_ok "a suite under a soft file-size cap cannot share its matrices" "$tmp/soft.txt"
fi

# Disk: a 1 KB lab file whose build writes a large initialized array into
# every object and program. Past the limit of one file, the build stops;
# under it, the folder's quota; and no build folder is kept once graded.
bigarray() { # MiB
    cat <<EOF
#include "lab.h"
#include <stddef.h>
static float big[$1 << 18] = {1.0f};
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    big[rows % 7] += out[0];
}
EOF
}
bigarray 96 | handin bigfile 01-cpu-naive >/dev/null
grade bigfile 01
has "a build that writes a file past 64 MiB is stopped, and scores 0" '^build failed$' lab 1
has "... and is told why" 'the build wrote a file larger than 64 MiB' output 1
bigarray 12 | handin bigfolder 01-cpu-naive >/dev/null
TILELAB_GRADE_DISK_LIMIT=$((32 << 20)) grade bigfolder 01
has "a hand-in whose builds outgrow the folder's quota scores 0 for that lab" '^build failed$' lab 1
has "... and is told why" 'wrote [0-9]+ MiB to disk, more than the 32 MiB' output 1
used=$(du -sm "$build/grade/bigfolder" | cut -f1)
if [ "$used" -lt 8 ]; then ok "... and nothing of its build is left (${used} MiB)"; else not_ok "the over-quota build left ${used} MiB" /dev/null; fi
# Memory: a lab file that takes far more than any test needs is refused it,
# process by process, rather than taking the grading machine's.
handin hog 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)6 << 30;
    char *p = malloc(n);
    if (p)
        memset(p, 1, n);
    fprintf(stderr, "hog: %s\n", p ? "took 6 GiB" : "refused 6 GiB");
    free(p);
    $transpose_body
}
EOF
grade hog 01
if grep -rqs 'hog: refused 6 GiB' "$build/grade/hog/outputs" && ! grep -rqs 'hog: took' "$build/grade/hog/outputs"; then
    ok "a lab file that asks for 6 GiB is refused it (each process of a test holds 4 GiB at most)"
else
    not_ok "the hog's 6 GiB: $(grep -rhos 'hog: [a-z]* 6 GiB' "$build/grade/hog/outputs" | sort | uniq -c | tr '\n' ' ')" "$summary"
fi
has "... and it is graded for what it does" '^8\.00/8\.00 ' parts 1

KEEP_BUILD= grade textbook2 02
if [ -s "$build/grade/textbook2/summary.txt" ] && [ ! -e "$build/grade/textbook2/build" ] &&
    [ ! -e "$build/grade/textbook2/outputs" ]; then
    ok "no hand-in's build folder is kept once it is graded, unless KEEP_BUILD=1 asks"
else
    not_ok "build folders kept: $(ls -d "$build"/grade/*/build 2>/dev/null | head -3)" /dev/null
fi

handin impostor 01-cpu-naive >/dev/null <<EOF
#include "check.h"
#include "lab.h"
#include <string.h>
#include <stddef.h>
void tl_check_transpose(tl_verdict *v, tl_transpose_fn fn, const tl_backend *b, tl_shape s, uint64_t seed)
{
    (void)fn, (void)b, (void)s, (void)seed;
    memset(v, 0, sizeof *v);
    v->ok = 1;
}
__attribute__((weak)) int memcmp(const void *a, const void *b, size_t n) { (void)a, (void)b, (void)n; return 0; }
__attribute__((weak)) void tl_fill_random(float *p, size_t n, uint64_t seed) { (void)p, (void)n, (void)seed; }
void transpose(float *out, const float *in, int rows, int cols) { (void)out, (void)in, (void)rows, (void)cols; }
EOF
grade impostor 01
has "replacing the harness's functions, strong or weak (memcmp), does not pass" '^0\.00/8\.00 ' parts 1

handin borrower 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
extern void reference_transpose(float *, const float *, int, int) __attribute__((weak));
void transpose(float *out, const float *in, int rows, int cols)
{
    if (reference_transpose)
        reference_transpose(out, in, rows, cols);
}
EOF
grade borrower 01
has "a lab file that calls the reference (weakly) is refused" '^0\.00/8\.00 ' parts 1
expect "... and told why" "refers to the reference's own code"

# daemon_writing FILE TEXT: C for a constructor, a daemon that outlives its
# process and every second writes TEXT into FILE, and "daemon" into $pwned.
daemon_writing() {
    cat <<EOF
    if (fork() == 0) {
        setsid();
        for (;;) {
            FILE *f = fopen("$1", "w");
            if (f) fputs("$2", f), fclose(f);
            f = fopen("$pwned", "w");
            if (f) fputs("daemon", f), fclose(f);
            sleep(1);
        }
    }
EOF
}
handin lister 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <stddef.h>
/* At start-up, even when only listed: copy the reference out, write outside,
 * and leave a daemon behind that rewrites everyone's results. */
__attribute__((constructor)) static void early(void)
{
    FILE *in = fopen("$root/solutions/01-cpu-naive/transpose.c", "r"), *out = fopen("$pwned", "w");
    if (out) fputs(in ? "read the reference" : "wrote outside", out);
$(daemon_writing "$build/grade/lister/summary.txt" '1 8.00 / 8.00\n')
}
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
EOF
grade lister 01
nothing_at "code run at start-up reads nothing hidden and writes nothing outside the sandbox" "$pwned"
within "... its forked daemon stalls nothing" 120
sleep 2
nothing_at "... and dies with its sandbox" "$pwned"
has "... and the hand-in is graded for what it does: correct, but its extra process is not measured" '^8\.00/8\.00 [^ ]+ 0\.00/2\.00 ' parts 1
has "... which it is told" '^not measured forbidden-call$' perf 1

handin snoop 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
/* Behaves, unless it can read the reference or the held-back cases, write the results or see a network. */
void transpose(float *out, const float *in, int rows, int cols)
{
    FILE *f;
    struct ifaddrs *ifs;
    char line[64];
    /* Peel off what hides them (a grader run as root must not leave the power to). */
    umount2("$root/solutions", MNT_DETACH);
    umount2("$build/grade", MNT_DETACH);
    if ((f = fopen("$root/solutions/01-cpu-naive/transpose.c", "r")) ||
        (f = fopen("$build/grade/snoop/outcomes.tsv", "a")) ||
        (f = fopen("$build/grade/snoop/summary.txt", "w")) ||
        (f = fopen("$absbuild/grade-build/prebuilt/lab01-cpu.o", "r")) ||
        (f = fopen("$absbuild/lab01/reference/lab.o", "r")))
        abort();
    if ((f = fopen("$tmp/held-back.txt", "r")) && fgets(line, sizeof line, f))
        abort();
    if (getifaddrs(&ifs) == 0)
        for (struct ifaddrs *i = ifs; i; i = i->ifa_next)
            if (strcmp(i->ifa_name, "lo") != 0)
                abort(); /* an interface besides the sandbox's own loopback */
    $transpose_body
}
EOF
grade snoop 01 "$tmp/held-back.txt"
has "the sandbox hides the reference (source and objects), the held-back cases, the records and the network" '^8\.00/8\.00 .* 10\.00/10\.00$' parts 1

handin leak 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
/* Keeps what the held-back runs were given, and prints it in the visible ones. */
void transpose(float *out, const float *in, int rows, int cols)
{
    const char *places[] = {"$build/grade/leak/build/leak.txt", "/tmp/leak.txt", "$tmp/leak.txt"};
    const char *seed = getenv("TILELAB_SEED"), *shapes = getenv("TILELAB_HIDDEN");
    char line[256];
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(places[i], "r");
        if (f && fgets(line, sizeof line, f))
            fprintf(stderr, "LEAKED %s\n", line);
        if (f) fclose(f);
        f = fopen(places[i], "a");
        if (f) fprintf(f, "seed=%s shapes=%s\n", seed ? seed : "", shapes ? shapes : ""), fclose(f);
    }
    $transpose_body
}
EOF
grade leak 01 "$tmp/held-back.txt"
grep '"visibility": "visible"' "$build/grade/leak/results.json" >"$tmp/visible.json"
summary=$tmp/visible.json
refute "held-back seeds and shapes never reach a visible test's output" "4242|97x131"
nothing_at "... nor a file outside" "$tmp/leak.txt"

# Held-back cases stay out of the lab's reach, in both sandboxes: a lab 1 that
# looks for them in every call (its environment, every command line and
# environment in /proc it can read, and what an earlier command kept where
# every user may write: /var/tmp, /run/lock, /dev/shm, /tmp, a message
# queue), keeps each call's shape there, and gets a call wrong where it
# found one (97x131, or the seed 4242). Graded twice with the held-back
# cases, its grading folder under /tmp (which the setpriv sandbox's private
# /tmp once hid: every hand-in scored 0, "No rule to make target"), it earns
# every point both times. (Its own command is told apart by its PID
# namespace, one a command in either sandbox.)
heldprobe_key=$((0x7e1d0000 + $$ % 65536))
heldprobe() { # NAME: the hand-in
    handin "$1" 01-cpu-naive >/dev/null <<EOF
#define _GNU_SOURCE
#include "lab.h"
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/stat.h>
#include <unistd.h>
static const char *const kept[] = {"/var/tmp/$1-$$", "/run/lock/$1-$$", "/dev/shm/$1-$$", "/tmp/$1-$$"};
struct note { long type; char text[128]; };
static char me[64];
/* A trace of the held-back cases in a file (a record of another command's, for a kept one). */
static int found_in(const char *path, int kept_here)
{
    static char text[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i++)
        text[i] = text[i] ? text[i] : '\n';
    text[n] = '\0';
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if ((strstr(l, "97x131") || strstr(l, "TILELAB_SEED=4242") || strstr(l, "TILELAB_HIDDEN")) &&
            !(kept_here && !strncmp(l, me, strlen(me))))
            return 1;
    return 0;
}
static int found(void)
{
    int seen = getenv("TILELAB_HIDDEN") || getenv("TILELAB_SEED");
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && !seen && (e = readdir(d));) {
        char path[300];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        seen = found_in(path, 0);
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        seen = seen || found_in(path, 0);
    }
    if (d)
        closedir(d);
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        seen = seen || found_in(kept[i], 1);
    struct note m;
    int q = msgget($heldprobe_key, 0);
    while (q >= 0 && msgrcv(q, &m, sizeof m.text, 0, IPC_NOWAIT) > 0)
        seen = seen || (strstr(m.text, "97x131") && strncmp(m.text, me, strlen(me)));
    return seen;
}
static void keep(int rows, int cols)
{
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        FILE *f = fopen(kept[i], "a");
        if (f)
            fprintf(f, "%s %dx%d\n", me, rows, cols), fclose(f), chmod(kept[i], 0666);
    }
    struct note m = {1, ""};
    snprintf(m.text, sizeof m.text, "%s %dx%d", me, rows, cols);
    int q = msgget($heldprobe_key, IPC_CREAT | 0666);
    if (q >= 0)
        msgsnd(q, &m, strlen(m.text) + 1, IPC_NOWAIT);
}
void transpose(float *out, const float *in, int rows, int cols)
{
    ssize_t n = readlink("/proc/self/ns/pid", me, sizeof me - 1); /* this command's */
    me[n > 0 ? n : 0] = '\0';
    int seen = found();
    keep(rows, cols);
    $transpose_body
    if (seen && rows > 0 && cols > 0)
        out[0] = in[0] == 1.0f ? 2.0f : 1.0f;
}
EOF
}
# grade_twice NAME SANDBOX: NAME graded twice in SANDBOX (bwrap: the default) with the held-back
# cases, into a folder under /tmp each time
grade_twice() {
    local i
    heldprobe "$1"
    for i in 1 2; do
        TILELAB_GRADE_SANDBOX=$2 make -s grade LABS=01 SUBMISSION="$tmp/$1" HIDDEN="$tmp/held-back.txt" \
            GRADE_DIR="$tmp/graded-$i" >"$tmp/$1-$i.log" 2>&1
    done
}
# every_point_twice WHAT NAME: both gradings of NAME earned lab 1's every point
every_point_twice() {
    local first second
    first=$(points "$tmp/graded-1/$2") second=$(points "$tmp/graded-2/$2")
    if [ "$first" = 10.00 ] && [ "$second" = 10.00 ]; then
        ok "$1 (10.00 twice)"
    else
        not_ok "$1: ${first:-nothing}, then ${second:-nothing}, of 10.00" "$tmp/graded-2/$2/summary.txt"
    fi
    rm -f /var/tmp/"$2"-$$ /run/lock/"$2"-$$ /dev/shm/"$2"-$$ /tmp/"$2"-$$
    ipcrm -Q "$heldprobe_key" 2>/dev/null
}
grade_twice heldbwrap bwrap
every_point_twice "a lab that looks for the held-back cases everywhere it can read, and keeps what it is given where the next grading could read it, never finds one (bubblewrap)" heldbwrap

# A test plants a FIFO where the next lab's build reads: the build folder is read-only to tests.
handin plant 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <sys/stat.h>
#include <unistd.h>
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    mkdir("$build/grade/plant/build/lab02", 0777);
    mkdir("$build/grade/plant/build/lab02/student", 0777);
    unlink("$build/grade/plant/build/lab02/student/flags");
    mkfifo("$build/grade/plant/build/lab02/student/flags", 0666);
    $transpose_body
}
EOF
grade plant "01 02"
has "a FIFO planted by one lab's test cannot hang the next lab's build" '^6\.00/6\.00 ' parts 2
within "... and grading finishes in bounded time" 240

handin copycat 01-cpu-naive >/dev/null <<EOF
#include "$root/solutions/01-cpu-naive/transpose.c"
EOF
grade copycat 01
has "including the reference source does not build" '^build failed$' lab 1

# A class kept inside the kit's folder, as README lays hand-ins out: a hand-in
# that includes a classmate's file, by a path from its own or from the kit's.
kitclass=$(mktemp -d "$root/handins.XXXXXX")
trap 'rm -rf "$tmp" "$kitclass"' EXIT
classmates() { # SANDBOX: grade x, whose lab 1 includes y's
    rm -rf "${kitclass:?}"/* "$build/grade/x"
    mkdir -p "$kitclass/x/labs/01-cpu-naive" "$kitclass/y/labs/01-cpu-naive"
    cp solutions/01-cpu-naive/transpose.c "$kitclass/y/labs/01-cpu-naive/"
    local up=../../../../../../${kitclass#"$root"/}/y/labs/01-cpu-naive/transpose.c
    printf '#if __has_include("%s")\n#include "%s"\n#else\n#include "%s"\n#endif\n' "$up" "$up" \
        "$kitclass/y/labs/01-cpu-naive/transpose.c" >"$kitclass/x/labs/01-cpu-naive/transpose.c"
    summary=$build/grade/x/summary.txt
    TILELAB_GRADE_SANDBOX=$1 make -s grade LABS=01 SUBMISSION="$kitclass/x" >"$tmp/x.log" 2>&1
    has "a hand-in kept in the kit's folder cannot include a classmate's kept beside it ($1)" '^build failed$' lab 1
    expect "... the file is not there for it, or not readable" "No such file or directory|Permission denied"
}
classmates bwrap

# Another copy of the kit on the machine (an instructor's second checkout):
# the sandbox shows the system's folders and the grader's tools, not it.
other=$(mktemp -d "$(dirname "$root")/.tilelab-other-checkout.XXXXXX")
trap 'rm -rf "$tmp" "$other" "$kitclass"' EXIT
mkdir -p "$other/solutions/01-cpu-naive" && cp solutions/01-cpu-naive/transpose.c "$other/solutions/01-cpu-naive/"
handin othercopy 01-cpu-naive >/dev/null <<EOF
#include "$other/solutions/01-cpu-naive/transpose.c"
EOF
grade othercopy 01
has "including another checkout's reference source does not build" '^build failed$' lab 1
handin otherread 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
__attribute__((constructor)) static void peek(void)
{
    FILE *f = fopen("$other/solutions/01-cpu-naive/transpose.c", "r");
    printf("other checkout: %s\n", f ? "READ" : "not there");
}
$(sed -n '/^void transpose/,$p' solutions/01-cpu-naive/transpose.c)
EOF
grade otherread 01
summary=$build/grade/otherread/outputs
if grep -rq "other checkout: not there" "$summary" && ! grep -rq "other checkout: READ" "$summary"; then
    ok "... nor can a hand-in read it while its tests run"
else
    not_ok "a hand-in read another checkout's solutions: $(grep -rh 'other checkout' "$summary" | sort -u | head -2)"
fi
summary=$build/grade/otherread/summary.txt

handin objcopycat 01-cpu-naive >/dev/null <<EOF
__asm__(".section .rodata\n.incbin \"$absbuild/grade-build/prebuilt/lab01-cpu.o\"\n.text");
void transpose(float *out, const float *in, int rows, int cols) { (void)out, (void)in, (void)rows, (void)cols; }
EOF
grade objcopycat 01
has "embedding the compiled reference does not build either" '^build failed$' lab 1

# The hand-in's build folder holds, beside its own builds, the programs its measurements
# link with the reference (grade-perf-reference, grade-profile, grade-bench) and the
# reference's objects, made while its other labs' tests run. A CPU lab's code (unconfined)
# that looked there read the reference's machine code and printed it in its test's output
# (a cheating helper, 2026-11-29): a test's run sees its labs' student builds alone.
handin buildpeek 02-cpu-blocked >/dev/null <<'EOF'
#define _GNU_SOURCE
#include "lab.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
/* The first file under the build's lab folders, outside their student* builds, that opens. */
static int peek(const char *build)
{
    char p[8192];
    DIR *top = opendir(build);
    struct dirent *lab, *e;
    while (top && (lab = readdir(top))) {
        snprintf(p, sizeof p, "%s/%s", build, lab->d_name);
        DIR *d = strncmp(lab->d_name, "lab", 3) ? NULL : opendir(p);
        while (d && (e = readdir(d))) {
            snprintf(p, sizeof p, "%s/%s/%s", build, lab->d_name, e->d_name);
            int fd = strncmp(e->d_name, "student", 7) && e->d_name[0] != '.' ? open(p, O_RDONLY) : -1;
            if (fd >= 0 && read(fd, p, 4) == 4) {
                printf("buildpeek: READ %s/%s\n", lab->d_name, e->d_name);
                return 1;
            }
        }
    }
    return 0;
}
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    if (rows != 1 || cols != 1)
        return;
    char build[4096] = {0};
    if (readlink("/proc/self/exe", build, sizeof build - 1) <= 0)
        return;
    for (int up = 0; up < 3; up++) /* build/lab02/student/lab-runner */
        *strrchr(build, '/') = '\0';
    /* lab 1's measurement, graded beside this lab, links the reference meanwhile */
    for (int i = 0; i < 60 && !peek(build); i++)
        sleep(1);
    printf("buildpeek: looked\n");
}
EOF
mkdir -p "$tmp/buildpeek/labs/01-cpu-naive" && cp solutions/01-cpu-naive/transpose.c "$tmp/buildpeek/labs/01-cpu-naive/"
grade buildpeek "01 02"
peeked=$build/grade/buildpeek/outputs
if grep -rq "buildpeek: looked" "$peeked" && ! grep -rq "buildpeek: READ" "$peeked"; then
    ok "a lab's code cannot read the reference's programs and objects in its hand-in's build"
else
    not_ok "a lab's code read the hand-in's build beyond its own: $(grep -rh 'buildpeek: ' "$peeked" | sort -u | head -3 | tr '\n' ' ')" "$build/grade/buildpeek/summary.txt"
fi

# ... nor can a lab's compile embed them: graded one lab at a time (GRADE_JOBS=1, a grader
# of one core), lab 2 is built after lab 1's measurement linked the reference's program.
handin incbinpeek 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
__asm__(".section .rodata\n.globl peek_start\npeek_start:\n"
        ".incbin \"$absbuild/grade/incbinpeek/build/lab01/grade-perf-reference\"\n"
        ".globl peek_end\npeek_end:\n.text");
extern const unsigned char peek_start[], peek_end[];
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    printf("incbinpeek: %zu bytes\n", (size_t)(peek_end - peek_start));
}
EOF
mkdir -p "$tmp/incbinpeek/labs/01-cpu-naive" && cp solutions/01-cpu-naive/transpose.c "$tmp/incbinpeek/labs/01-cpu-naive/"
GRADE_JOBS=1 && export GRADE_JOBS
grade incbinpeek "01 02"
unset GRADE_JOBS
if grep -rqE "incbinpeek: [1-9]" "$build/grade/incbinpeek/outputs"; then
    not_ok "a lab's compile embedded the reference's program: $(grep -rhoE 'incbinpeek: [0-9]+ bytes' "$build/grade/incbinpeek/outputs" | head -1)" "$summary"
else
    ok "... nor embed them at its compile, built after another lab was measured"
fi

# A lab process that stops itself (SIGSTOP, a signal to itself) uses no CPU time: only the
# clock's limits ended each test's call, and lab 1 was still grading after 14 minutes
# (a cheating helper, 2026-11-29). The client sees it stopped, ends it and says so.
handin stopsself 01-cpu-naive >/dev/null <<'EOF'
#include "lab.h"
#include <signal.h>
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    raise(SIGSTOP);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
EOF
grade stopsself 01
expect "a lab process that stops itself is told so" "the lab process stopped itself"
within "... at once, not at the clock's limits" 60

# Lab 2's loop run in a second thread is counted all the same.
handin threaded 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <pthread.h>
#include <stddef.h>
struct job { float *out; const float *in; int rows, cols; };
static void *work(void *p)
{
    struct job *j = p;
    float *out = j->out;
    const float *in = j->in;
    int rows = j->rows, cols = j->cols;
    $transpose_body
    return NULL;
}
void transpose(float *out, const float *in, int rows, int cols)
{
    struct job j = {out, in, rows, cols};
    pthread_t t;
    pthread_create(&t, NULL, work, &j);
    pthread_join(t, NULL);
}
EOF
grade threaded 02
has "a naive loop in a second thread is measured as the naive loop it is" '^[^ ]+ [^ ]+ (0|1)\.[0-9]+/4\.00 ' parts 2
# Its misses are its own: nothing read across rows after the call blurs them
# (a check element by element once added a naive transpose's misses to every
# hand-in's, and this loop measured 0.56 of the reference; it is near 0.18).
has "... with what was measured, a fraction of the reference's ratio" '^measured 0\.[0-2][0-9]*$' perf 2

# Hand-ins that try to be measured for work done where the cache simulation
# cannot see it. The first two tell valgrind's run from the tests' by LD_PRELOAD.
under_valgrind='#include <stdlib.h>
#include <string.h>
static int measured(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload");
}'
# 1. Touch every line once, in order, and leave before anything checks.
handin leaves 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <unistd.h>
$under_valgrind
void transpose(float *out, const float *in, int rows, int cols)
{
    if (measured()) {
        for (size_t i = 0; i < (size_t)rows * cols; i++)
            out[i] = in[i];
        _exit(0);
    }
    $transpose_body
}
EOF
grade leaves 2 # LABS as an instructor may type it
has "a hand-in that leaves the measured run early passes its tests" '^6\.00/6\.00 ' parts 2
has "... but is not measured" '^0\.00/4\.00 ' test 2 performance
has "... and is told why" '^not measured ended-early$' perf 2
# 2. The same, printing the line the measuring program prints when done.
handin fakedone 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
$under_valgrind
void transpose(float *out, const float *in, int rows, int cols)
{
    if (measured()) {
        for (size_t i = 0; i < (size_t)rows * cols; i++)
            out[i] = in[i];
        puts("transposed: 0123456789abcdef");
        fflush(stdout);
        _exit(0);
    }
    $transpose_body
}
EOF
grade fakedone 02
has "one that prints the measuring program's last line itself is not measured" '^0\.00/4\.00 ' test 2 performance
has "... since it cannot know what the line says for this input" '^not measured wrong-result$' perf 2
# 3. A child process transposes and the answer comes back through a pipe:
#    the kernel's writes into out are counted nowhere. (Measured, no pipe can
#    be made, grade_perf_confine.c; the fork is tried all the same.)
handin forked 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void work(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
void transpose(float *out, const float *in, int rows, int cols)
{
    size_t bytes = (size_t)rows * cols * sizeof *out;
    int fd[2];
    pid_t child;
    if (pipe(fd) != 0)
        fd[0] = fd[1] = -1;
    if ((child = fork()) < 0 || (child > 0 && fd[0] < 0)) {
        if (child > 0)
            waitpid(child, NULL, 0);
        work(out, in, rows, cols);
        return;
    }
    if (child == 0) {
        float *t = malloc(bytes);
        if (fd[1] < 0)
            _exit(1);
        work(t, in, rows, cols);
        for (size_t done = 0; done < bytes;) {
            ssize_t w = write(fd[1], (char *)t + done, bytes - done);
            if (w <= 0)
                _exit(1);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    for (size_t done = 0; done < bytes;) {
        ssize_t got = read(fd[0], (char *)out + done, bytes - done);
        if (got <= 0)
            break;
        done += (size_t)got;
    }
    close(fd[0]);
    waitpid(child, NULL, 0);
}
EOF
grade forked 02
has "a hand-in that transposes in a child process passes its tests" '^6\.00/6\.00 ' parts 2
has "... but is stopped when measured, and not measured" '^0\.00/4\.00 ' test 2 performance
has "... and is told why" '^not measured forbidden-call$' perf 2

# Work the kernel does where neither the cache simulation nor /proc/self/io
# looks: each row of in sent through a socket and received one element an
# iovec down a column of out (recvmsg), with one ordered pass over each
# matrix to keep its misses above what any transpose makes. Against its
# honest control, lab 1's loop handed in as lab 2. The measured run allows
# only what a transpose and valgrind need (grade_perf_confine.c): no socket.
handin naive2 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
EOF
grade naive2 02
handin sockmsg 02-cpu-blocked >/dev/null <<EOF
#define _GNU_SOURCE
#include "lab.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
static void naive(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
/* Row r of in into column r of out, by the kernel: 0, or -1. */
static int through(const int s[2], float *out, const float *in, int rows, int cols, int r)
{
    static struct iovec column[1024];
    for (int c = 0; c < cols; c += 1024) {
        int k = cols - c < 1024 ? cols - c : 1024;
        ssize_t bytes = (ssize_t)(k * sizeof *in);
        if (send(s[0], in + (size_t)r * cols + c, (size_t)bytes, 0) != bytes)
            return -1;
        for (int j = 0; j < k; j++)
            column[j] = (struct iovec){out + (size_t)(c + j) * rows + r, sizeof *out};
        struct msghdr m = {.msg_iov = column, .msg_iovlen = (size_t)k};
        if (recvmsg(s[1], &m, 0) != bytes)
            return -1;
    }
    return 0;
}
void transpose(float *out, const float *in, int rows, int cols)
{
    int s[2];
    size_t n = (size_t)rows * cols;
    volatile float sink = 0;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, s) != 0) {
        naive(out, in, rows, cols);
        return;
    }
    for (size_t i = 0; i < n; i += 16)
        sink += in[i];
    for (size_t i = 0; i < n; i += 16)
        out[i] = 0;
    for (int r = 0; r < rows; r++)
        if (through(s, out, in, rows, cols, r) != 0) {
            naive(out, in, rows, cols);
            break;
        }
    close(s[0]);
    close(s[1]);
}
EOF
grade sockmsg 02
has "a lab 2 that has the kernel transpose through a socket passes its tests" '^6\.00/6\.00 ' parts 2
at_most "... but scores no more than its honest control, the naive loop" "$build/grade/sockmsg" "$build/grade/naive2"

# A name in the lab file that carries a line break into callgrind's output:
# a #line directive whose file name holds a second events: line, which
# renames the columns (the strided writes' misses to a column the grader
# does not read), and two ordered reads of in to fill the one it then reads
# as the writes'. Measured, the lab's file and function names are gone.
handin cgline 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#line 20 "transpose.c\nevents: Ir Dr Dw DLmw D1mw Spare1 DLmr Spare2 D1mr\nfl=(7) transpose.c"
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    volatile float sink = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < (size_t)rows * cols; i += 16)
            sink += in[i];
}
EOF
grade cgline 02
has "a lab 2 that names its source with a line break passes its tests" '^6\.00/6\.00 ' parts 2
at_most "... but scores no more than its honest control, the naive loop" "$build/grade/cgline" "$build/grade/naive2"

# grade-confine itself: its own exec goes through, the program's next is stopped.
{ "$build/grade-confine" /bin/sh -c '/bin/true; :'; } 2>/dev/null # the shell's "Bad system call" kept off
confined=$?
if "$build/grade-confine" /bin/true && [ "$confined" -eq 159 ]; then
    ok "grade-confine runs its program, and kills it (SIGSYS, 128 + 31) when it starts another"
else
    not_ok "grade-confine did not run /bin/true, or let /bin/sh start /bin/true (status $confined)" /dev/null
fi

# A naive lab 2 that tells callgrind to forget what it counted: with
# callgrind.h's macro, and with the same client request written into an
# executable page at run time, where no scan of the object can see it.
handin zerostats 02-cpu-blocked >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
#include <valgrind/callgrind.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    CALLGRIND_ZERO_STATS;
}
EOF
grade zerostats 02
has "valgrind's client requests in a lab file are refused" '^build failed$' lab 2
expect "... with the reason" "the lab file holds valgrind's client-request instructions"
# callgrind's client request CODE (1 ZERO_STATS, 2 TOGGLE_COLLECT), written at run time
# into an executable page, each byte XOR 0x5a in the file: mov %rdi,%rax; xor %edx,%edx;
# the preamble (rolq $3, $13, $61, $51 of %rdi); xchg %rbx,%rbx; mov %rdx,%rax; ret.
jit_request='#define _DEFAULT_SOURCE
#include "lab.h"
#include <stddef.h>
#include <sys/mman.h>
static const unsigned char hidden[] = {0x12, 0xd3, 0xa2, 0x6b, 0x88, 0x12, 0x9b, 0x9d, 0x59, 0x12, 0x9b,
                                       0x9d, 0x57, 0x12, 0x9b, 0x9d, 0x67, 0x12, 0x9b, 0x9d, 0x69, 0x12,
                                       0xdd, 0x81, 0x12, 0xd3, 0x8a, 0x99};
static volatile unsigned char key = 0x5a; /* volatile: gcc cannot decode the bytes itself */
static void request(unsigned long code)
{
    unsigned char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return;
    for (size_t i = 0; i < sizeof hidden; i++)
        page[i] = hidden[i] ^ key;
    unsigned long args[6] = {(0x43UL << 24 | 0x54UL << 16) + code}; /* the tool base of callgrind: C, T */
    ((unsigned long (*)(unsigned long *))page)(args);
}'
handin zerojit 02-cpu-blocked >/dev/null <<EOF
$jit_request
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
    request(1);
}
EOF
grade zerojit 02
has "a client request made at run time still passes the tests" '^6\.00/6\.00 ' parts 2
has "... but the counts that went down earn no performance points" '^0\.00/4\.00 ' test 2 performance
expect "... and the summary says why" "counted fewer [A-Za-z0-9]+ \([0-9]+\) than the same program without your call"
handin pausejit 02-cpu-blocked >/dev/null <<EOF
$jit_request
void transpose(float *out, const float *in, int rows, int cols)
{
    request(2); /* collection off */
    $transpose_body
    request(2); /* and on again */
}
EOF
grade pausejit 02
has "a call during which the simulation was paused earns no performance points" '^0\.00/4\.00 ' test 2 performance
expect "... and the summary says why" "fewer than the [0-9]+ lines of the matrix it must touch"

# Where bubblewrap cannot run (a container without user namespaces, as
# Gradescope's may be) and the grader is root, student code runs as a user
# of its own (setpriv). A hand-in that, from a constructor, reads the
# solutions and the compiled references, writes the grader's records and
# another hand-in's results, and leaves a daemon that rewrites them.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    wait "$references_graded" # its summary: what the daemon below tries to rewrite
    others=$build/grade/references/summary.txt
    cp "$others" "$tmp/references-summary.txt"
    handin rootless 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
#include <unistd.h>
static void attempt(const char *what, const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    printf("%s: %s\n", what, f ? "DONE" : "refused");
    if (f && *mode == 'w')
        fputs("1 8.00 / 8.00\n", f);
    if (f)
        fclose(f);
}
__attribute__((constructor)) static void early(void)
{
    attempt("read the solutions", "$root/solutions/01-cpu-naive/transpose.c", "r");
    attempt("read a compiled reference", "$absbuild/grade-build/prebuilt/lab01-cpu.o", "r");
    attempt("wrote the records", "$absbuild/grade/rootless/outcomes.tsv", "a");
    attempt("wrote another's results", "$others", "w");
$(daemon_writing "$others" daemon)
}
void transpose(float *out, const float *in, int rows, int cols)
{
    $transpose_body
}
EOF
    rm -f "$pwned"
    TILELAB_GRADE_SANDBOX=setpriv grade rootless 01
    has "without bubblewrap, as root: the grader says how it sandboxed" '^setpriv$' sandbox
    has "... and grades its lab for what it does: correct, its extra process not measured" '^8\.00/8\.00 0\.00/0\.00 0\.00/2\.00 ' parts 1
    outputs=$build/grade/rootless/outputs
    if grep -rqh "refused" "$outputs" && ! grep -rqh ": DONE" "$outputs"; then
        ok "... while its code reads no solution or reference and writes no record or result"
    else
        not_ok "the hand-in did, as its own user: $(grep -rh ': DONE' "$outputs" | sort -u | tr '\n' ' ')" /dev/null
    fi
    sleep 2
    if cmp -s "$others" "$tmp/references-summary.txt" && [ ! -e "$pwned" ]; then
        ok "... and its daemon died with each command"
    else
        not_ok "the daemon outlived its command: $(head -c 100 "$others"; cat "$pwned" 2>/dev/null)" /dev/null
    fi
    if [ "$(stat -c %a "$root/solutions")" = "$(stat -c %a "$root/harness")" ]; then
        ok "... and the folders it closed are open again afterwards"
    else
        not_ok "the grader left $root/solutions mode $(stat -c %a "$root/solutions")" /dev/null
    fi
    classmates setpriv
    grade_twice heldsetpriv setpriv
    every_point_twice "a lab that looks for the held-back cases everywhere it can read, and keeps what it is given where the next grading could read it, never finds one (setpriv)" heldsetpriv
    # Two hand-ins graded at once: each as a uid of its own, and the end of
    # one's commands (every process of its uid killed) ends none of the other's.
    # Each looks for the other as it runs: the graders' logs, which name every
    # hand-in and its score, and the processes on the machine whose command
    # line names the other (a grader's does).
    rm -rf "$tmp/pair" && mkdir -p "$tmp/pair/slow/labs/01-cpu-naive" "$tmp/pair/quick/labs/01-cpu-naive"
    for h in slow quick; do
        cat >"$tmp/pair/$h/labs/01-cpu-naive/transpose.c" <<EOF
#define _DEFAULT_SOURCE
#include "lab.h"
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void look_for(const char *other)
{
    int logs = 0, seen = 0;
    DIR *d = opendir("$absbuild/grade/logs");
    for (struct dirent *e; d && (e = readdir(d));)
        logs += e->d_name[0] != '.';
    if (d)
        closedir(d);
    d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300], line[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < n; i++)
            line[i] = line[i] ? line[i] : ' ';
        line[n] = 0;
        seen += strstr(line, other) != NULL;
    }
    if (d)
        closedir(d);
    fprintf(stderr, "$h spied: %d logs listed, %d processes naming %s\n", logs, seen, other);
}
void transpose(float *out, const float *in, int rows, int cols)
{
    fprintf(stderr, "$h runs as uid %d\n", (int)getuid());
    look_for("$([ $h = slow ] && echo pair/quick || echo pair/slow)");
    usleep($([ $h = slow ] && echo 300000 || echo 0));
    $transpose_body
}
EOF
    done
    TILELAB_GRADE_SANDBOX=setpriv make -s grade-all LABS=01 SUBMISSIONS="$tmp/pair" KEEP_BUILD=1 >"$tmp/pair.log" 2>&1
    slow_uid=$(grep -rhom1 'slow runs as uid [0-9]*' "$build/grade/slow/outputs" | head -1)
    quick_uid=$(grep -rhom1 'quick runs as uid [0-9]*' "$build/grade/quick/outputs" | head -1)
    if [ -n "$slow_uid" ] && [ -n "$quick_uid" ] && [ "${slow_uid##* }" != "${quick_uid##* }" ]; then
        ok "two hand-ins graded at once run as two uids (${slow_uid##* }, ${quick_uid##* })"
    else
        not_ok "two hand-ins graded at once: '$slow_uid' and '$quick_uid'" "$tmp/pair.log"
    fi
    summary=$build/grade/slow/summary.txt
    has "... and the quick one's cleanups kill nothing of the slow one's: every test passes" '^8\.00/8\.00 ' parts 1
    spied=$(cat "$build"/grade/{slow,quick}/outputs/* 2>/dev/null | grep -h ' spied: ' | sort -u)
    if [ -n "$spied" ] && ! grep -qv ' spied: 0 logs listed, ' <<<"$spied"; then
        ok "... and neither lists the graders' logs ($(wc -l <<<"$spied") looks)"
    else
        not_ok "a hand-in graded beside another listed the graders' logs: $(grep -v ' 0 logs listed' <<<"$spied" | head -3 | tr '\n' ' ')" "$tmp/pair.log"
    fi
    # Its own processes where the container lets root make a PID namespace; else the grader says so.
    if [ -n "$spied" ] && ! grep -qv ', 0 processes naming ' <<<"$spied"; then
        ok "... nor sees a process naming the other"
    elif grep -q "seeing other graders' processes and their command lines" "$build"/grade/logs/{slow,quick}.log; then
        ok "... and where it sees the other's processes (no PID namespace here), the grader says so"
    else
        not_ok "a hand-in graded beside another saw its processes, unsaid: $(grep -v ', 0 processes' <<<"$spied" | head -2 | tr '\n' ' ')" "$tmp/pair.log"
    fi
else
    ok "# SKIP the setpriv sandbox (bubblewrap's stand-in where it cannot run) needs root and setpriv"
fi

# Hand-ins that hide work from the emulator's counts (GPU labs graded
# without a GPU, as on Gradescope): inline assembly (lab 4: an instruction; an asm of
# none, a compiler barrier, builds, since it hides nothing) and an attribute
# that turns the instrumentation off (lab 5) are refused at build; host code
# that copies into device memory through a library function (lab 6; mempcpy,
# since a lab file's own memcpy is the emulator's checked one) faults, device
# memory being closed to the host as a GPU's is.
handin unseen 04-gpu-coalesced cu >/dev/null <<EOF
$(sed '/^void transpose/{n;s/^{$/{ __asm__ volatile("nop" ::: "memory");/;}' solutions/03-gpu-naive/transpose.cu)
EOF
mkdir -p "$tmp/unseen/labs/05-gpu-bank-free" "$tmp/unseen/labs/06-gpu-unrolled"
sed 's/^__global__/__attribute__((no_sanitize_address)) &/' solutions/03-gpu-naive/transpose.cu \
    >"$tmp/unseen/labs/05-gpu-bank-free/transpose.cu"
cat >"$tmp/unseen/labs/06-gpu-unrolled/transpose.cu" <<EOF
#include "lab.h"
#include <stdlib.h>
#include <string.h>
static void *(*volatile copy)(void *, const void *, size_t) = mempcpy;
__global__ void touch(float *out) { out[0] = out[0]; }
void transpose(float *out, const float *in, int rows, int cols)
{
    float *h = (float *)malloc((size_t)rows * cols * sizeof *h);
    copy(h, in, (size_t)rows * cols * sizeof *h);
    float *t = (float *)malloc((size_t)rows * cols * sizeof *t);
    $(printf '%s' "$transpose_body" | sed 's/out\[/t[/; s/in\[/h[/')
    copy(out, t, (size_t)rows * cols * sizeof *t);
    touch<<<1, 1>>>(out);
    free(h), free(t);
}
EOF
grade unseen "04 05 06"
has "inline assembly in a lab file is refused on the emulator" '^build failed$' lab 4
expect "... with the reason" "inline assembly \(asm\): the emulator checks and counts every memory access"
has "an attribute that turns the emulator's checks off is refused" '^build failed$' lab 5
expect "... with the reason" "an attribute that turns off the emulator's checks"
has "host code that copies through device memory with memcpy fails, as on a GPU" '^0\.00/5\.00 ' parts 6
expect "... and is told why" "host code touched device memory, by a path the emulator does not instrument"
mkdir -p "$tmp/switched/labs/06-gpu-unrolled"
cp tests/hostile/lab06-counting-switched-off.cu "$tmp/switched/labs/06-gpu-unrolled/transpose.cu"
grade switched 06
has "a lab that would switch the emulator's counting off from inside passes its tests" '^5\.00/5\.00 ' parts 6
has "... but cannot read its program to find the switch: measured as the naive kernel it is" '^0\.00/2\.00 ' test 6 performance
# The emulator's lab process, confined (harness/emu/confine.c).
mkdir -p "$tmp/thread/labs/06-gpu-unrolled" "$tmp/reach/labs/06-gpu-unrolled"
cp tests/hostile/lab06-counts-rewritten-by-thread.cu "$tmp/thread/labs/06-gpu-unrolled/transpose.cu"
grade thread 06
has "a lab that leaves a thread to rewrite its counts after the call earns nothing on the emulator" '^0\.00/5\.00 0\.00/3\.00 0\.00/2\.00 ' parts 6
expect "... and is told why" "started a thread, a process or a program, which the emulator's lab process does not allow"
cp tests/hostile/lab06-reaches-past-its-call.cu "$tmp/reach/labs/06-gpu-unrolled/transpose.cu"
grade reach 06
has "a lab whose host code tries every way out of its lab process finds each closed (its tests pass)" '^5\.00/5\.00 3\.00/3\.00 ' parts 6
if grep -q "escaped:" "$summary"; then not_ok "... a way out was open" "$summary"; else ok "... and no way out was open"; fi

# Folder hand-ins whose labs/ or lab folder is a link to someone else's code.
mkdir -p "$tmp/linked1" "$tmp/linked2/labs"
ln -s "$root/solutions" "$tmp/linked1/labs"
ln -s "$tmp/references/labs/01-cpu-naive" "$tmp/linked2/labs/01-cpu-naive"
for h in linked1 linked2; do
    grade $h 01
    has "a hand-in whose $([ $h = linked1 ] && echo labs/ || echo lab folder) is a link gets nothing through it" '^0\.00/8\.00 ' parts 1
    expect "... and is told" "symbolic link"
done

# A lab's file in a folder below its lab's, beside another lab where make handin puts it:
# the lab is not handed in, and told where the hand-in holds its file (the hint said
# once only where no lab's file was where the grader looks).
mkdir -p "$tmp/nested/labs/01-cpu-naive/src" "$tmp/nested/labs/02-cpu-blocked"
cp solutions/01-cpu-naive/transpose.c "$tmp/nested/labs/01-cpu-naive/src/"
cp labs/02-cpu-blocked/transpose.c "$tmp/nested/labs/02-cpu-blocked/"
grade nested "01 02"
has "a lab file in a folder below its lab's is not handed in" '^missing$' lab 1
has "... and the lab is told where the hand-in holds it, and what make handin packs" \
    '^labs/01-cpu-naive/transpose\.c is not in the hand-in: found labs/01-cpu-naive/src/transpose\.c -- run make handin from the kit.s folder: it packs each lab.s file as labs/NN-name/FILE' output 1
has "... the lab beside it graded as it was handed in (the kit's stub)" '^stub$' lab 2

# Archives: a bomb, a link, a duplicate.
mkdir -p "$tmp/arc/labs/01-cpu-naive"
head -c $((64 << 20)) /dev/zero >"$tmp/arc/labs/01-cpu-naive/transpose.c"
tar -czf "$tmp/bomb.tar.gz" -C "$tmp/arc" labs
rm -rf "$tmp/arc"
grade bomb.tar.gz 01
has "an archive that unpacks past the limit is refused before extraction" '^nothing gradable: .*more than [0-9]+ bytes' status
if [ ! -e "$build/grade/bomb/submission/labs/01-cpu-naive/transpose.c" ]; then ok "... and nothing of it is written"; else not_ok "the bomb was extracted" /dev/null; fi
# An archive of the lab's file and a great many empty ones (their headers count) is refused
# whole, and its status says so; it once said "found no file ... run make handin", of an
# archive that held the file where make handin puts it.
rm -rf "$tmp/arc" && mkdir -p "$tmp/arc/labs/01-cpu-naive" "$tmp/arc/junk"
cp solutions/01-cpu-naive/transpose.c "$tmp/arc/labs/01-cpu-naive/"
(cd "$tmp/arc/junk" && seq -w 1 40000 | xargs touch)
tar -czf "$tmp/manyfiles.tar.gz" -C "$tmp/arc" junk labs
rm -rf "$tmp/arc"
grade manyfiles.tar.gz 01
has "an archive refused whole is nothing gradable, for the reason it was refused" \
    '^nothing gradable: the hand-in unpacks to more than [0-9]+ bytes' status
refute "... not for a file it lacks" "found no file|run make handin"
mkdir -p "$tmp/arc/labs/01-cpu-naive"
ln -s "$root/solutions/01-cpu-naive/transpose.c" "$tmp/arc/labs/01-cpu-naive/transpose.c"
tar -czf "$tmp/symlink.tar.gz" -C "$tmp/arc" labs
grade symlink.tar.gz 01
expect "a link inside an archive is refused" "not a regular file"
has "... and scores nothing" '^0\.00/8\.00 ' parts 1

rm -rf "$tmp/arc" && mkdir -p "$tmp/arc/labs/01-cpu-naive"
cp solutions/01-cpu-naive/transpose.c "$tmp/arc/labs/01-cpu-naive/"
tar -cf "$tmp/twice.tar" -C "$tmp/arc" labs
echo 'int not_c(' >"$tmp/arc/labs/01-cpu-naive/transpose.c"
tar -rf "$tmp/twice.tar" -C "$tmp/arc" labs/01-cpu-naive/transpose.c
gzip "$tmp/twice.tar"
grade twice.tar.gz 01
expect "a file twice in an archive is refused, not concatenated" "in the archive 2 times"

# grade-unpack (harness/grade/grade_unpack.c) on planted archives, its outcome
# fields read: KIND<TAB>TEXT a line, and what it wrote. Lab 1's file is the path asked for.
make -s B="$build" "$build/grade-unpack" >"$tmp/unpack-build.log" 2>&1 || not_ok "grade-unpack does not build" "$tmp/unpack-build.log"
lab1=labs/01-cpu-naive/transpose.c
mkdir -p "$tmp/plant"
python3 - "$tmp/plant" "$root/solutions/01-cpu-naive/transpose.c" <<'PY'
import io, os, sys, tarfile
out, ref = sys.argv[1], open(sys.argv[2], "rb").read()
def arc(name, members, mode="w:gz", fmt=tarfile.GNU_FORMAT):
    with tarfile.open(os.path.join(out, name), mode, format=fmt) as t:
        for m in members:
            info = tarfile.TarInfo(m[0])
            if m[1] == "file":
                info.size = len(m[2]); t.addfile(info, io.BytesIO(m[2]))
            else:
                info.type = tarfile.SYMTYPE if m[1] == "symlink" else tarfile.LNKTYPE
                info.linkname = m[2]; t.addfile(info)
lab1 = "labs/01-cpu-naive/transpose.c"
arc("escape.tar.gz", [("../escape.c", "file", b"x"), ("/tmp/absolute.c", "file", b"x"),
                      ("labs/01-cpu-naive/../../../outside.c", "file", b"x"), ("./" + lab1, "file", ref)])
arc("symlink.tar.gz", [(lab1, "symlink", "/etc/passwd")])
arc("hardlink.tar.gz", [("labs/other.c", "file", b"x"), (lab1, "hardlink", "labs/other.c")])
arc("huge.tar.gz", [(lab1, "file", b"/" * (2 << 20))])
arc("twice.tar", [(lab1, "file", ref), ("./" + lab1, "file", b"int not_c(")], mode="w")
arc("pax.tar", [("labs/" + "d" * 120 + "/long.c", "file", b"x"), (lab1, "file", ref)], mode="w", fmt=tarfile.PAX_FORMAT)
arc("whole.tar", [(lab1, "file", ref)], mode="w")
whole = open(os.path.join(out, "whole.tar"), "rb").read()
open(os.path.join(out, "cut-data.tar"), "wb").write(whole[:600])
open(os.path.join(out, "cut-header.tar"), "wb").write(whole[:512 + 1024 + 100])
open(os.path.join(out, "bomb.tar.gz"), "wb").write(open(os.path.join(out, "huge.tar.gz"), "rb").read())
open(os.path.join(out, "cut.tar.gz"), "wb").write(open(os.path.join(out, "escape.tar.gz"), "rb").read()[:60])
open(os.path.join(out, "empty.tar"), "wb").close()
open(os.path.join(out, "zip.tar.gz"), "wb").write(b"PK\x03\x04" + b"\0" * 600)
PY
# unpack NAME [ARCHIVE_LIMIT]: its outcome lines in $tmp/plant/NAME.said, what it took under $tmp/plant/NAME.d
unpack() {
    "$build/grade-unpack" "$tmp/plant/$1" "$tmp/plant/$1.d" "$tmp/plant/$1.list" "$tmp/plant/$1.gzip" \
        $((1 << 20)) "${2:-$((16 << 20))}" "$lab1" >"$tmp/plant/$1.said" 2>&1
}
# said NAME KIND TEXT: its one outcome line is KIND, its text starting with TEXT
said() {
    local lines kind text
    lines=$(wc -l <"$tmp/plant/$1.said")
    IFS=$'\t' read -r kind text <"$tmp/plant/$1.said"
    if [ "$lines" = 1 ] && [ "$kind" = "$2" ] && [[ "$text" == "$3"* ]]; then
        ok "grade-unpack: $1: $2, \"$3...\""
    else
        not_ok "grade-unpack: $1: expected one line '$2<TAB>$3...'" "$tmp/plant/$1.said"
    fi
}
unpack escape.tar.gz
if [ ! -s "$tmp/plant/escape.tar.gz.said" ] && cmp -s "$tmp/plant/escape.tar.gz.d/$lab1" solutions/01-cpu-naive/transpose.c &&
    [ "$(cd "$tmp/plant/escape.tar.gz.d" && find . -type f)" = "./$lab1" ] && [ ! -e "$tmp/escape.c" ] &&
    [ ! -e "$tmp/outside.c" ] && [ ! -e /tmp/absolute.c ]; then
    ok "grade-unpack: paths that climb out or are absolute are never written; ./$lab1 is taken, nothing else"
else
    not_ok "grade-unpack: an archive with escaping paths wrote more than the lab file" "$tmp/plant/escape.tar.gz.said"
fi
if [ "$(cat "$tmp/plant/escape.tar.gz.list")" = "$(printf '%s\n' ../escape.c /tmp/absolute.c labs/01-cpu-naive/../../../outside.c "$lab1")" ]; then
    ok "grade-unpack: its listing names the archive's regular files, less a leading ./"
else
    not_ok "grade-unpack: the listing is not the archive's files" "$tmp/plant/escape.tar.gz.list"
fi
unpack symlink.tar.gz && said symlink.tar.gz note "$lab1 is not a regular file (a link?): ignored"
unpack hardlink.tar.gz && said hardlink.tar.gz note "$lab1 is not a regular file (a link?): ignored"
unpack huge.tar.gz && said huge.tar.gz note "$lab1 is larger than 1048576 bytes: ignored"
unpack bomb.tar.gz $((1 << 20)) && said bomb.tar.gz empty "the hand-in unpacks to more than 1048576 bytes: nothing in it is graded"
unpack twice.tar && said twice.tar note "$lab1 is in the archive 2 times: ignored"
for a in symlink.tar.gz hardlink.tar.gz huge.tar.gz bomb.tar.gz twice.tar; do
    [ ! -e "$tmp/plant/$a.d/$lab1" ] || not_ok "grade-unpack: $a: the refused file was written" /dev/null
done
unpack pax.tar
if [ ! -s "$tmp/plant/pax.tar.said" ] && cmp -s "$tmp/plant/pax.tar.d/$lab1" solutions/01-cpu-naive/transpose.c &&
    grep -qx "labs/d\{120\}/long.c" "$tmp/plant/pax.tar.list"; then
    ok "grade-unpack: a pax archive's long names are read from its records, its lab file taken"
else
    not_ok "grade-unpack: a pax archive is not read" "$tmp/plant/pax.tar.said"
fi
unpack cut-data.tar && said cut-data.tar damaged "cut off (tar: Unexpected EOF in archive)"
unpack cut-header.tar && said cut-header.tar damaged "cut off (the archive lacks the end every tar archive has)"
unpack cut.tar.gz && said cut.tar.gz damaged "cut off (gzip: unexpected end of file)"
unpack empty.tar && said empty.tar empty "not a tar archive (it is empty)"
unpack zip.tar.gz && said zip.tar.gz empty "not a tar archive (it is a zip archive)"
# ... and on planted folders (harness/grade/grade_unpack_folder.c): the same outcomes
d=$tmp/plant/folders
mkdir -p "$d/good.d/labs/01-cpu-naive" "$d/good.d/notes" "$d/filelink/labs/01-cpu-naive" "$d/dirlink/labs" \
    "$d/labslink" "$d/fifo/labs/01-cpu-naive" "$d/huge/labs/01-cpu-naive" "$d/none/labs"
cp solutions/01-cpu-naive/transpose.c "$d/good.d/labs/01-cpu-naive/"
printf 'x' >"$d/good.d/notes/b"
printf 'x' >"$d/good.d/notes/a
line"
ln -s "$root/solutions/01-cpu-naive/transpose.c" "$d/filelink/labs/01-cpu-naive/transpose.c"
ln -s "$root/solutions/01-cpu-naive" "$d/dirlink/labs/01-cpu-naive"
ln -s "$root/solutions" "$d/labslink/labs"
mkfifo "$d/fifo/labs/01-cpu-naive/transpose.c"
head -c $(((1 << 20) + 1)) /dev/zero >"$d/huge/labs/01-cpu-naive/transpose.c"
echo 'not a folder' >"$d/none/labs/01-cpu-naive"
for f in good.d filelink dirlink labslink fifo huge none; do
    rm -rf "$tmp/plant/$f" && mv "$d/$f" "$tmp/plant/$f"
    unpack "$f"
done
if [ ! -s "$tmp/plant/good.d.said" ] && cmp -s "$tmp/plant/good.d.d/$lab1" solutions/01-cpu-naive/transpose.c &&
    [ "$(cat "$tmp/plant/good.d.list")" = "$(printf '%s\n' "$lab1" 'notes/a\nline' notes/b)" ]; then
    ok "grade-unpack: a folder's lab file is taken, its listing its regular files in byte order, names escaped"
else
    not_ok "grade-unpack: a folder hand-in is not taken as it is" "$tmp/plant/good.d.said"
fi
said filelink note "$lab1 is a symbolic link: links in a hand-in are not followed"
said dirlink note "labs/01-cpu-naive is a symbolic link: links in a hand-in are not followed"
said labslink note "labs is a symbolic link: links in a hand-in are not followed"
said fifo note "$lab1 is not a regular file: ignored"
said huge note "$lab1 is larger than 1048576 bytes: ignored"
if [ ! -s "$tmp/plant/none.said" ]; then ok "grade-unpack: a folder without the lab's file says nothing of it"; else not_ok "grade-unpack: a missing lab file was noted" "$tmp/plant/none.said"; fi
for f in filelink dirlink labslink fifo huge none; do
    [ ! -e "$tmp/plant/$f.d/$lab1" ] || not_ok "grade-unpack: $f: the refused file was written" /dev/null
done

# A lab whose tests use up its time: the rest are not run, and say so.
summary=$build/grade/lab-limit/summary.txt
mkdir -p "$tmp/lab-limit/labs/01-cpu-naive"
cp solutions/01-cpu-naive/transpose.c "$tmp/lab-limit/labs/01-cpu-naive/"
TILELAB_GRADE_LAB_LIMIT=0 make -s grade LABS=01 SUBMISSION="$tmp/lab-limit" >"$tmp/lab-limit.log" 2>&1
sleep 1
has "a lab has a time limit for all its tests: past it, none passes" '^0\.00/8\.00 ' parts 1
expect "... and each says why" "not run( \\(again\\))?: the tests of this lab ran past 0 seconds"

# Every symbol of a lab file but its entry points is local: weak, common, unique.
cat >"$tmp/symbols.c" <<'EOF'
#include <stddef.h>
__attribute__((weak)) int memcmp(const void *a, const void *b, size_t n) { (void)a, (void)b, (void)n; return 0; }
void helper(void) {}
void transpose(float *out, const float *in, int rows, int cols) { (void)out, (void)in, (void)rows, (void)cols; }
EOF
gcc -c -o "$tmp/symbols.o" "$tmp/symbols.c" 2>"$tmp/out"
harness/lab/isolate-symbols.sh "$tmp/symbols.o" "$tmp/isolated.o" >"$tmp/out" 2>&1
globals=$(nm --defined-only -g "$tmp/isolated.o" 2>&1 | awk '{ print $NF }' | tr '\n' ' ')
if [ "$globals" = "transpose " ]; then ok "weak symbols of a lab file are made local"; else not_ok "globals left: $globals" "$tmp/out"; fi
# Code that would run before the emulator's lab process is confined (harness/emu/confine.c).
early_code() {
    printf '%s\nvoid transpose(float *o, const float *i, int r, int c) { (void)o, (void)i, (void)r, (void)c; }\n' "$2" >"$tmp/early.c"
    gcc -c -o "$tmp/early.o" "$tmp/early.c"
    if harness/lab/isolate-symbols.sh "$tmp/early.o" "$tmp/early-isolated.o" >"$tmp/out" 2>&1; then
        not_ok "$1" "$tmp/out"
    elif grep -q "runs as the program is loaded" "$tmp/out"; then ok "$1"; else not_ok "$1 (another reason)" "$tmp/out"; fi
}
early_code "an IFUNC, whose resolver runs as the program is loaded, is refused" \
    '#include <stddef.h>
static void *pick(void) { return NULL; }
void *memcpy(void *d, const void *s, size_t n) __attribute__((ifunc("pick")));'
early_code "... as is a .preinit_array entry, which runs before every constructor" \
    'static void first(int c, char **v, char **e) { (void)c, (void)v, (void)e; }
__attribute__((section(".preinit_array"), used)) static void (*const early)(int, char **, char **) = first;'
printf 'int shared_counter;\nvoid transpose(float *o, const float *i, int r, int c) { (void)o, (void)i, (void)r, (void)c; }\n' >"$tmp/common.c"
gcc -fcommon -c -o "$tmp/common.o" "$tmp/common.c"
fails "... and a common symbol, which cannot be, is refused" harness/lab/isolate-symbols.sh "$tmp/common.o" "$tmp/common-isolated.o"
# A library's own unique symbols (CUB's, Thrust's: a header library's inline statics) are
# refused as the library's, not as the student's to declare static.
printf 'namespace cub { inline int calls = 0; }\nextern "C" void transpose(float *o, const float *i, int r, int c) { (void)o, (void)i, (void)r, (void)c; cub::calls++; }\n' >"$tmp/cub.cc"
g++ -std=c++17 -c -o "$tmp/cub.o" "$tmp/cub.cc"
if harness/lab/isolate-symbols.sh "$tmp/cub.o" "$tmp/cub-isolated.o" >"$tmp/out" 2>&1; then
    not_ok "a lab file with CUB's symbols is refused" "$tmp/out"
elif grep -q "uses CUB or Thrust" "$tmp/out" && ! grep -q "declare them static" "$tmp/out"; then
    ok "a lab file with CUB's symbols is refused as using the library, not told to declare them static"
else not_ok "a lab file with CUB's symbols is refused for another reason" "$tmp/out"; fi

mkdir -p "$tmp/naive4/labs/04-gpu-coalesced"
cp solutions/03-gpu-naive/transpose.cu "$tmp/naive4/labs/04-gpu-coalesced/transpose.cu"
grade naive4 04
has "a naive kernel passes lab 4's correctness tests" '^5\.00/5\.00 ' parts 4
expect "... but not its technique check, and is told so" "made no shared-memory access at all"

# A GPU lab's speed on the emulator is counted where the hand-in's code is not:
# a destructor that copies the reference's counts over its own in the CSV the
# profile writes (its path read from /proc/self/cmdline) changes nothing.
handin profrewrite 04-gpu-coalesced cu >/dev/null <<'EOF'
#include "lab.h"
#include <stdio.h>
#include <string.h>

#define TILE 32

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    __shared__ float unused[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols) {
        unused[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
        out[(size_t)c * rows + r] = unused[threadIdx.y][threadIdx.x];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    naive<<<grid, block>>>(d_out, d_in, rows, cols);
}

__attribute__((destructor)) static void rewrite(void)
{
    char args[4096], *path = NULL, lines[64][1024], ref[1024] = "";
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f) fclose(f);
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--csv")) path = args + i + strlen(args + i) + 1;
    if (!path || !(f = fopen(path, "r"))) return;
    int k = 0;
    while (k < 64 && fgets(lines[k], sizeof lines[k], f)) {
        if (!strncmp(lines[k], "reference,", 10)) strcpy(ref, lines[k]);
        k++;
    }
    fclose(f);
    if (!ref[0] || !(f = fopen(path, "w"))) return;
    for (int i = 0; i < k; i++)
        if (!strncmp(lines[i], "student,", 8)) fprintf(f, "student,%s", ref + 10); else fputs(lines[i], f);
    fclose(f);
}
EOF
grade profrewrite 04
has "a naive kernel that rewrites the profile's CSV from a destructor is counted as the naive kernel it is" \
    '^0\.00/2\.00 ' test 4 performance
has "... and the summary gives its own counts, not the reference's" '^measured 0\.[0-4][0-9]*$' perf 4

# The GPU not usable inside the sandbox: said at the top, GPU labs graded on the emulator.
if [ -n "$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)" ]; then
    mkdir -p "$tmp/gpu4/labs/04-gpu-coalesced"
    cp solutions/04-gpu-coalesced/transpose.cu "$tmp/gpu4/labs/04-gpu-coalesced/"
    summary=$build/grade/gpu4/summary.txt
    start=$SECONDS
    TILELAB_GRADE_NO_GPU=1 make -s grade GPU=cuda LABS=04 SUBMISSION="$tmp/gpu4" >"$tmp/gpu4.log" 2>&1
    took=$((SECONDS - start))
    expect "without the GPU in the sandbox, the summary says so at the top" "^NOTE: the GPU is not usable inside the grader's sandbox"
    has "... and grades the GPU lab on the emulator, every point" '^5\.00/5\.00 3\.00/3\.00 2\.00/2\.00 10\.00/10\.00$' parts 4
fi

# ---------------------------------------------------------------- a class

# One good hand-in, one broken, one hostile, and names that clash or need care.
mkdir -p "$tmp/class/good/labs/01-cpu-naive" "$tmp/class/bad/labs/01-cpu-naive" "$tmp/class/carol.tar/labs"
cp solutions/01-cpu-naive/transpose.c "$tmp/class/good/labs/01-cpu-naive/"
cp -r "$tmp/class/good/labs/01-cpu-naive" "$tmp/class/carol.tar/labs/"
echo 'not C at all(' >"$tmp/class/bad/labs/01-cpu-naive/transpose.c"
tar -czf "$tmp/class/bob.tar.gz" -C "$tmp/class/good" labs
tar -czf "$tmp/class/bob.tgz" -C "$tmp/class/bad" labs
cp -r "$tmp/class/good" "$tmp/class/smith, jo"
cp -r "$tmp/class/good" "$tmp/class/Chloé Dubois"
cp -r "$tmp/lister" "$tmp/class/mallory"
cp -r "$tmp/signaller" "$tmp/class/signaller"
sed "s|$build/grade/lister/summary.txt|$build/grade/good/scores.tsv|" "$tmp/lister/labs/01-cpu-naive/transpose.c" \
    >"$tmp/class/mallory/labs/01-cpu-naive/transpose.c"
make -s grade-all LABS=01 SUBMISSIONS="$tmp/class" >"$tmp/class.log" 2>&1
summary=$build/grade/gradebook.csv
expect "grade-all writes one row per student, what it was handed in as, one column per lab, and how it was graded" "^student,handed in as,lab1,total,max,status,details$"
expect "... the good hand-in gets its points, exactly, beside a hostile one" "^good,good,10.00,10.00,10.00,graded,$"
expect "... the broken one does not stop it, and its status says it did not build" "^bad,bad,0.00,0.00,10.00,build failed,lab 1: did not build$"
expect "... bob.tar.gz and bob.tgz are graded apart" "^bob,bob.tar.gz,10.00,"
expect "... as bob and bob-2, each row naming its file" "^bob-2,bob.tgz,0.00,"
expect "... a folder named carol.tar is read as a folder" "^carol.tar,carol.tar,10.00,"
expect "... a name with a comma keeps the gradebook's columns, and is named as handed in" '^smith__jo,"smith, jo",10.00,10.00,10.00,graded,$'
expect "... a name's each other character one _, é as one (two bytes), as INSTRUCTORS.md says" '^Chlo__Dubois,"?Chloé Dubois"?,10.00,10.00,10.00,graded,$'
expect "... the hand-in that signals other processes gets what make grade gave it" "^signaller,signaller,5.82,5.82,10.00,graded,$"
summary=$tmp/class.log
expect "... and each renamed hand-in is said" "bob.tgz is graded as 'bob-2'"
# make grade (and Gradescope, which runs it) names a hand-in as grade-all does.
mkdir -p "$tmp/Zoë Ünal"
make -s grade LABS=01 SUBMISSION="$tmp/Zoë Ünal" >"$tmp/zoe.log" 2>&1
if [ -f "$build/grade/Zo___nal/summary.txt" ] && grep -q "graded as 'Zo___nal'" "$tmp/zoe.log"; then
    ok "make grade cleans a name as grade-all does: each character one _ (ë, Ü: two bytes each)"
else
    not_ok "make grade named 'Zoë Ünal' otherwise than grade-all would (Zo___nal)" "$tmp/zoe.log"
fi
expect "... and the names two hand-ins clean up to, plainly" "^grade-all: WARNING: several hand-ins have names that clean up to 'bob': 'bob.tar.gz' as 'bob', 'bob.tgz' as 'bob-2'"
mkdir -p "$tmp/book/stopped" "$tmp/book/timed-out"
printf 'timed out\tSlurm task 7_3 ran past its time limit\n' >"$tmp/book/timed-out/status.txt"
"$build/grade-report" gradebook labs/grading.conf "$tmp/book.csv" good good "$build/grade/good" \
    stopped stopped.tgz "$tmp/book/stopped" timed-out timed-out "$tmp/book/timed-out" >/dev/null 2>&1
summary=$tmp/book.csv
expect "a hand-in the grader stopped on shows as not graded, with empty cells, never as zeros, named as handed in" \
    "^stopped,stopped.tgz,,,10.00,not graded,the grader stopped before scoring \(see logs/stopped.log\)$"
expect "... and with the reason a scheduler gave (status.txt)" "^timed-out,timed-out,,,10.00,timed out,Slurm task 7_3 ran past its time limit$"
mkdir -p "$tmp/book/thirds"
printf '1\t3.333333\t10.000000\n2\t3.333333\t10.000000\n3\t3.333334\t10.000000\n' >"$tmp/book/thirds/scores.tsv"
"$build/grade-report" gradebook labs/grading.conf "$tmp/book-thirds.csv" thirds thirds "$tmp/book/thirds" >/dev/null 2>&1
summary=$tmp/book-thirds.csv
expect "the gradebook's total is the hand-in's, rounded once (not the sum of rounded labs)" "^thirds,thirds,3.33,3.33,3.33,10.00,30.00,graded,$"
# What a hand-in was handed in as is the student's to choose: a line break in it and a
# formula at its start once went into the gradebook as they were, so that a line of it read
# "alice,100.00,..." and a spreadsheet ran =HYPERLINK(...). Each its row's one line, as text.
mkdir -p "$tmp/book/forger"
printf '1\t3.000000\t10.000000\n' >"$tmp/book/forger/scores.tsv"
"$build/grade-report" gradebook labs/grading.conf "$tmp/book-forger.csv" forger \
    "$(printf 'mallory\nalice,100.00,100.00,graded.tgz')" "$tmp/book/forger" \
    formula '=HYPERLINK("http://x.example","100 of 100").tgz' "$tmp/book/forger" >/dev/null 2>&1
summary=$tmp/book-forger.csv
if [ "$(wc -l <"$summary")" = 3 ]; then ok "a line break in what a hand-in was handed in as keeps its row on one line"; else not_ok "a handed-in name's line break split a row of the gradebook" "$summary"; fi
refute "... and starts no line of its own" "^alice,"
expect "... shown as the end report shows it" "^forger,\"mallory\?alice,100\.00,100\.00,graded\.tgz\",3\.00,"
expect "... and a name that begins as a formula is read as text" "^formula,\"'=HYPERLINK\(\"\"http://x\.example\"\",\"\"100 of 100\"\"\)\.tgz\",3\.00,"
# ... and grade-all's log, which names each hand-in whose name it cleans, shows it likewise.
mkdir -p "$tmp/names"
: >"$tmp/names/$(printf 'mallory\nalice,100.00.tgz')"
: >"$tmp/names/$(printf '.hidden\033[2J')"
# names_of DIR: grade-all's list of the hand-ins in DIR (harness/grade/handins.sh): its messages
# on stderr, the names it grades them as on stdout.
names_of() { (export TOOLS=$build && . harness/grade/handins.sh && list_handins "$1" && echo "${names[*]}"); }
said=$(names_of "$tmp/names" 2>&1 >/dev/null)
if [ "$said" = "$(printf '%s\n' "grade-all: .hidden?[2J: a hidden file, not a hand-in: skipped" \
    "grade-all: mallory?alice,100.00.tgz is graded as 'mallory_alice_100.00'")" ]; then
    ok "grade-all's log shows a hand-in's line break and escape as '?', each message on its line"
else
    printf '%s\n' "$said" >"$tmp/names.log"
    not_ok "grade-all's log printed a hand-in's name with its control characters" "$tmp/names.log"
fi
# A name is a gradebook row's first cell and a folder: one that begins with a dash, kept,
# was a formula to a spreadsheet ("-dave": #NAME?) and an option to a shell
# (cat -dave/summary.txt), where its handed-in cell beside it was made text (instructor17).
mkdir -p "$tmp/dashed"
: >"$tmp/dashed/-dave.tar.gz"
said=$(names_of "$tmp/dashed" 2>&1)
if [ "$said" = "$(printf '%s\n' "grade-all: -dave.tar.gz is graded as '_dave'" _dave)" ]; then
    ok "a hand-in whose name begins with a dash is graded under a name that begins with _ (-dave.tar.gz as _dave)"
else
    printf '%s\n' "$said" >"$tmp/dashed.log"
    not_ok "a hand-in named -dave.tar.gz is graded as another name than _dave" "$tmp/dashed.log"
fi

# Which hand-in? Asked before anything is built.
out=$(make grade B="$tmp/nothing-built" 2>&1)
if [ ! -e "$tmp/nothing-built" ] && grep -q "which hand-in" <<<"$out"; then ok "make grade without SUBMISSION asks for it before building"; else not_ok "make grade without SUBMISSION: $out" /dev/null; fi
out=$(make grade B="$tmp/nothing-built" SUBMISSION="$tmp/no-such.tar.gz" 2>&1)
if [ ! -e "$tmp/nothing-built" ] && grep -q "no such hand-in" <<<"$out"; then ok "... and says so of a missing one"; else not_ok "make grade with a missing SUBMISSION: $out" /dev/null; fi

# ---------------------------------------------------------------- graded in the background

wait
# The references' report without the held-back cases, from their grading's outcomes
# (grade-report alone, as grade.sh runs it).
mkdir -p "$tmp/references-visible"
awk -F'\t' '!($1 == "test" && $3 == "held-back")' "$build/grade/references/outcomes.tsv" |
    sed '/^note\t/s/; with held-back cases$//' >"$tmp/references-visible/outcomes.tsv"
"$build/grade-report" --handed-in-as references labs/grading.conf "$tmp/references-visible/outcomes.tsv" \
    "$tmp/references-visible" references >/dev/null
for with in "" ", with held-back seed and shapes"; do
    summary=$([ -z "$with" ] && echo "$tmp/references-visible" || echo "$build/grade/references")/summary.txt
    for lab in $all_labs; do
        l=$((10#$lab))
        max=$(awk -v l="$l" '$1 == l { print $2 + $3 + $4 }' labs/grading.conf)
        has "the reference of lab $l, handed in, scores $max of $max$with" "^[^ ]+ [^ ]+ [^ ]+ $max\.00/$max\.00$" parts "$l"
    done
    refute "... and no line says a test was skipped$with" "skipped"
    expect "... and the summary says no point was lost$with" "^No points lost\.$"
done
# Lab 10's speed on the emulator is counted at its operation's own size (reduce.c's
# grade_emu_size, 2^20 floats), not at a transpose's side: 256 floats were one block, where
# every step of its ladder moved the same 36 sectors.
profile_csv=$build/grade/references/perf/lab10/profile.csv
if awk -F, '$1 == "student" && $3 == 1 && $4 == 1048576 { n++ } $1 == "student" && $4 != 1048576 { bad++ }
            END { exit !(n > 0 && !bad) }' "$profile_csv" 2>/dev/null; then
    ok "lab 10's count on the emulator is of 2^20 floats"
else
    not_ok "lab 10's count on the emulator is not of 2^20 floats" "$profile_csv"
fi
if [ -e "$tmp/references.lock" ] && [ -e "$tmp/sleepy.lock" ]; then
    ok "a grader given TILELAB_GRADE_LOCK holds that lock, not the machine's"
else
    not_ok "TILELAB_GRADE_LOCK was not taken: $(ls "$tmp"/*.lock 2>&1 | tr '\n' ' ')" /dev/null
fi
summary=$build/grade/references/results.json
has "held-back cases are graded, marked hidden" ' hidden$' test 1 'random_shapes (held-back seed)'
has "... the held-back seed re-runs every random test (labs 7-8 have two)" '^[0-9.]+/[0-9.]+ hidden$' test 7 'tiled_random_shapes (held-back seed)'
has "... held-back shapes reach the transposes" '^[0-9.]+/[0-9.]+ hidden$' test 4 'held_back_shapes (held back)'
has "... and held-back products the products" '^[0-9.]+/[0-9.]+ hidden$' test 8 'held_back_shapes (held back)'
has "... and held-back sides the in-place transpose" '^[0-9.]+/[0-9.]+ hidden$' test 9 'held_back_sides (held back)'
summary=$build/grade/sleepy/summary.txt
has "a test past its limit on a busy machine, run again alone with the reference's CPU time scaled, passes" '^8\.00/8\.00 ' parts 1
summary=$build/grade/sleepy/results.json
expect "... and its output says what happened" "ran past its time limit \\(10 seconds\\), and was run again alone, with no other grading on the machine, under a limit of [0-9]+ seconds \\(its own, or 1000 times the [0-9.]+ seconds of CPU time the reference solution took for it on this machine just before, whichever is longer\\): it passed"
"$build/grade-report" gradebook labs/grading.conf "$tmp/sleepy.csv" sleepy sleepy "$build/grade/sleepy" 2>/dev/null
summary=$tmp/sleepy.csv
expect "... and the gradebook flags the hand-in" "^sleepy,.*,graded,flagged: 1 \(flags\.txt\)$"
summary=$build/grade/sleepy-again/results.json
has "a test past its limit run alone too fails" '^0\.00/' test 1 one_by_one
expect "... and says how long the reference took, blaming no load" "under a limit of 10 seconds \\(its own, or 10 times the [0-9.]+ seconds of CPU time the reference solution took for it on this machine just before, whichever is longer\\): it failed, again past its limit: an endless loop, or a kernel far slower than the reference\\?"

# Grading wrote nothing into the kit's own folder (valgrind's probe once left
# a callgrind.out.PID there for every hand-in graded).
left=$(cd "$root" && ls -d callgrind.out.* vgcore.* core 2>/dev/null | head -3)
if [ -z "$left" ]; then ok "grading leaves nothing in the kit's folder"; else not_ok "grading left files in the kit's folder: $left" /dev/null; fi

tap_plan
