#!/usr/bin/env bash
# Bad input must get a clear message and exit status 2, never a crash or a
# silent default. Prints TAP, one line per case; make check counts them.
source "$(dirname "$0")/tap.sh"

# expect STATUS TEXT COMMAND...: COMMAND exits STATUS and prints TEXT.
expect() {
    local want=$1 text=$2 rc
    shift 2
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$want" ] && grep -qF -- "$text" "$tmp/out"; then
        ok "$*"
    else
        not_ok "$* (exit $rc, wanted $want and \"$text\")" "$tmp/out"
    fi
}

# One past the last lab of labs/labs.mk.
kit_labs || not_ok "the table of labs"
past=$((10#${labs[-1]} + 1))
expect 2 "unknown lab 'lab$past'" make "lab$past" test
expect 2 "unknown lab 'labx'" make labx test
expect 2 "unknown target 'frobnicate'" make lab1 frobnicate
expect 2 "which lab?" make test
expect 2 "Add an action" make lab1
expect 2 "one lab at a time" make lab1 lab2 test
# LABS as people type it: 2, 02 or lab2; a lab that is not there, said so.
expect 2 "LABS: there is no lab '$past'" make help LABS="2 $past"
expect 0 "memory-bound GPU programming" make help LABS="lab2 03 4"

bench=$build/lab01/bench
expect 2 "'0' is not a size" $bench --sizes 0
expect 2 "'-5' is not a size" $bench --sizes -5
expect 2 "'foo' is not a size" $bench --sizes foo
expect 2 "too large" $bench --sizes 99999999
expect 2 "choose a smaller size" $bench --sizes 524280
expect 2 "--reps '0'" $bench --reps 0
expect 2 "--reps 'many'" $bench --reps many
expect 2 "unknown option '--bogus'" $bench --bogus
expect 2 "unknown variant 'fastest'" $bench --only fastest
expect 2 "--sizes needs a value" $bench --sizes
expect 2 "is not a size" make lab1 bench SIZES=0
# The reason stays on screen, with the syntax the student types, not the bench's option list.
make lab1 bench SIZES=0 >"$tmp/out" 2>&1
if [ "$(grep -c . "$tmp/out")" -le 4 ] && grep -qF "make lab1 bench SIZES=" "$tmp/out" && ! grep -q -- "--csv FILE" "$tmp/out"; then
    ok "a bad SIZES= gets its reason and make's syntax"
else
    not_ok "a bad SIZES= floods the reason" "$tmp/out"
fi

# Any one variant alone, for every CPU lab: its own row, no one else's, and no crash.
for lab in 01 02; do
    b=$build/lab$lab/bench
    variants=$($b --only none 2>&1 | sed -n "s/.*the variants are \([^;]*\);.*/\1/p")
    [ -n "$variants" ] || not_ok "lab $lab's bench does not list its variants"
    for v in $variants; do
        $b --only "$v" --sizes 64,33x65 --reps 2 --warmup 1 >"$tmp/out" 2>&1
        rc=$? others=$(echo $variants | tr ' ' '\n' | grep -vx "$v" | paste -sd'|' -)
        if [ $rc -eq 0 ] && [ "$(grep -cE "^(64x64|33x65)? +$v " "$tmp/out")" -eq 2 ] &&
            ! grep -qE "^(64x64|33x65)? +($others) " "$tmp/out" && grep -q "^33x65 " "$tmp/out"; then
            ok "lab $lab bench --only $v"
        else
            not_ok "lab $lab bench --only $v (exit $rc)" "$tmp/out"
        fi
    done
done

# ONLY= through make: that variant's rows and no other's (in a build of its
# own: the student's build/bench/lab01.csv stays theirs).
make -s B="$tmp/only-build" lab1 bench SIZES=64 REPS=2 ONLY=reference >"$tmp/out" 2>&1
if grep -qE '^64x64 +reference ' "$tmp/out" && ! grep -qE '^ +(memcpy|student|openblas) ' "$tmp/out"; then
    ok "make lab1 bench ONLY=reference"
else
    not_ok "make lab1 bench ONLY=reference" "$tmp/out"
fi

# A build folder moved elsewhere still works: the technique tests count the
# run of the lab process beside the test binary, not at a path baked into it.
if [ -x "$build/lab04/reference-emu/test" ] && [ -x "$build/lab04/student-emu/lab-runner" ]; then
    cp -r "$build/lab04/reference-emu" "$tmp/moved-lab04"
    check "lab 4's technique tests from a moved build folder" "$tmp/moved-lab04/test" --filter 'lab04_technique/*'
    # the stub's, in place of the reference's: it must fail (renamed over it, which works while
    # the last lab process still runs, where a copy onto it is refused: text file busy)
    cp "$build/lab04/student-emu/lab-runner" "$tmp/moved-lab04/lab-runner.stub" &&
        mv -f "$tmp/moved-lab04/lab-runner.stub" "$tmp/moved-lab04/lab-runner"
    fails "the moved tests run the lab process beside them" "$tmp/moved-lab04/test" --filter 'lab04_technique/*'
fi

# A transpose that does its work once and then returns at once when it sees
# the same buffers again would time near zero: each timed call's output is checked.
mkdir -p "$tmp/skipper/01-cpu-naive"
cat >"$tmp/skipper/01-cpu-naive/transpose.c" <<'C'
#include "lab.h"
#include <stddef.h>
void transpose(float *out, const float *in, int rows, int cols)
{
    static float *last;
    if (out == last)
        return;
    last = out;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
C
expect 0 "WRONG in timed repetition 1" make -s B="$tmp/skipper-build" STUDENT_DIR="$tmp/skipper" lab1 bench SIZES=64 REPS=3

# A real run: a table, and a CSV whose header says what produced it.
csv=$tmp/run.csv
expect 0 "of ceiling" $bench --sizes 64,33x65 --reps 2 --warmup 1 --csv "$csv"
for key in "# machine:" "# compiler:" "# flags:" "# lab: 1" "# date:" "lab,variant,rows,cols"; do
    if grep -qF -- "$key" "$csv"; then ok "CSV has '$key'"; else not_ok "CSV lacks '$key'"; fi
done
# Its rows read by the header's names, as every reader of a CSV does.
if awk -F, '/^#/ || !NF { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["lab"] == 1 && $c["variant"] == "reference" && $c["rows"] == 33 && $c["cols"] == 65 && $c["reps"] == 2 &&
    $c["unit"] == "GB/s" && $c["rate"] > 0 { found = 1 } END { exit !found }' "$csv"; then
    ok "CSV has the 33x65 reference row"
else
    not_ok "no 33x65 reference row" "$csv"
fi
# Its record, what the grader reads (bench.h): every variant asked for, timed or not and why,
# read by its columns' names through the kit's reader; the stub's code is not timed.
rec=$tmp/run.tsv
if $bench --sizes 64,33x65 --reps 1 --warmup 0 --only reference,student --record "$rec" >"$tmp/rec.log" 2>&1; then
    got=$("$build/csv-rows" "$rec" variant role rows cols outcome note | tr '\t' '|')
    want="reference|reference|64|64|timed|
student|student|64|64|untimed|not implemented yet, not timed (make lab1 test says what to write)
reference|reference|33|65|timed|
student|student|33|65|untimed|not implemented yet, not timed (make lab1 test says what to write)"
    if [ "$got" = "$want" ]; then ok "the bench's record: a row for each variant asked for, the stub's untimed, with why"; else not_ok "the bench's record: $got" "$rec"; fi
    rate=$("$build/csv-rows" --where variant=reference --where rows=33 "$rec" rate)
    if awk -v r="$rate" 'BEGIN { exit !(r > 0) }'; then ok "... and a timed row's rate ($rate GB/s)"; else not_ok "no rate for the timed reference: '$rate'" "$rec"; fi
else
    not_ok "bench --record failed" "$tmp/rec.log"
fi

# The emulator refuses what it cannot run when the lab is compiled, in words.
cat >"$tmp/ptx.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { unsigned c; asm("add.u32 %0, %1, 1;" : "=r"(c) : "r"(threadIdx.x)); o[c] = 1; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
cat >"$tmp/big.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { __shared__ float big[12289]; big[threadIdx.x] = 1; o[0] = big[0]; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
cat >"$tmp/fp8.cu" <<'CU'
#include <cuda_fp8.h>
#include "lab.h"
__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
emu="harness/emu/emu-compile.sh $build/harness/emu-rewrite"
expect 1 "The tilelab CPU emulator runs no inline PTX but an asm statement that only moves one special register" $emu "$tmp/ptx.cu" "$tmp/ptx.o" "$tmp/ptx.txt"
expect 1 "cuda_fp8.h is a header of the CUDA toolkit that the tilelab CPU emulator does not provide" $emu "$tmp/fp8.cu" "$tmp/fp8.o" "$tmp/fp8.txt"
expect 1 "uses too much shared data (0xc004 bytes, 0xc000 max)" $emu "$tmp/big.cu" "$tmp/big.o" "$tmp/big.txt"
expect 2 "GPU=fast? Say GPU=cuda" make lab3 test GPU=fast
# A CPU stub filled in as its handout says, with (size_t) casts, compiles as
# it is: the stub declares what the handout asks the student to use.
for stub in labs/01-cpu-naive/transpose.c labs/02-cpu-blocked/transpose.c; do
    awk '/TODO\(/ { print "    for (int r = 0; r < rows; r++)";
                    print "        for (int c = 0; c < cols; c++)";
                    print "            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];";
                    skip = 1 }
         skip && /^}/ { skip = 0 }
         !skip' "$stub" >"$tmp/filled.c"
    if grep -q '(size_t)c' "$tmp/filled.c" && ${CC:-gcc} -std=c11 -Wall -Wextra -Werror -Iharness/core/include -c "$tmp/filled.c" -o "$tmp/filled.o" 2>"$tmp/cc.log"; then
        ok "$stub filled in with (size_t) casts compiles"
    else
        not_ok "$stub filled in with (size_t) casts does not compile" "$tmp/cc.log"
    fi
done
# A student's mistakes, end to end through make in a copy of the kit: the
# message names the mistake in the lab's own terms.
kit=$tmp/kit
copy_kit "$kit"
# expect_said WHAT LAB FILE SAYS [NOT]: make labN test fails, saying SAYS and never NOT.
expect_said() {
    local what=$1 lab=$2 says=$4 not=${5:-} # $3, the file, is there for the reader
    make -s -C "$kit" B=build "lab$lab" test GPU=emu >"$tmp/said" 2>&1
    if grep -qF -- "$says" "$tmp/said" && { [ -z "$not" ] || ! grep -qF -- "$not" "$tmp/said"; }; then
        ok "$what"
    else
        not_ok "$what (wanted \"$says\"${not:+, never \"$not\"})" "$tmp/said"
    fi
}
# Lab 1 with rows <= in the loop: writes past the end of out.
sed 's/r < rows/r <= rows/' solutions/01-cpu-naive/transpose.c >"$kit/labs/01-cpu-naive/transpose.c"
expect_said "a write past the end of out says how far past, never 'the first 0'" 1 transpose.c \
    "1 past its last element" "the first 0 past"
# Lab 3 with a grid rounded down: 0 blocks for a small matrix, a missed tail for others.
sed 's|(cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS|cols / TILE_DIM, rows / BLOCK_ROWS|' \
    solutions/03-gpu-naive/transpose.cu >"$kit/labs/03-gpu-naive/transpose.cu"
if ! cmp -s solutions/03-gpu-naive/transpose.cu "$kit/labs/03-gpu-naive/transpose.cu"; then
    expect_said "lab 3, a grid of 0 blocks: the message names that grid and the rounding" 3 transpose.cu \
        "your launch asked for a grid of (0," "gridDim.y/z over 65535"
    expect_said "lab 3, a grid rounded down: the tail hint speaks of the grid, not of a CPU loop" 3 transpose.cu \
        "the grid stops short" "min(start + BLOCK, size)"
else
    not_ok "the lab 3 reference no longer has the launch this test rounds down"
fi
# Lab 7 reading B with the wrong row length, far past its end: the cause is
# named with m, n and k.
sed 's/b\[(size_t)p \* n + col\]/b[(size_t)p * m * n + col]/' solutions/07-gpu-matmul/matmul.cu >"$kit/labs/07-gpu-matmul/matmul.cu"
if ! cmp -s solutions/07-gpu-matmul/matmul.cu "$kit/labs/07-gpu-matmul/matmul.cu"; then
    expect_said "lab 7 reading past the end of B: the cause speaks of m, n and k, not rows and cols" 7 matmul.cu \
        "check row < m and col < n" "x < cols && y < rows"
else
    not_ok "the lab 7 reference no longer reads B as this test expects"
fi
# A missing barrier in lab 7's tiled kernel: the emulator sees the race itself and names
# the barrier, never threads outside C (which return first: the case below). (On a GPU
# the values come out wrong, and racecheck names it: the checker's blocks wholly inside C
# read the emulator's NaN for shared memory nobody wrote, which a GPU does not have.)
# The whole of it: the race's account once lost its last words to two buffers on its way.
cp tests/emu_corpus/lab07-no-barrier-after-loads.cu "$kit/labs/07-gpu-matmul/matmul.cu"
expect_said "lab 7 without the barrier after the loads: the race and the barrier named, not the threads outside C" \
    7 matmul.cu "Put a __syncthreads() between the two that every thread of the block passes (not inside an if that some threads skip)" "left their part of the tiles unstored"
cp tests/emu_corpus/lab07-return-before-barrier.cu "$kit/labs/07-gpu-matmul/matmul.cu"
expect_said "lab 7 returning before the barrier: the hint names the threads outside C, not a missing barrier" \
    7 matmul.cu "left their part of the tiles unstored" "Put a __syncthreads() between loading the tiles"
# Lab 9 on a square grid whose blocks below the diagonal do not return: two blocks a pair.
sed '/if (blockIdx.x < blockIdx.y)/,/return;/d' tests/emu_corpus/lab09-pairs-square-grid.cu >"$kit/labs/09-gpu-inplace/transpose.cu"
if ! grep -q 'return;' "$kit/labs/09-gpu-inplace/transpose.cu"; then
    expect_said "lab 9, two blocks on each pair: the hint names them at every size, not the blog's bug" 9 transpose.cu \
        "so two blocks work each pair" "tiles were not swapped with their mirror"
else
    not_ok "lab09-pairs-square-grid.cu no longer returns as this test expects"
fi
# A build from another STUDENT_DIR is not kept for labs/: make labN test then
# runs the file it names (here the stub, older than that build), and says which.
mkdir -p "$tmp/elsewhere/labs" && cp -r solutions/02-cpu-blocked "$tmp/elsewhere/labs/"
make -s -C "$kit" B=build lab2 test STUDENT_DIR="$tmp/elsewhere/labs" >"$tmp/said" 2>&1
cp labs/02-cpu-blocked/transpose.c "$kit/labs/02-cpu-blocked/transpose.c"
touch -d '2001-01-01' "$kit/labs/02-cpu-blocked/transpose.c"
make -s -C "$kit" B=build lab2 test >"$tmp/said2" 2>&1
if grep -qF "your code: $tmp/elsewhere/labs/02-cpu-blocked/transpose.c" "$tmp/said" &&
    grep -qF "your code: labs/02-cpu-blocked/transpose.c" "$tmp/said2" && grep -q "not implemented yet" "$tmp/said2"; then
    ok "after a run on another STUDENT_DIR, make lab2 test runs labs/ again, and each run names its file"
else
    not_ok "a build from another STUDENT_DIR was run for labs/, or the file was misnamed" "$tmp/said2"
fi
# Lab 2 with a local buffer of BLOCK x BLOCK floats, 16 MiB at BLOCK=2048, which the handout
# invites: its stack overflows, and the test says so, not "an index out of bounds"; its twin
# (BLOCK 32) that writes through a null pointer still hears of a bad index or pointer (lab_runner.c).
for how in deep null; do
    mkdir -p "$tmp/$how/02-cpu-blocked"
    cat >"$tmp/$how/02-cpu-blocked/transpose.c" <<C
#include <stddef.h>
#include "lab.h"
#ifndef BLOCK
#define BLOCK 32
#endif
void transpose(float *out, const float *in, int rows, int cols)
{
    volatile float buf[BLOCK][BLOCK];
    volatile float *volatile nowhere = NULL;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            buf[c % BLOCK][r % BLOCK] = in[(size_t)r * cols + c];
            out[(size_t)c * rows + r] = buf[c % BLOCK][r % BLOCK];
        }
    if ($([ $how = null ] && echo 1 || echo 0))
        *nowhere = 1.0f;
}
C
    block=32
    [ "$how" = null ] || block=2048
    make -s -C "$kit" B=build lab2 test STUDENT_DIR="$tmp/$how" BLOCK="$block" \
        TEST_ARGS="--filter=lab02/one_by_one" >"$tmp/said-$how" 2>&1
done
if grep -q "killed by SIGSEGV: a stack overflow" "$tmp/said-deep" && ! grep -q "index out of bounds" "$tmp/said-deep" &&
    grep -q "killed by SIGSEGV: a memory access outside what was allocated" "$tmp/said-null" &&
    ! grep -q "stack overflow" "$tmp/said-null"; then
    ok "lab 2, a 16 MiB local array: a stack overflow, so named; a null pointer: a bad index or pointer"
else
    cat "$tmp/said-deep" "$tmp/said-null" >"$tmp/said-stack"
    not_ok "lab 2's stack overflow, or its null-pointer twin, misnamed" "$tmp/said-stack"
fi
# Lab 3 with an endless loop in its kernel: the run ends, at the limit on the
# whole run when the tests' own do not fire first (here a 5-second one), and
# takes its lab processes along.
if endless_lab3 "$kit"; then
    start=$SECONDS
    TILELAB_RUN_LIMIT=5 make -s -C "$kit" B=build lab3 test GPU=emu >"$tmp/said" 2>&1
    took=$((SECONDS - start))
    left=$(pgrep -f "$kit/build/lab03/.*lab-runner" | wc -l)
    if grep -qF "the tests ran past 5 seconds in all" "$tmp/said" && [ "$took" -lt 60 ] && [ "$left" -eq 0 ]; then
        ok "lab 3, an endless loop: the run stops at its limit, says why, and leaves no lab process (${took}s)"
    else
        not_ok "lab 3, an endless loop: ${took}s, $left lab process(es) left" "$tmp/said"
    fi
    # Without that limit, the call that never returns is named with its shape, twice stopped
    # by its CPU time (lab_client.h), and the tests after it are skipped, saying why, where
    # each once waited out its own limit ("Timed out.", eleven times in lab 4).
    start=$SECONDS
    make -s -C "$kit" B=build lab3 test GPU=emu >"$tmp/said" 2>&1
    took=$((SECONDS - start))
    if grep -qE "transpose\(\) of a [0-9]+ x [0-9]+ matrix did not return: it ran past [0-9]+ s of CPU time, and again" "$tmp/said" &&
        grep -qE "the [1-9][0-9]* test\(s\) after it were not run" "$tmp/said" && ! grep -q "Timed out" "$tmp/said"; then
        ok "lab 3, an endless loop: the call and its shape named, the tests after it skipped (${took}s)"
    else
        not_ok "lab 3, an endless loop: not named, or tests after it still ran to their limits (${took}s)" "$tmp/said"
    fi
fi
# Grading one lab builds the references its bench times beside it (labNN_baseline):
# lab 9's GPU bench links lab 6's, which grading LABS=09 alone once left out.
if make -n -s B="$tmp/refs-09" references LABS=09 2>&1 | grep -q 'prebuilt/lab06-emu\.o'; then
    ok "make references LABS=09 builds lab 6's reference too (lab 9's baseline)"
else
    not_ok "make references LABS=09 leaves out lab 6's reference, which lab 9's bench needs"
fi
# make help: a student's commands first, every one of them before the
# instructors' heading; grading, Gradescope, Slurm and dist under it.
make -s help >"$tmp/help" 2>&1
heading=$(grep -n '^For instructors' "$tmp/help" | cut -d: -f1)
late= early=
for c in 'labN test' 'labN bench' 'labN plot' handin deps plots report clean; do
    at=$(grep -n "^  make $c " "$tmp/help" | head -1 | cut -d: -f1)
    [ -n "$at" ] && [ -n "$heading" ] && [ "$at" -lt "$heading" ] || late="$late '$c'"
done
for c in grade grade-all gradescope references slurm-start hostile dist; do
    at=$(grep -n "^  make $c " "$tmp/help" | head -1 | cut -d: -f1)
    [ -n "$at" ] && [ -n "$heading" ] && [ "$at" -gt "$heading" ] || early="$early '$c'"
done
if [ -z "$late$early" ]; then
    ok "make help lists a student's commands first, the instructors' under a heading of their own"
else
    not_ok "make help: student commands not before the instructors' heading:${late:- none}; instructor commands not under it:${early:- none}" "$tmp/help"
fi

# The compile line a build prints is the one it runs: pasted, it fails as the
# build did (warnings are errors), not with a clean compile that hides them.
mkdir -p "$tmp/mine/01-cpu-naive"
sed 's/^{$/{\n    int unused_by_mistake;/' labs/01-cpu-naive/transpose.c >"$tmp/mine/01-cpu-naive/transpose.c"
make -s B="$tmp/b" STUDENT_DIR="$tmp/mine" "$tmp/b/lab01/student/lab.raw.o" >"$tmp/built" 2>&1
shown=$(grep -m1 -E '^(gcc|cc|clang)' "$tmp/built")
if grep -q 'unused_by_mistake' "$tmp/built" && [[ $shown == *-Werror* ]] && [[ $shown == *"$tmp/mine/01-cpu-naive/transpose.c"* ]] &&
    ! (eval "$shown -o $tmp/pasted.o") >"$tmp/pasted" 2>&1 && grep -q 'unused_by_mistake' "$tmp/pasted"; then
    ok "the compile line a build shows, pasted, fails as the build did (warnings as errors): $shown"
else
    not_ok "the compile line shown ($shown) does not reproduce the build's error" "$tmp/built"
fi

# A lab whose last make labN test did not build is said so by make handin (the build's
# first line of record stays), never "never tested": it would score 0.
make -s B="$tmp/nb" "$tmp/nb/handin-status" >/dev/null 2>&1
make -s B="$tmp/nb" lab1 test CC=false >"$tmp/nb.out" 2>&1
# (a finished file, older than the run, stands for the student's)
"$tmp/nb/handin-status" "$tmp/nb" 01:solutions/01-cpu-naive/transpose.c >"$tmp/nb.status" 2>&1
if grep -q 'did not build at its last make lab1 test' "$tmp/nb.status" && grep -q '^warning: lab 1 did not build' "$tmp/nb.status"; then
    ok "make handin says of a lab whose last test did not build that it did not build, with a warning"
else
    not_ok "make handin after a failed build: $(head -1 "$tmp/nb.status")" "$tmp/nb.status"
fi

# A lab file whose time moved but whose bytes did not (a checkout, an editor's save) is not
# "edited since" its last make labN test; one whose bytes changed is, whatever its time. The
# run records a digest of the file it began with (the stub here); the checks below stand a
# finished file's digest in its place, as a run of that file would have left it.
make -s B="$tmp/nb" lab1 test >/dev/null 2>&1
if [ "$(cat "$tmp/nb/lab01/student/last-test.digest" 2>/dev/null)" = "$("$tmp/nb/handin-status" --digest labs/01-cpu-naive/transpose.c)" ]; then
    ok "make lab1 test records a digest of the file it tests beside its report"
else
    not_ok "make lab1 test left no digest of labs/01-cpu-naive/transpose.c in $tmp/nb/lab01/student/last-test.digest"
fi
"$tmp/nb/handin-status" --digest solutions/01-cpu-naive/transpose.c >"$tmp/nb/lab01/student/last-test.digest"
mkdir -p "$tmp/same" "$tmp/changed"
cp solutions/01-cpu-naive/transpose.c "$tmp/same/" && touch -d '+1 hour' "$tmp/same/transpose.c"
{ cat solutions/01-cpu-naive/transpose.c; echo '/* one more line */'; } >"$tmp/changed/transpose.c"
touch -d '-1 hour' "$tmp/changed/transpose.c"
"$tmp/nb/handin-status" "$tmp/nb" 01:"$tmp/same/transpose.c" >"$tmp/same.status" 2>&1
"$tmp/nb/handin-status" "$tmp/nb" 01:"$tmp/changed/transpose.c" >"$tmp/changed.status" 2>&1
if grep -q 'passing' "$tmp/same.status" && ! grep -q 'edited since' "$tmp/same.status" &&
    grep -q 'edited since: test it again' "$tmp/changed.status"; then
    ok "make handin says edited since of a file whose bytes changed since its last test, not of one whose time alone moved"
else
    not_ok "make handin's edited since: same bytes, newer: $(grep 'lab 1' "$tmp/same.status"); other bytes, older: $(grep 'lab 1' "$tmp/changed.status")" "$tmp/same.status"
fi

# A lab file that includes a header of its own beside it builds and passes at
# make labN test, but make handin packs the lab file alone and the grader builds
# it alone: make handin says so, naming the header, before it scores 0.
mkdir -p "$tmp/inc/labs/01-cpu-naive"
sed 's|#include "lab.h"|#include "lab.h"\n#include "helper.h"  /* mine */|' solutions/01-cpu-naive/transpose.c >"$tmp/inc/labs/01-cpu-naive/transpose.c"
echo '/* a helper */' >"$tmp/inc/labs/01-cpu-naive/helper.h"
(cd "$tmp/inc" && "$tmp/nb/handin-status" "$tmp/nb" 01:labs/01-cpu-naive/transpose.c) >"$tmp/inc.status" 2>&1
if grep -q '^warning: lab 1 includes labs/01-cpu-naive/helper.h' "$tmp/inc.status" && ! grep -q 'lab.h' "$tmp/inc.status"; then
    ok "make handin warns of a lab file that includes a header beside it, which is not handed in"
else
    not_ok "make handin said nothing of helper.h, which the grader will not have" "$tmp/inc.status"
fi

# A kernel that works out its indices in a float (lab 3): right up to 2^24 elements, wrong
# past them, where a GPU's large shapes go and, since TL_PAST_FLOAT_INDEX, the emulator's
# suite too (tests/tl_test.h). Below it every test passes; past it, one fails, named.
mkdir -p "$tmp/floatidx/03-gpu-naive"
sed 's|out\[(size_t)c \* rows + r\] = in\[(size_t)r \* cols + c\];|{ float i = (float)r * cols + c, o = (float)c * rows + r; out[(size_t)o] = in[(size_t)i]; }|' \
    solutions/03-gpu-naive/transpose.cu >"$tmp/floatidx/03-gpu-naive/transpose.cu"
if cmp -s solutions/03-gpu-naive/transpose.cu "$tmp/floatidx/03-gpu-naive/transpose.cu"; then
    not_ok "lab 3's reference no longer reads as this test edits it" /dev/null
elif ! nice make -s B="$tmp/fi-build" STUDENT_DIR="$tmp/floatidx" GPU=emu "$tmp/fi-build/lab03/student-emu/test" >"$tmp/fi.out" 2>&1; then
    not_ok "the float-index lab 3 builds for the emulator" "$tmp/fi.out"
else
    "$tmp/fi-build/lab03/student-emu/test" --jobs 1 --filter '!(*random*)' --tap="$tmp/fi.tap" >"$tmp/fi.out" 2>&1
    failed=$(grep '^not ok' "$tmp/fi.tap" | sed -E 's/^not ok - ([a-z0-9_:]+).*/\1/' | tr '\n' ' ')
    if [ "$failed" = "lab03::large_past_float_index " ] && grep -q '^ok - lab03::large_square' "$tmp/fi.tap" &&
        grep -q 'transpose of a 4097 x 4097 matrix' "$tmp/fi.out"; then
        ok "a kernel that works out its index in a float fails on the emulator past 2^24 elements, and only there"
    else
        not_ok "a float-index kernel on the emulator: failed '${failed:-nothing}'" "$tmp/fi.out"
    fi
fi

tap_plan
