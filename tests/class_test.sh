#!/usr/bin/env bash
# An instructor's week: a class of hand-ins as students make them (strong
# work, the kit's stubs, a stub edited but unfinished, archives cut off in
# their upload, labs packed from inside labs/, a zip, a lab left out, a lab
# that does not build, one that loops, one wrong everywhere), graded by make
# grade-all. Each case has its own status in the gradebook, the same in one
# line of its summary and in its results.json; a lab left out is an empty
# cell; a stub is scored without being built; no line is said twice; nothing
# a student sees names a folder of the grading machine; grade-all says how far
# it is and ends with what to look at; what is kept of a hand-in stays under
# 1 MB. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

class_labs="01 03"
class=$tmp/class
out=$tmp/grade
mkdir -p "$class" "$tmp/kit/labs"
cp -r solutions/01-cpu-naive solutions/03-gpu-naive "$tmp/kit/labs/"
rm -f "$tmp"/kit/labs/*/README.md
# strong: the references, as make handin packs them
tar -czf "$class/strong.tar.gz" -C "$tmp/kit" labs
# stubs: the kit's stubs as they came; todo: one edited, still reaching its TODO()s
mkdir -p "$class/stubs/labs" "$class/todo/labs"
for d in 01-cpu-naive 03-gpu-naive; do
    mkdir -p "$class/stubs/labs/$d" "$class/todo/labs/$d"
    cp labs/$d/transpose.c* "$class/stubs/labs/$d/"
    { cat labs/$d/transpose.c*; echo "/* started, on paper */"; } >"$class/todo/labs/$d/$(basename labs/$d/transpose.c*)"
done
# cut: the strong archive, cut off in its upload; cut-tar and cut-header: an
# uncompressed one cut inside lab 3's file and inside its header (blocks of
# 512 bytes: the folders labs/, 01-cpu-naive/, lab 1's file and 03-gpu-naive/,
# then lab 3's header at 2560)
head -c 300 "$class/strong.tar.gz" >"$class/cut.tar.gz"
tar -cf "$tmp/whole.tar" -C "$tmp/kit" labs
head -c 3300 "$tmp/whole.tar" >"$class/cut-tar.tar"
head -c 3000 "$tmp/whole.tar" >"$class/cut-header.tar"
# inside: packed from inside labs/; zipped: a zip named as a tar.gz
tar -czf "$class/inside.tar.gz" -C "$tmp/kit/labs" 01-cpu-naive 03-gpu-naive
(cd "$tmp/kit" && zip -qr "$tmp/zipped.zip" labs) && mv "$tmp/zipped.zip" "$class/zipped.tar.gz"
# windows: a zip as a student's system makes it, named .zip; and a file no student uploaded
(cd "$tmp/kit" && zip -qr "$class/windows.zip" labs)
touch "$class/.DS_Store"
# above: the kit's folder packed from the folder above it, with more than the labs in it
mkdir -p "$tmp/above/kit/plots" && cp -r "$tmp/kit/labs" "$tmp/above/kit/" && touch "$tmp/above/kit/plots/a.gp" "$tmp/above/kit/README.md"
tar -czf "$class/above.tar.gz" -C "$tmp/above" kit
# partial: lab 1 alone; broken: lab 1 does not build
mkdir -p "$class/partial/labs" "$class/broken/labs/01-cpu-naive"
cp -r "$tmp/kit/labs/01-cpu-naive" "$class/partial/labs/"
echo 'void transpose(float *out, const float *in, int rows, int cols) { this is not C }' \
    >"$class/broken/labs/01-cpu-naive/transpose.c"
cp -r "$tmp/kit/labs/03-gpu-naive" "$class/broken/labs/"
# looping: right but for 1x1, where it never returns; wrong: zeros everywhere
mkdir -p "$class/looping/labs/01-cpu-naive" "$class/wrong/labs/01-cpu-naive"
cat >"$class/looping/labs/01-cpu-naive/transpose.c" <<'EOF'
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    while (rows == 1 && cols == 1)
        ;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
EOF
cat >"$class/wrong/labs/01-cpu-naive/transpose.c" <<'EOF'
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)in;
    for (size_t i = 0; i < (size_t)rows * cols; i++)
        out[i] = 0.0f;
}
EOF

make -s grade-all LABS="$class_labs" SUBMISSIONS="$class" GRADE_DIR="$out" >"$tmp/class.log" 2>&1
book=$out/gradebook.csv
n_class=$(find "$class" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)

# field NAME COLUMN: a cell of the gradebook, its CSV quoting undone
field() {
    python3 -c 'import csv, sys
rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
print(rows.get(sys.argv[2], {}).get(sys.argv[3], "<no such cell>"))' "$book" "$1" "$2" 2>/dev/null
}
# row NAME STATUS LAB1 LAB3 DETAILS: the gradebook's row (DETAILS: what they start with)
row() {
    local got
    got="$(field "$1" status)|$(field "$1" lab1)|$(field "$1" lab3)"
    if [ "$got" = "$2|$3|$4" ] && [[ "$(field "$1" details)" == "$5"* ]]; then
        ok "$1: $2${5:+ ($5...)}, lab 1 '$3', lab 3 '$4'"
    else
        not_ok "$1: expected '$2|$3|$4' and details '$5...', the gradebook has '$got' and '$(field "$1" details)'" "$book"
    fi
}
row strong "graded" 10.00 10.00 ""
row stubs "stubs only" 0.00 0.00 "labs 1, 3: the kit's stub"
row todo "stubs only" 0.00 0.00 "labs 1, 3: still the stub: its TODO() reached"
row cut "damaged archive" "" "" "cut off (gzip: unexpected end of file)"
row cut-tar "damaged archive" "" "" "cut off (tar: Unexpected EOF in archive)"
row cut-header "damaged archive" "" "" "cut off (the archive lacks the end every tar archive has)"
row inside "nothing gradable" "" "" "found 01-cpu-naive/transpose.c, 03-gpu-naive/transpose.cu, expected labs/01-cpu-naive/transpose.c"
row zipped "nothing gradable" "" "" "not a tar archive (it is a zip archive)"
row windows "nothing gradable" "" "" "not a tar archive (it is a zip archive)"
row above "nothing gradable" "" "" "found kit/labs/01-cpu-naive/transpose.c, kit/labs/03-gpu-naive/transpose.cu, kit/"
# Its labs may be there, in the wrong folders: the summary's rows say not graded, never
# "not handed in" (an instructor's trial, 2026-11-28: three labs in src/, each "not handed in").
if grep -qE '^1 .*  not graded$' "$out/inside/summary.txt" && ! grep -q 'not handed in' "$out/inside/summary.txt"; then
    ok "inside's summary: its labs not graded, never said not handed in"
else
    not_ok "inside's summary names its labs otherwise than 'not graded'" "$out/inside/summary.txt"
fi
if [[ "$(field above details)" == *"-- packed from the folder above the kit's? its lab files are one folder too deep"* ]]; then
    ok "... the kit packed from the folder above it is told so, its lab files named first"
else
    not_ok "above's details: $(field above details)" "$book"
fi
if grep -q "^grade-all: .DS_Store: a hidden file, not a hand-in: skipped" "$tmp/class.log" && ! grep -q '^.DS_Store,' "$book" &&
    [ "$(head -1 "$book" | cut -d, -f1-5)" = "student,handed in as,lab1,lab3,total" ] && [ "$(field strong max)" = 20.00 ]; then
    ok "... a hidden file is skipped, said so; the gradebook has the columns and maximum of LABS=\"$class_labs\" alone"
else
    not_ok "a hidden file, or the columns and maximum of LABS (header: $(head -1 "$book"), strong's max: $(field strong max))" "$book"
fi
row partial "graded" 10.00 "" "lab 3: not handed in"
row broken "build failed" 0.00 10.00 "lab 1: did not build"
row looping "timed out" "$(field looping lab1)" "" "lab 1: timed out"
row wrong "graded" 0.00 "" "lab 3: not handed in"
if [[ "$(field inside details)" == *"-- packed from inside labs/? run make handin from the kit's folder" ]]; then
    ok "... the hand-in packed from inside labs/ is told what happened and what to run"
else
    not_ok "inside's details: $(field inside details)" "$book"
fi
if [ "$(field cut total)" = "" ] && [ "$(field partial total)" = 10.00 ]; then
    ok "... a hand-in with nothing graded has no total; a lab left out counts for nothing in it"
else
    not_ok "totals: cut '$(field cut total)', partial '$(field partial total)'" "$book"
fi

# Each status in one line of the summary (its second) and in results.json,
# which is Gradescope's format.
for name in $(sed 1d "$book" | cut -d, -f1); do
    status=$(field "$name" status) details=$(field "$name" details)
    line=$(sed -n 2p "$out/$name/summary.txt")
    json=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["extra_data"]
print(d["status"] + "|" + d["details"])' "$out/$name/results.json" 2>&1)
    if [ "$line" = "status: $status${details:+ ($details)}" ] && [ "$json" = "$status|$details" ] &&
        python3 tests/validate_results.py tests/gradescope-results.schema.json "$out/$name/results.json" >/dev/null 2>&1; then
        ok "$name: the summary's second line and results.json (valid) say '$status'"
    else
        not_ok "$name: summary says '$line', results.json '$json', the gradebook '$status' '$details'" "$out/$name/summary.txt"
    fi
done

# Stubs in seconds: an unchanged stub is not built and none of its tests runs.
tests=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(d["extra_data"]["labs"].values())), len([t for t in d["tests"] if "one_by_one" in t["name"]]))' \
    "$out/stubs/results.json" 2>&1)
if [ "$tests" = "stub stub 0" ]; then
    ok "the kit's stubs are scored as stubs, with no test of theirs run"
else
    not_ok "the stubs' labs and their tests run: $tests" "$out/stubs/results.json"
fi
# Said once: no line of a summary twice, however many tests failed alike.
for name in todo wrong looping; do
    twice=$(grep -v '^ *$' "$out/$name/summary.txt" | sort | uniq -d | head -3)
    if [ -z "$twice" ]; then
        ok "$name: no line of its summary is said twice ($(wc -l <"$out/$name/summary.txt") lines)"
    else
        not_ok "$name: said twice: $twice" "$out/$name/summary.txt"
    fi
done
if [ "$(grep -c 'labs/03-gpu-naive/transpose.cu:[0-9]*: ' "$out/todo/summary.txt")" = 1 ]; then
    ok "... the TODO() an unfinished lab reached is named once, where the student's kit has it"
else
    not_ok "the todo hand-in's TODO() is not named once, as labs/03-gpu-naive/transpose.cu:LINE" "$out/todo/summary.txt"
fi

# Nothing a student sees names a folder of the grading machine.
seen=$(grep -lF -e "$root" -e "$tmp" -e "$(cd "$root" && pwd -P)" "$out"/*/summary.txt "$out"/*/results.json "$out"/*/junit.xml 2>/dev/null)
if [ -z "$seen" ]; then
    ok "no summary, results.json or junit.xml names the kit's folder or the grader's"
else
    not_ok "grading machine's folders in: $seen" "$(echo "$seen" | head -1)"
fi

# Progress: a line each time a hand-in is graded, with its points; then the end report.
progress=$(grep -cE "^grade-all: [0-9]+ of $n_class done, [0-9]+ running, [0-9]+ waiting: [^ ]+: [0-9.]+ of [0-9.]+ points, " "$tmp/class.log")
if [ "$progress" = "$n_class" ] && grep -qE "^grade-all: $n_class of $n_class done, 0 running, 0 waiting: " "$tmp/class.log" &&
    [ "$(sed -nE 's/^grade-all: [0-9]+ of [0-9]+ done, [0-9]+ running, [0-9]+ waiting: ([^:]+): .*/\1/p' "$tmp/class.log" | sort | tr '\n' ' ')" = \
      "$(sed 1d "$book" | cut -d, -f1 | sort | tr '\n' ' ')" ]; then
    ok "grade-all says done, running and waiting, and each hand-in's points as it lands ($n_class lines)"
else
    not_ok "grade-all's progress: $progress lines for $n_class hand-ins" "$tmp/class.log"
fi
looked=$(sed -n '/^gradebook: /,$p' "$tmp/class.log" | grep -cE '^  (stubs|todo|cut|cut-tar|cut-header|inside|zipped|windows|above|broken|looping): ')
if grep -qE "^gradebook: $book: $n_class hand-ins, 3 graded, 11 to look at:$" "$tmp/class.log" && [ "$looked" = 11 ]; then
    ok "... and ends with the hand-ins to look at, each with its status"
else
    not_ok "grade-all's end report ($looked of 11 named)" "$tmp/class.log"
fi

# The end report says what the grading met once, with how many hand-ins it touched.
mkdir -p "$tmp/met/a" "$tmp/met/b" "$tmp/met/c"
for h in a b; do printf 'status\tgraded\t\nsandbox\tsetpriv\nwarning\tNOTE: the GPU is not usable\n1\t10\t10\tgraded\n' >"$tmp/met/$h/scores.tsv"; done
printf 'status\tgraded\t\nsandbox\tbwrap\n1\t10\t10\tgraded\n' >"$tmp/met/c/scores.tsv"
printf 'lab 1 lab01/primes: timed out once, run again alone: pass\n' >"$tmp/met/c/flags.txt"
"$build/grade-report" gradebook labs/grading.conf "$tmp/met/book.csv" a a "$tmp/met/a" b b "$tmp/met/b" c c "$tmp/met/c" >"$tmp/met.log" 2>&1
if grep -q '^  sandbox: 2 hand-ins ran student code as a user of its own (setpriv), not in bubblewrap' "$tmp/met.log" &&
    grep -q '^  warning, 2 hand-ins: NOTE: the GPU is not usable$' "$tmp/met.log" &&
    grep -q '^gradebook: .*: 3 hand-ins, 3 graded, 1 to look at:$' "$tmp/met.log" &&
    grep -qx '  c: flagged: lab 1 lab01/primes: timed out once, run again alone: pass' "$tmp/met.log" &&
    [ "$(grep -c '^  ' "$tmp/met.log")" = 3 ] && grep -qx 'c,c,10.00,10.00,10.00,graded,flagged: 1 (flags.txt)' "$tmp/met/book.csv" &&
    cmp -s "$tmp/met.log" "$tmp/met/anomalies.txt"; then
    ok "... a sandbox other than bubblewrap and a warning are said once each, with their count, a grader's flag with its hand-in, and kept in anomalies.txt"
else
    not_ok "the end report of sandboxes and warnings" "$tmp/met.log"
fi

# Names that clean up to one: a student who names their folder x_y must not take the row of
# x y, whose honest work sorts after it or before. A name clean as handed in keeps it; the
# others get NAME-2, NAME-3 in the order of the list; grade-all says which names collided,
# and every output that names a hand-in names what it was handed in as.
# (The class's folder has a space in its name, as an instructor's may: make's $(wildcard)
# once split it, "Error 127".)
same="$tmp/same names"
mkdir -p "$same/x y/labs/01-cpu-naive" "$same/x_y/labs/01-cpu-naive" "$same/x:y/labs/01-cpu-naive"
cp solutions/01-cpu-naive/transpose.c "$same/x y/labs/01-cpu-naive/"
cp labs/01-cpu-naive/transpose.c "$same/x_y/labs/01-cpu-naive/"
cp labs/01-cpu-naive/transpose.c "$same/x:y/labs/01-cpu-naive/"
make -s grade-all LABS=01 SUBMISSIONS="$same" GRADE_DIR="$tmp/same-out" >"$tmp/same.log" 2>&1
# as_handed NAME: the hand-in's name as its summary.txt, its results.json and the gradebook say it
as_handed() {
    python3 -c 'import csv, json, sys
out, name = sys.argv[1], sys.argv[2]
row = {r["student"]: r for r in csv.DictReader(open(out + "/gradebook.csv"))}[name]
summary = [l[len("handed in as: "):].rstrip("\n") for l in open(out + "/" + name + "/summary.txt") if l.startswith("handed in as: ")]
d = json.load(open(out + "/" + name + "/results.json"))
print("%s|%s|%s|%s|%s" % (row["handed in as"], row["lab1"], summary, d["extra_data"]["handed_in_as"], d["score"]))' "$tmp/same-out" "$1" 2>&1
}
for want in "x_y|x_y|0.00|['x_y']|x_y|0.0" "x_y-2|x y|10.00|['x y']|x y|10.0" "x_y-3|x:y|0.00|['x:y']|x:y|0.0"; do
    name=${want%%|*}
    if [ "$(as_handed "$name")" = "${want#*|}" ]; then
        ok "clashing names: $name is the hand-in '$(cut -d'|' -f2 <<<"$want")', and its gradebook row, summary.txt and results.json say so"
    else
        not_ok "clashing names: $name should be '${want#*|}' (handed in as|lab 1|summary|results.json|score), is '$(as_handed "$name")'" "$tmp/same.log"
    fi
done
# One hand-in whose name has spaces and brackets, graded alone: make grade once said
# "no such hand-in" of it.
tar -czf "$tmp/Erin Smith (late).tar.gz" -C "$same/x y" labs
make -s grade LABS=01 SUBMISSION="$tmp/Erin Smith (late).tar.gz" GRADE_DIR="$tmp/spaces-out" >"$tmp/spaces.log" 2>&1
if grep -q '^tilelab: Erin_Smith__late_, 10.00 of 10.00 points' "$tmp/spaces-out/Erin_Smith__late_/summary.txt" 2>/dev/null; then
    ok "make grade takes a hand-in whose name has spaces and brackets (and a class folder with a space)"
else
    not_ok "make grade SUBMISSION='Erin Smith (late).tar.gz'" "$tmp/spaces.log"
fi
if grep -qxF "grade-all: WARNING: several hand-ins have names that clean up to 'x_y': 'x y' as 'x_y-2', 'x:y' as 'x_y-3', 'x_y' as 'x_y'; each row of the gradebook, each summary.txt and results.json name the hand-in as it was handed in" "$tmp/same.log" &&
    grep -qx "  x_y-3 (handed in as 'x:y'): stubs only: lab 1: the kit's stub" "$tmp/same.log"; then
    ok "... grade-all says which names collided and what each became, and its end report names each hand-in as handed in"
else
    not_ok "grade-all's word on the clashing names" "$tmp/same.log"
fi

# The documented way to time a class: two hand-ins of lab 1 (the time itself decides nothing).
harness/tools/time-class.sh 2 01 "$tmp/timed" >"$tmp/timed.log" 2>&1
if grep -qE '^time-class: 2 hand-ins of labs 01 graded in [0-9]+ s on the clock, [0-9]+ s of CPU time \(the whole machine, [0-9]+ cores\)' "$tmp/timed.log" &&
    grep -qx 'time-class: all 2 graded, every point (10.00 each)' "$tmp/timed.log"; then
    ok "harness/tools/time-class.sh makes a class of the references, grades it, and says how long it took and that every point was earned"
else
    not_ok "time-class.sh" "$tmp/timed.log"
fi

# noisy: every lab's file, at every call, prints 5000 bytes of what takes the
# most room once escaped for JSON and XML (quotes, markup, control bytes,
# bytes that are not UTF-8), and fails every test: the most a report can hold.
kit_labs || not_ok "the table of labs"
for lab in "${labs[@]}"; do
    dir=${lab_dir[$lab]} file=${lab_file[$lab]}
    case ${lab_op[$lab]} in
    matmul) entries='void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { (void)c, (void)a, (void)b, (void)m, (void)n, (void)k; noise(); }
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k) { (void)c, (void)a, (void)b, (void)m, (void)n, (void)k; noise(); }' ;;
    sgemm) entries='void sgemm(float *c, const float *a, const float *b, int m, int n, int k) { (void)c, (void)a, (void)b, (void)m, (void)n, (void)k; noise(); }' ;;
    inplace) entries='void transpose_inplace(float *mat, int n) { (void)mat, (void)n; noise(); }' ;;
    *) entries='void transpose(float *out, const float *in, int rows, int cols) { (void)out, (void)in, (void)rows, (void)cols; noise(); }' ;;
    esac
    mkdir -p "$tmp/noisy/labs/$dir"
    printf '#include "lab.h"\n#include <stdio.h>\nstatic void noise(void)\n{\n    for (int i = 0; i < 1000; i++)\n        fputs("\\"<&\\001\\377", stdout);\n}\n%s\n' \
        "$entries" >"$tmp/noisy/labs/$dir/$file"
done
make -s grade SUBMISSION="$tmp/noisy" GRADE_DIR="$out" >"$tmp/noisy.log" 2>&1
if grep -qF '\"<&' "$out/noisy/results.json" &&
    python3 tests/validate_results.py tests/gradescope-results.schema.json "$out/noisy/results.json" >/dev/null 2>&1; then
    ok "a hand-in whose every lab prints 5000 bytes of escapes at every call is graded, its noise in a valid results.json"
else
    not_ok "the noisy hand-in" "$tmp/noisy.log"
fi

# What is kept of each hand-in: under 1 MB, for every case.
big=$(du -sb "$out"/*/ | awk '$1 > 1048576')
if [ -z "$big" ]; then
    ok "what is kept of each hand-in is under 1 MB (largest: $(du -sb "$out"/*/ | sort -n | tail -1 | awk '{ print $1 }') bytes)"
else
    not_ok "kept over 1 MB: $big" /dev/null
fi
tap_plan
