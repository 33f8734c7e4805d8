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

expect 2 "unknown lab 'lab9'" make lab9 test
expect 2 "unknown lab 'labx'" make labx test
expect 2 "unknown target 'frobnicate'" make lab1 frobnicate
expect 2 "which lab?" make test
expect 2 "Add an action" make lab1
expect 2 "one lab at a time" make lab1 lab2 test

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

# A real run: a table, and a CSV whose header says what produced it.
csv=$tmp/run.csv
expect 0 "of ceiling" $bench --sizes 64,33x65 --reps 2 --warmup 1 --csv "$csv"
for key in "# machine:" "# compiler:" "# flags:" "# lab: 1" "# date:" "lab,variant,rows,cols"; do
    if grep -qF -- "$key" "$csv"; then ok "CSV has '$key'"; else not_ok "CSV lacks '$key'"; fi
done
if grep -q '^1,reference,33,65,65,2,.*,GB/s,' "$csv"; then ok "CSV has the 33x65 reference row"; else not_ok "no 33x65 reference row"; fi

# The emulator refuses what it cannot run when the lab is compiled, in words.
cat >"$tmp/shfl.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { o[threadIdx.x] = __shfl_sync(0xffffffffu, o[threadIdx.x], 0); }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
cat >"$tmp/big.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { __shared__ float big[12289]; big[threadIdx.x] = 1; o[0] = big[0]; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32>>>(o); }
CU
cat >"$tmp/dyn.cu" <<'CU'
#include "lab.h"
__global__ void k(float *o) { extern __shared__ float s[]; s[threadIdx.x] = 1; o[0] = s[0]; }
void transpose(float *o, const float *i, int r, int c) { (void)i, (void)r, (void)c; k<<<1, 32, 128>>>(o); }
CU
emu="harness/emu/emu-compile.sh $build/harness/emu-rewrite"
expect 1 "extern __shared__) is not supported by the tilelab CPU emulator" $emu "$tmp/dyn.cu" "$tmp/dyn.o" "$tmp/dyn.txt"
expect 1 "__shfl_sync is not supported by the tilelab CPU emulator" $emu "$tmp/shfl.cu" "$tmp/shfl.o" "$tmp/shfl.txt"
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
    if grep -q '(size_t)c' "$tmp/filled.c" && ${CC:-gcc} -std=c11 -Wall -Wextra -Werror -Iharness -c "$tmp/filled.c" -o "$tmp/filled.o" 2>"$tmp/cc.log"; then
        ok "$stub filled in with (size_t) casts compiles"
    else
        not_ok "$stub filled in with (size_t) casts does not compile" "$tmp/cc.log"
    fi
done
tap_plan
