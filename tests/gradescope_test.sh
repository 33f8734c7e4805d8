#!/usr/bin/env bash
# make gradescope: the autograder.zip, unpacked into a scratch folder that
# stands for Gradescope's /autograder (AUTOGRADER_ROOT), set up as Gradescope
# sets it up (but for make deps, which this machine has run), then run on an
# honest, a broken and a lone-file submission and on an empty one; each
# results.json must be valid against Gradescope's format
# (tests/gradescope-results.schema.json). The zip holds held-back cases
# (HIDDEN=), out of the students' kit, graded as hidden tests. Prints TAP;
# make check counts it.
source "$(dirname "$0")/tap.sh"

labs="01 03"
zip=$build/gradescope/autograder.zip
ag=$tmp/autograder
schema=tests/gradescope-results.schema.json

# A Python with jsonschema: make deps installs python3-jsonschema.
python=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' 2>/dev/null; then python=$p; break; fi
done

# submit WHAT SCORE: run_autograder on $ag/submission; results.json is valid and scores SCORE
submit() {
    rm -rf "$ag/results"
    AUTOGRADER_ROOT=$ag "$ag/run_autograder" >"$tmp/run.log" 2>&1
    results=$ag/results/results.json
    if [ ! -f "$results" ]; then
        not_ok "$1: run_autograder wrote no results.json" "$tmp/run.log"
    elif [ -z "$python" ]; then
        not_ok "$1: no python3 with jsonschema to validate results.json: run make deps" /dev/null
    elif "$python" tests/validate_results.py "$schema" "$results" "$2" >"$tmp/valid.log" 2>&1; then
        ok "$1 ($(cat "$tmp/valid.log" | sed 's/.*: valid, //'))"
    else
        cat "$tmp/run.log" >>"$tmp/valid.log"
        not_ok "$1" "$tmp/valid.log"
    fi
}
# handin: a fresh, empty /autograder/submission
handin() { rm -rf "$ag/submission" && mkdir -p "$ag/submission"; }

printf '# held back from the class\nseed 4242\nshapes 97x131,5x3\n' >"$tmp/held-back.txt"
# The whole kit make dist wrote, which an instructor may hand out: a kit of LABS alone has a
# name of its own, and leaves it as it was (or absent).
kit_before=$(cksum <"$build/tilelab-student.tar.gz" 2>/dev/null || echo absent)
check "make gradescope LABS=\"$labs\" HIDDEN=held-back.txt writes build/gradescope/autograder.zip" \
    make -s gradescope LABS="$labs" HIDDEN="$tmp/held-back.txt"
cp "$tmp/out" "$tmp/made"
check "... and its student kit is build/tilelab-student-labs-01-03.tar.gz, of those labs' references alone" \
    sh -c "tar -tzf '$build/tilelab-student-labs-01-03.tar.gz' | grep -qx 'tilelab-student-labs-01-03/solutions/prebuilt/lab01-cpu.o' && ! tar -tzf '$build/tilelab-student-labs-01-03.tar.gz' | grep -q 'prebuilt/lab10'"
check "... leaving the whole kit of make dist, build/tilelab-student.tar.gz, as it was" \
    test "$(cksum <"$build/tilelab-student.tar.gz" 2>/dev/null || echo absent)" = "$kit_before"
check "... from the references make references built once, which it names" \
    grep -q "references compiled only (lab01-cpu.o lab03-" "$tmp/made"
max=$(awk -v labs=" $labs " 'index(labs, sprintf(" %02d ", $1)) { s += $2 + $3 + $4 } END { print s }' labs/grading.conf)
# results.json gives a score and no maximum: Gradescope shows it out of the points the
# instructor gives the assignment, which nothing said (instructor17).
check "... and says the points to give the assignment on Gradescope ($max)" \
    grep -q "out of $max points: give the assignment $max points on Gradescope" "$tmp/made"
unzip -Z1 "$zip" >"$tmp/listing" 2>&1
check "... with the held-back cases at its root, beside the student kit and not in it" \
    sh -c "grep -qx held-back.txt '$tmp/listing' && ! grep -q '^tilelab-student/.*held-back\\.txt' '$tmp/listing'"
check "setup.sh and run_autograder are at its root, as Gradescope's specification asks" \
    sh -c "grep -qx setup.sh '$tmp/listing' && grep -qx run_autograder '$tmp/listing'"
unzip -p "$zip" labs.tsv >"$tmp/labs.tsv" 2>&1
check "... and labs.tsv, the table of the labs it grades: labs 1 and 3 alone, a row each with its folder and file" \
    sh -c "\"$build/csv-rows\" '$tmp/labs.tsv' lab dir file | paste -sd' ' - | grep -qx '01.01-cpu-naive.transpose.c 03.03-gpu-naive.transpose.cu'"
check "the student kit is inside, with the references compiled" \
    sh -c "grep -qx 'tilelab-student/Makefile' '$tmp/listing' && grep -qx 'tilelab-student/solutions/prebuilt/lab01-cpu.o' '$tmp/listing'"
fails "... and no reference source (tests/dist_test.sh checks the kit line by line)" \
    grep -E '^tilelab-student/solutions/.*\.(c|cu)$' "$tmp/listing"

# As Gradescope does: the zip into /autograder/source, run_autograder beside it, setup.sh once as root.
mkdir -p "$ag/source"
check "it unpacks into a scratch /autograder/source" unzip -q "$zip" -d "$ag/source"
cp "$ag/source/run_autograder" "$ag/run_autograder"
check "run_autograder and setup.sh are executable" test -x "$ag/run_autograder" -a -x "$ag/source/setup.sh"
check "setup.sh builds the kit's grader from its compiled references (make deps left out: this machine ran it)" \
    env TILELAB_SKIP_DEPS=1 "$ag/source/setup.sh"

handin
mkdir -p "$ag/submission/labs"
for d in solutions/01-cpu-naive solutions/03-gpu-naive; do cp -r "$d" "$ag/submission/labs/"; done
submit "an honest submission (a folder of labs/) gets every point, in a valid results.json" "$max"
held=$("$python" -c 'import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
print(sorted({t["visibility"] for t in tests if "held" in t["name"]}), len([t for t in tests if t["visibility"] == "hidden"]))' "$results" 2>&1)
if [ "${held% *}" = "['hidden']" ] && [ "${held#* }" -gt 2 ]; then
    ok "... the held-back cases among its tests, each hidden from students (${held#* } tests)"
else
    not_ok "the held-back tests and their visibility: $held" "$results"
fi

handin
mkdir -p "$tmp/broken/labs/01-cpu-naive"
echo 'not C at all(' >"$tmp/broken/labs/01-cpu-naive/transpose.c"
tar -czf "$ag/submission/handin.tar.gz" -C "$tmp/broken" labs
submit "a broken one (make handin's archive; lab 1 does not build, lab 3 missing) gets 0, in a valid results.json" 0
labs_state=$("$python" -c 'import json, sys
print(json.load(open(sys.argv[1]))["extra_data"]["labs"])' "$results" 2>&1)
if [ "$labs_state" = "{'1': 'build failed', '3': 'missing'}" ] && grep -q 'error' "$results"; then
    ok "... whose results say why: lab 1 build failed (the compiler's error in its test), lab 3 missing"
else
    not_ok "the broken submission's results.json does not say why (its labs: $labs_state)" "$results"
fi

handin
cp solutions/01-cpu-naive/transpose.c "$ag/submission/"
submit "a lab's file uploaded alone is graded as that lab" "$(awk '$1 == 1 { print $2 + $3 + $4 }' labs/grading.conf)"

handin
submit "an empty submission gets a valid results.json of 0 points" 0
if grep -q 'nothing to grade' "$results"; then ok "... that says what to hand in"; else not_ok "the empty submission's results.json says nothing" "$results"; fi

# Uploads as students make them: a zip of the kit's folder (Gradescope
# unpacks it: labs/ one folder down), a lab's file under another name, two
# archives.
handin
mkdir -p "$ag/submission/tilelab-student/labs"
for d in solutions/01-cpu-naive solutions/03-gpu-naive; do cp -r "$d" "$ag/submission/tilelab-student/labs/"; done
submit "a zip of the kit's folder (labs/ one folder down) is graded as the folder" "$max"
# A browser saves a second download as "handin (1).tar.gz"; a student's own name may
# hold any letter: the grader cleans such a name (letters, digits, . _ -), and its
# results are the submission's all the same.
handin
mkdir -p "$tmp/renamed/labs"
for d in solutions/01-cpu-naive solutions/03-gpu-naive; do cp -r "$d" "$tmp/renamed/labs/"; done
tar -czf "$ag/submission/handin (1) Chloé.tar.gz" -C "$tmp/renamed" labs
submit "an archive named with a space, brackets and a non-ASCII letter (handin (1) Chloé.tar.gz) is graded" "$max"
handin
cp solutions/03-gpu-naive/transpose.cu "$ag/submission/transpose_v2.cu"
submit "a lab's file under another name gets 0, in a valid results.json" 0
if grep -q 'transpose_v2.cu' "$results" && grep -q 'lab 3: transpose.cu (labs/03-gpu-naive/)' "$results"; then
    ok "... that names what it found and the file each lab is"
else
    not_ok "the misnamed upload's results.json does not say what to rename" "$results"
fi
handin
tar -czf "$ag/submission/handin.tar.gz" -C solutions 01-cpu-naive
cp "$ag/submission/handin.tar.gz" "$ag/submission/old.tar.gz"
submit "two archives get 0, in a valid results.json" 0
if grep -q 'several archives' "$results"; then ok "... that asks for one"; else not_ok "the two archives' results.json does not say why" "$results"; fi
# Held-back tests shown after publishing, as Gradescope allows; a word it does not know stops the report.
printf 'test\t01\tcorrectness\tlab01/a\tpass\t-\ntest\t01\theld-back\tlab01_hidden/b\tpass\t-\n' >"$tmp/held.tsv"
mkdir -p "$tmp/held"
HIDDEN_VISIBILITY=after_published LABS_TSV=$tmp/labs.tsv \
    "$build/grade-report" labs/grading.conf "$tmp/held.tsv" "$tmp/held" someone >/dev/null 2>&1
check "HIDDEN_VISIBILITY=after_published shows held-back tests once the grades are published" \
    grep -q '"name": "lab 1 correctness: b (held back)", .*"visibility": "after_published"' "$tmp/held/results.json"
fails "... and a visibility Gradescope does not know stops the report" \
    env HIDDEN_VISIBILITY=never LABS_TSV="$tmp/labs.tsv" \
    "$build/grade-report" labs/grading.conf "$tmp/held.tsv" "$tmp/held" someone
tap_plan
