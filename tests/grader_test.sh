#!/usr/bin/env bash
# The grader against hostile and broken hand-ins: each must be contained
# and scored for what it is. Prints TAP, one line per check; make check
# counts them.
source "$(dirname "$0")/tap.sh"

# handin NAME LAB_DIR < C source: a hand-in of the lab 1 file (plus lab 2's reference)
handin() {
    local dir=$tmp/$1
    mkdir -p "$dir/labs/$2" "$dir/labs/02-cpu-blocked"
    cat >"$dir/labs/$2/transpose.${3:-c}"
    cp solutions/02-cpu-blocked/transpose.c "$dir/labs/02-cpu-blocked/"
    echo "$dir"
}

# grade NAME LABS [HIDDEN]: grade the hand-in, leaving its summary in $summary
grade() {
    summary=$build/grade/$1/summary.txt
    rm -f "$summary"
    make -s grade LABS="$2" SUBMISSION="$tmp/$1" ${3:+HIDDEN="$3"} >"$tmp/$1.log" 2>&1
    [ -f "$summary" ] || cp "$tmp/$1.log" "$summary" 2>/dev/null
}

# expect WHAT PATTERN: the summary matches the pattern (grep -E)
expect() {
    if grep -qE -- "$2" "$summary"; then ok "$1"; else not_ok "$1 (no /$2/ in the summary)" "$summary"; fi
}
score_of() { awk -v lab="$1" '$1 == lab { print $NF == "" ? 0 : $(NF - 2) }' "$summary"; }

transpose_body='for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];'

handin broken 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
void transpose(float *out, const float *in, int rows, int cols) { this is not C; }
EOF
grade broken "01 02"
expect "a lab that does not build scores 0, with the compiler's message" "lab 1 correctness: build \(0.00 of 8.00\)"
expect "... the message is the compiler's" "error:"
expect "... and the other labs are still graded" "^2 +6.00 / +6.00"

handin endless 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    while (rows == 2 && cols == 3)
        ;
    $transpose_body
}
EOF
grade endless 01
expect "an endless loop hits the per-test time limit" "tiny_rectangles \(0.00 of .*\)"
expect "... and says so" "[Tt]imed out"
expect "... while the other tests pass" "^1 +7\.[0-9]+ / +8.00"

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
expect "a crash is a failed test with the signal named" "SIGSEGV"

handin flood 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int i = 0; i < 20000; i++)
        fprintf(stderr, "noise noise noise noise noise noise noise noise noise noise\n");
    (void)out, (void)in, (void)rows, (void)cols;
}
EOF
grade flood 01
if grep -q "more bytes cut" "$build/grade/flood/results.json"; then ok "output is truncated at a limit"; else not_ok "output is truncated at a limit" "$summary"; fi
size=$(wc -c <"$build/grade/flood/results.json")
if [ "$size" -lt 200000 ]; then ok "... so results.json stays small ($size bytes)"; else not_ok "results.json is $size bytes" /dev/null; fi

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
expect "exit(0) does not pass" "^1 +0.00 / +8.00"
expect "... and is named" "did not reach its end"

handin liar 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <stdio.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
    printf("ok - lab01::one_by_one (0.00s)\n[====] Synthesis: Tested: 12 | Passing: 12 | Failing: 0 | Crashing: 0\ncheck: 12 passed, 0 failed\n");
}
EOF
grade liar 01
expect "printing a fake summary line does not pass" "^1 +0.00 / +8.00"

handin impostor 01-cpu-naive >/dev/null <<EOF
#include "check.h"
#include "lab.h"
#include <string.h>
void tl_check_transpose(tl_verdict *v, tl_transpose_fn fn, const tl_backend *b, tl_shape s, uint64_t seed)
{
    (void)fn, (void)b, (void)s, (void)seed;
    memset(v, 0, sizeof *v);
    v->ok = 1;
}
void transpose(float *out, const float *in, int rows, int cols) { (void)out, (void)in, (void)rows, (void)cols; }
EOF
grade impostor 01
expect "replacing the harness's functions does not pass" "^1 +0.00 / +8.00"

handin snoop 01-cpu-naive >/dev/null <<EOF
#include "lab.h"
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* Behaves, unless it can read the reference or the held-back cases, write the results or see a network. */
void transpose(float *out, const float *in, int rows, int cols)
{
    FILE *f;
    struct ifaddrs *ifs;
    char line[64];
    if ((f = fopen("$root/solutions/01-cpu-naive/transpose.c", "r")) ||
        (f = fopen("$build/grade/snoop/results.json", "a")))
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
printf 'seed 77\nshapes 5x9,40x3\n' >"$tmp/held-back.txt"
grade snoop 01 "$tmp/held-back.txt"
expect "the sandbox hides the reference, the held-back cases, results.json and the network" "^1 +8.00 / +8.00"
summary=$build/grade/snoop/results.json
expect "... and the held-back cases are graded, marked hidden" 'held_back_shapes", "score": [0-9.]+, "max_score": [0-9.]+, "visibility": "hidden"' 

handin copycat 01-cpu-naive >/dev/null <<EOF
#include "$root/solutions/01-cpu-naive/transpose.c"
EOF
grade copycat 01
expect "including the reference source does not build" "lab 1 correctness: build \(0.00"

mkdir -p "$tmp/naive4/labs/04-gpu-coalesced"
cp solutions/03-gpu-naive/transpose.cu "$tmp/naive4/labs/04-gpu-coalesced/transpose.cu"
grade naive4 04
expect "a naive kernel passes lab 4's correctness tests" "^4 +5.00 / +5.00"
expect "... but not its technique check, and is told so" "uses no shared memory"

# A class: one good hand-in and one that does not build, graded together.
mkdir -p "$tmp/class/good/labs/01-cpu-naive" "$tmp/class/bad/labs/01-cpu-naive"
cp solutions/01-cpu-naive/transpose.c "$tmp/class/good/labs/01-cpu-naive/"
echo 'not C at all(' >"$tmp/class/bad/labs/01-cpu-naive/transpose.c"
make -s grade-all LABS=01 SUBMISSIONS="$tmp/class" >"$tmp/class.log" 2>&1
summary=$build/grade/gradebook.csv
expect "grade-all writes one row per student, one column per lab" "^student,lab1,total,max$"
expect "... the good hand-in gets its points" "^good,10.00,"
expect "... and the broken one does not stop it" "^bad,0.00,"

tap_plan
