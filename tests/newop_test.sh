#!/usr/bin/env bash
# An operation is one descriptor (harness/core/include/op.h): this holds the
# kit to that. In a copy of the kit, a throwaway operation, the row sum
# (out[r] = the sum of row r of in), and a GPU lab of it at the next free
# number are added by writing only: labs/labs.mk's lines, the operation's
# file (harness/core/ops/rowsum.c), its checker
# (harness/core/src/check_rowsum.c), its suite (tests/labNN_test.c) and the
# lab's own folders (stub and reference), all from tests/newop/. Then, on
# the emulator: the reference passes its suite and the stub fails it, test
# by test; the bench builds and says what it would time; a CPU lab of the
# row sum, the number after it, benches from the descriptor as well
# (bench_cpu.c): the copy and the reference timed, the stub not; the profile counts
# the reference's kernel at its size; the figure of the lab is drawn from
# it; and make grade scores the reference handed in. Prints TAP; make check
# counts it.
source "$(dirname "$0")/tap.sh"

kit=$tmp/kit
copy_kit "$kit"
touch "$tmp/copied"

num=$(sed -n 's/^LABS := //p' labs/labs.mk | awk '{ printf "%02d", $NF + 1 }')
lab=$((10#$num)) dir=$num-gpu-rowsum
cnum=$(printf '%02d' $((lab + 1))) clab=$((lab + 1))
cdir=$cnum-cpu-rowsum
mkdir -p "$kit/labs/$dir" "$kit/solutions/$dir" "$kit/labs/$cdir" "$kit/solutions/$cdir"
cp tests/newop/stub.cu "$kit/labs/$dir/rowsum.cu"
cp tests/newop/solution.cu "$kit/solutions/$dir/rowsum.cu"
cp tests/newop/stub.c "$kit/labs/$cdir/rowsum.c"
cp tests/newop/solution.c "$kit/solutions/$cdir/rowsum.c"
printf '# Lab %d: row sums\n\nA throwaway lab of tests/newop_test.sh.\n' "$lab" >"$kit/labs/$dir/README.md"
printf '# Lab %d: row sums on the CPU\n\nA throwaway lab of tests/newop_test.sh.\n' "$clab" >"$kit/labs/$cdir/README.md"
cp tests/newop/rowsum.c "$kit/harness/core/ops/rowsum.c"
cp tests/newop/check_rowsum.c "$kit/harness/core/src/check_rowsum.c"
sed "s/labNN/lab$num/g; s/Lab NN/Lab $lab/" tests/newop/suite.c >"$kit/tests/lab${num}_test.c"
{
    sed "s/^LABS := .*/& $num $cnum/" labs/labs.mk
    printf '\nlab%s_dir := %s\nlab%s_kind := gpu\nlab%s_op := rowsum\nlab%s_file := rowsum.cu\nlab%s_tunables := BLOCK_ROWS\nlab%s_title := GPU row sum\n' \
        "$num" "$dir" "$num" "$num" "$num" "$num" "$num"
    printf '\nlab%s_dir := %s\nlab%s_kind := cpu\nlab%s_op := rowsum\nlab%s_file := rowsum.c\nlab%s_tunables :=\nlab%s_title := CPU row sum\n' \
        "$cnum" "$cdir" "$cnum" "$cnum" "$cnum" "$cnum" "$cnum"
} >"$kit/labs/labs.mk"
# What the kit's history would say was written: nothing but those files.
written=$(cd "$kit" && find . -newer "$tmp/copied" -type f | sort | tr '\n' ' ')
expected=$(printf '%s\n' ./labs/labs.mk "./labs/$dir/rowsum.cu" "./labs/$dir/README.md" "./solutions/$dir/rowsum.cu" \
    "./labs/$cdir/rowsum.c" "./labs/$cdir/README.md" "./solutions/$cdir/rowsum.c" \
    ./harness/core/ops/rowsum.c ./harness/core/src/check_rowsum.c "./tests/lab${num}_test.c" | sort | tr '\n' ' ')
if [ "$written" = "$expected" ]; then
    ok "the row sum is added by labs.mk's lines, one operation file, its checker, its suite and the lab's folders"
else
    not_ok "the copy holds other new files than the operation's: $written"
fi

kmake() { make -s -C "$kit" B=build GPU=emu "$@"; }

# The suite: Criterion's synthesis, read by its counts.
synthesis() { sed -n 's/.*Synthesis: Tested: \([0-9]*\) | Passing: \([0-9]*\) | Failing: \([0-9]*\).*/\1 \2 \3/p' "$1" | tail -1; }
kmake "lab$lab" test SOLUTION=1 >"$tmp/ref.log" 2>&1
read -r tested passing failing <<<"$(synthesis "$tmp/ref.log")"
if [ "${tested:-0}" -ge 3 ] && [ "$passing" = "$tested" ] && [ "$failing" = 0 ]; then
    ok "make lab$lab test SOLUTION=1: the row sum's reference passes its $tested tests on the emulator"
else
    not_ok "the row sum's reference does not pass its suite (tested ${tested:-none}, passing ${passing:-none})" "$tmp/ref.log"
fi
kmake "lab$lab" test >"$tmp/stub.log" 2>&1
read -r tested passing failing <<<"$(synthesis "$tmp/stub.log")"
if [ "${tested:-0}" -ge 3 ] && [ "$failing" = "$tested" ] && grep -q "launch a kernel that sums each row" "$tmp/stub.log"; then
    ok "make lab$lab test: the stub fails every test ($failing of $tested), saying what to write"
else
    not_ok "the stub does not fail its suite test by test (tested ${tested:-none}, failing ${failing:-none})" "$tmp/stub.log"
fi

# The bench: built for a GPU with the operation's back end (bench_any.c: it has none of
# its own) and its default sizes; on a GPU, run, its CSV read by its columns' names.
if ! kmake GPU=cuda CUDA_ARCH=90 "build/lab$num/bench" >"$tmp/bench-build.log" 2>&1; then
    if grep -q "needs the CUDA toolkit" "$tmp/bench-build.log"; then
        ok "# SKIP lab $lab's bench is built by nvcc, which this machine lacks"
    else
        not_ok "lab $lab's bench does not build" "$tmp/bench-build.log"
    fi
elif ! nvidia-smi -L >/dev/null 2>&1; then
    "$kit/build/lab$num/bench" --help >"$tmp/bench-help.txt" 2>&1
    if grep -q "(default 1024,4096,8192,4097x8191)" "$tmp/bench-help.txt"; then
        ok "lab $lab's bench builds, its default sizes the operation's (timing it needs a GPU, which this machine lacks)"
    else
        not_ok "lab $lab's bench does not take its sizes from the operation" "$tmp/bench-help.txt"
    fi
else
    csv=$kit/build/bench/lab$num-SIZES256_33x65-REPS3.csv
    # The reference as the student's file too: a stub is not timed, and its row is the one
    # a student's code gets.
    kmake GPU=cuda CUDA_ARCH=90 "lab$lab" bench STUDENT_DIR=solutions SIZES=256,33x65 REPS=3 >"$tmp/bench.log" 2>&1
    if [ -s "$csv" ] && "$kit/build/csv-rows" "$csv" lab variant rows cols unit role >"$tmp/bench-rows" 2>&1 &&
        awk -F'\t' -v lab="$lab" '$1 == lab && $3 "x" $4 == "33x65" && $5 == "GB/s" { seen[$6] = 1 }
            END { exit !(seen["ceiling"] && seen["reference"] && seen["student"]) }' "$tmp/bench-rows"; then
        ok "make lab$lab bench times the copy, the reference and the student's code at 33x65, in GB/s"
    else
        not_ok "make lab$lab bench wrote no rows of lab $lab at 33x65" "$tmp/bench.log"
    fi
fi

# The CPU lab's bench, run here: its CSV and its record read by their columns' names.
kmake "build/lab$cnum/bench" "build/csv-rows" >"$tmp/cpu-bench-build.log" 2>&1 &&
    "$kit/build/lab$cnum/bench" --sizes 64,33x65 --reps 3 --csv "$tmp/cpu.csv" --record "$tmp/cpu.tsv" \
        >"$tmp/cpu-bench.log" 2>&1
if [ -s "$tmp/cpu.csv" ] && "$kit/build/csv-rows" "$tmp/cpu.csv" lab rows cols unit role >"$tmp/cpu-rows" 2>&1 &&
    awk -F'\t' -v lab="$clab" '$1 == lab && $2 "x" $3 == "33x65" && $4 == "GB/s" { seen[$5]++; n++ }
        END { exit !(seen["ceiling"] == 1 && seen["reference"] == 1 && n == 2) }' "$tmp/cpu-rows"; then
    ok "lab $clab, the row sum on the CPU, benches: the copy and the reference timed at 33x65 in GB/s, no other row"
else
    not_ok "lab $clab's CPU bench wrote no rows of the copy and the reference at 33x65" "$tmp/cpu-bench.log"
fi
if "$kit/build/csv-rows" "$tmp/cpu.tsv" role rows outcome note >"$tmp/cpu-record" 2>&1 &&
    awk -F'\t' '$1 == "student" && $2 == 64 && $3 == "untimed" && $4 ~ /^not implemented yet/ { found = 1 }
        END { exit !found }' "$tmp/cpu-record"; then
    ok "... and its record says the stub was not timed: not implemented yet"
else
    not_ok "lab $clab's record does not say the stub was left untimed" "$tmp/cpu-record"
fi

# The profile on the emulator: the reference's kernel counted at the size asked for, in
# a CSV of that size's own (the default run's, lab$num-profile.csv, is the figures').
csv=$kit/build/bench/lab$num-profile-SIZE64x48.csv
kmake "lab$lab" profile SOLUTION=1 PROFILE_SIZE=64x48 >"$tmp/profile.log" 2>&1
if [ -s "$csv" ] && "$kit/build/csv-rows" "$csv" variant kernel rows cols least_sectors 2>"$tmp/csv.err" >"$tmp/profile-rows" &&
    awk -F'\t' '$1 == "reference" && $2 == "row_sum_kernel" && $3 == 64 && $4 == 48 && $5 == int((64 * 48 + 64) * 4 / 32 + 0.99) { found = 1 }
        END { exit !found }' "$tmp/profile-rows"; then
    ok "make lab$lab profile counts the reference's row_sum_kernel at 64 x 48, its least sectors the operation's"
else
    not_ok "make lab$lab profile wrote no row of the reference's kernel" "$tmp/profile.log"
fi

# The figure: on the emulator (kmake's GPU=emu; a GPU's would draw the bench), a GPU lab's plot
# draws its profile.
kmake "lab$lab" plot SOLUTION=1 PROFILE_SIZE=64x48 >"$tmp/plot.log" 2>&1
if ! command -v gnuplot >/dev/null; then
    ok "# SKIP make lab$lab plot: gnuplot is not installed here (make deps installs it)"
elif [ -s "$kit/build/plots/lab$num.png" ] && [ -s "$kit/build/plots/lab$num.svg" ] &&
    grep -q "^reference; row_sum_kernel,[0-9]" "$kit/build/plots/lab$num.csv"; then
    ok "make lab$lab plot draws lab $lab's figure, the reference's row_sum_kernel in its numbers"
else
    not_ok "make lab$lab plot drew no figure of lab $lab" "$tmp/plot.log"
fi

# Grading: the reference handed in, scored, with the default points of a GPU lab.
mkdir -p "$tmp/handin/labs/$dir"
cp tests/newop/solution.cu "$tmp/handin/labs/$dir/rowsum.cu"
kmake grade LABS="$num" SUBMISSION="$tmp/handin" >"$tmp/grade.log" 2>&1
row=$(awk -v lab="$lab" -F'\t' '$1 == lab' "$kit/build/grade/handin/scores.tsv" 2>/dev/null)
if [ -n "$row" ] && awk -F'\t' '{ exit !($2 > 0 && $2 == $3) }' <<<"$row"; then
    ok "make grade scores lab $lab: $(echo "$row" | awk -F'\t' '{ print $2 " of " $3 }') points for the reference handed in"
else
    not_ok "make grade gave lab $lab no full score (scores.tsv: ${row:-no row})" "$tmp/grade.log"
fi
if grep -q "lab $lab has no line in labs/grading.conf" "$kit/build/grade/handin/summary.txt" 2>/dev/null; then
    ok "the summary says lab $lab was graded with the default points of its kind"
else
    not_ok "the summary does not say lab $lab's points are the defaults" "$kit/build/grade/handin/summary.txt"
fi
tap_plan
