#!/usr/bin/env bash
# grade.sh SUBMISSION OUT_DIR
#
# Grades one hand-in (a .tar.gz from `make handin`, or a folder holding
# labs/NN-name/ files) against the kit's own harness and suites, and writes
# OUT_DIR/<name>/results.json (Gradescope), junit.xml and summary.txt.
# The Makefile runs it (`make grade`) and passes, in the environment:
#
#   LAB_SPEC       the labs: "01:01-cpu-naive:transpose.c:cpu 03:...:gpu ..."
#   BACKEND        cuda (a GPU) or emu (the CPU emulator) for the GPU labs
#   PREBUILT       compiled references (make references)
#   WEIGHTS        labs/grading.conf
#   HIDDEN         an instructor's file of held-back cases, or empty:
#                    seed 4242
#                    shapes 97x1031,4095x33
#   PERF           all (default), or none: grade-all leaves GPU timing to a
#                  second, serial pass (PERF=only) so timings never share a GPU
#   SUBMISSIONS    a folder the student's code must not see (grade-all)
#
# Student code is built and run in a bubblewrap sandbox: no network, the
# whole file system read-only except a scratch folder, the reference
# sources, the hidden cases, other hand-ins and all grade results hidden.
# Every test runs in its own process under a time limit; a pass counts only
# when Criterion reports it and the test itself recorded that it reached its
# end, so ending the process early (exit(0)) fails.
set -u
root=$(pwd)
submission=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
: "${LAB_SPEC:?} ${BACKEND:?} ${PREBUILT:?} ${WEIGHTS:?}"
HIDDEN=${HIDDEN:-} PERF=${PERF:-all} SUBMISSIONS=${SUBMISSIONS:-}
OUTPUT_LIMIT=4000          # bytes of output kept per test
TEST_LIMIT=300             # seconds, a backstop behind each test's own limit
FILE_LIMIT=$((1 << 20))    # bytes of a lab file

name=$(basename "$submission")
name=${name%.tar.gz}; name=${name%.tgz}; name=${name%.tar}
work=$(mkdir -p "$out/$name" && cd "$out/$name" && pwd)
scratch=$work/scratch
results=$work/results.tsv
[ "$PERF" = only ] || { rm -rf "$work"/{submission,build,scratch,outputs} "$results"; }
mkdir -p "$work/submission" "$work/build" "$scratch" "$work/outputs"

log() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------- sandbox

SANDBOX=none
if command -v bwrap >/dev/null && bwrap --ro-bind / / --dev /dev true 2>/dev/null; then
    SANDBOX=bwrap
else
    log "grade: WARNING: bubblewrap is missing or cannot run here: student code runs unsandboxed"
fi

# sandbox COMMAND...: run student code with only $scratch and the build folder writable.
sandbox() {
    if [ "$SANDBOX" != bwrap ]; then
        (cd "$root" && "$@")
        return
    fi
    # Hidden folders become empty and read-only; of the grade results only
    # this hand-in's own sources, build and scratch folders show through.
    local hide=() d
    for d in "$root/solutions" "$root/.git" "$SUBMISSIONS"; do
        [ ! -d "$d" ] || hide+=(--tmpfs "$d" --remount-ro "$d")
    done
    [ -z "$HIDDEN" ] || hide+=(--ro-bind /dev/null "$HIDDEN")
    # A private /tmp, with the kit bound back in should it live there.
    bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --ro-bind "$root" "$root" "${hide[@]}" --tmpfs "$out" \
        --ro-bind "$work/submission" "$work/submission" --ro-bind "$PREBUILT" "$PREBUILT" \
        --bind "$work/build" "$work/build" --bind "$scratch" "$scratch" --remount-ro "$out" \
        --unshare-net --unshare-pid --unshare-ipc --die-with-parent --new-session \
        --setenv HOME "$scratch" --setenv TMPDIR "$scratch" --chdir "$root" "$@"
}

# ---------------------------------------------------------------- results

# result LAB TEST KIND SCORE MAX VISIBILITY OUTPUT_FILE
result() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
}
# keep FILE: a copy of at most OUTPUT_LIMIT bytes, for the report
keep() {
    local n dst size
    n=$(find "$work/outputs" -type f | wc -l)
    dst=$work/outputs/$((n + 1)).txt
    size=$(wc -c <"$1")
    head -c "$OUTPUT_LIMIT" "$1" >"$dst"
    [ "$size" -le "$OUTPUT_LIMIT" ] || printf '\n[... %d more bytes cut]\n' $((size - OUTPUT_LIMIT)) >>"$dst"
    echo "$dst"
}
note() {
    printf '%s\n' "$1" >"$scratch/note"
    keep "$scratch/note"
}

# ---------------------------------------------------------------- hand-in

# Only the lab files themselves, as regular files of a sane size: never a
# hand-in's copy of the harness or the tests, never a link.
unpack() {
    local spec path dst
    for spec in $LAB_SPEC; do
        IFS=: read -r _ dir file _ <<<"$spec"
        path=labs/$dir/$file
        dst=$work/submission/$path
        mkdir -p "$(dirname "$dst")"
        if [ -d "$submission" ]; then
            [ -f "$submission/$path" ] && [ ! -L "$submission/$path" ] && cp "$submission/$path" "$dst"
        else
            tar -xzf "$submission" -C "$work/submission" --no-same-owner --no-same-permissions \
                "$path" 2>/dev/null
        fi
        if [ -L "$dst" ] || { [ -e "$dst" ] && [ ! -f "$dst" ]; }; then
            rm -rf "$dst"
            log "grade: $name: $path is not a regular file: ignored"
        elif [ -f "$dst" ] && [ "$(wc -c <"$dst")" -gt "$FILE_LIMIT" ]; then
            rm -f "$dst"
            log "grade: $name: $path is larger than $FILE_LIMIT bytes: ignored"
        fi
    done
}

weights_of() { awk -v lab="$((10#$1))" '$1 == lab { print $2, $3, $4, $5, $6 }' "$WEIGHTS"; }

# ---------------------------------------------------------------- one lab

lab_dir() { # LAB KIND -> the build folder of the student's variant
    if [ "$2" = gpu ] && [ "$BACKEND" = emu ]; then echo "$work/build/lab$1/student-emu"; else echo "$work/build/lab$1/student"; fi
}

build() { # LAB TARGET... : make inside the sandbox; output in $scratch/build.log
    local lab=$1
    shift
    sandbox make -s -C "$root" B="$work/build" STUDENT_DIR="$work/submission/labs" \
        REFERENCE_PREBUILT="$PREBUILT" GPU="$BACKEND" "$@" >"$scratch/build.log" 2>&1
}

# run_test BIN SUITE/TEST [NAME=VALUE...]: 0 when it passed; its output kept in $kept.
run_test() {
    local bin=$1 id=$2
    shift 2
    rm -f "$scratch/done" "$scratch/tap"
    (
        export TILELAB_DONE_FILE="$scratch/done" "$@"
        sandbox timeout -k 5 "$TEST_LIMIT" "$bin" --filter "$id" --tap="$scratch/tap" --jobs 1
    ) >"$scratch/test.log" 2>&1
    local rc=$?
    local suite=${id%%/*} test=${id#*/} passed=0
    if grep -q "^ok - $suite::$test " "$scratch/tap" 2>/dev/null &&
        ! grep -q "^ok - $suite::$test .*# SKIP" "$scratch/tap"; then
        if grep -qx "done $id" "$scratch/done" 2>/dev/null; then
            passed=1
        else
            printf '\ntilelab: the test did not reach its end: the process was ended early (exit() or _exit() in the lab code?)\n' >>"$scratch/test.log"
        fi
    fi
    [ $rc -ne 124 ] && [ $rc -ne 137 ] || printf '\ntilelab: stopped after %d seconds\n' "$TEST_LIMIT" >>"$scratch/test.log"
    kept=$(keep "$scratch/test.log")
    return $((1 - passed))
}

tests_of() { # BIN: suite/test per line
    "$1" --list 2>/dev/null | awk '/^[A-Za-z0-9_]+: [0-9]+ test/ { sub(":", "", $1); s = $1; next }
                                   s && NF { print s "/" $NF }'
}

perf_ratio() { # LAB KIND -> prints reference/student (or student/reference on a GPU), empty if none
    local lab=$1 kind=$2
    if [ "$kind" = cpu ]; then
        build "$lab" "$work/build/lab$lab/bench" || return
        local v fn
        for v in student reference; do
            fn=$([ $v = student ] && echo transpose || echo reference_transpose)
            sandbox valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no \
                --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --toggle-collect=$fn \
                --callgrind-out-file="$scratch/callgrind.$v" "$work/build/lab$lab/bench" \
                --once $v --sizes 1024 >/dev/null 2>&1 || return
        done
        local s r
        s=$(harness/callgrind-totals.sh "$scratch/callgrind.student" | awk '{ print $3 + $4 + $5 + $6 }')
        r=$(harness/callgrind-totals.sh "$scratch/callgrind.reference" | awk '{ print $3 + $4 + $5 + $6 }')
        awk -v s="$s" -v r="$r" 'BEGIN { if (s > 0) printf "%.4f\n", r / s }'
    elif [ "$BACKEND" = emu ]; then
        build "$lab" "$work/build/lab$lab/profile-emu" || return
        sandbox "$work/build/lab$lab/profile-emu" --size 256 --csv "$scratch/profile.csv" >/dev/null 2>&1 || return
        # Global sectors cost a trip to memory; a shared-memory pass costs far less.
        awk -F, '/^variant,/ { for (i = 1; i <= NF; i++) col[$i] = i }
                 /^(student|reference),/ { c[$1] += $col["global_load_sectors"] + $col["global_store_sectors"] +
                     ($col["shared_load_wavefronts"] + $col["shared_store_wavefronts"]) / 8 }
                 END { if (c["student"] > 0) printf "%.4f\n", c["reference"] / c["student"] }' "$scratch/profile.csv"
    else
        build "$lab" "$work/build/lab$lab/bench" || return
        sandbox "$work/build/lab$lab/bench" --only student,reference --sizes 4096 --reps 20 \
            --csv "$scratch/bench.csv" >/dev/null 2>&1 || return
        awk -F, '/^lab,/ { for (i = 1; i <= NF; i++) if ($i == "ratio_to_reference") c = i }
                 $2 == "student" && c { print $c }' "$scratch/bench.csv"
    fi
}

grade_lab() { # LAB DIR FILE KIND
    local lab=$1 dir=$2 file=$3 kind=$4
    local w correct technique perf zero_at full_at
    read -r correct technique perf zero_at full_at <<<"$(weights_of "$lab")"
    [ -n "${correct:-}" ] || { log "grade: lab $lab has no line in $WEIGHTS"; return; }
    local bin
    bin=$(lab_dir "$lab" "$kind")/test

    if [ "$PERF" != only ]; then
        if [ ! -f "$work/submission/labs/$dir/$file" ]; then
            result "$lab" "hand-in" correctness 0 "$correct" visible "$(note "labs/$dir/$file is not in the hand-in")"
            [ "$technique" = 0 ] || result "$lab" "hand-in" technique 0 "$technique" visible "$(note "not graded: no file")"
            [ "$perf" = 0 ] || result "$lab" "performance" performance 0 "$perf" visible "$(note "not graded: no file")"
            return
        fi
        if ! build "$lab" "$bin"; then
            result "$lab" "build" correctness 0 "$correct" visible "$(keep "$scratch/build.log")"
            [ "$technique" = 0 ] || result "$lab" "build" technique 0 "$technique" visible "$(note "not graded: the lab did not build")"
            [ "$perf" = 0 ] || result "$lab" "performance" performance 0 "$perf" visible "$(note "not graded: the lab did not build")"
            return
        fi
        local ids id seed shapes
        ids=$(tests_of "$bin" | grep -v "_hidden/")
        local n_correct n_technique
        n_correct=$(grep -vc "_technique/" <<<"$ids")
        n_technique=$(grep -c "_technique/" <<<"$ids")
        if [ -n "$HIDDEN" ]; then
            seed=$(awk '$1 == "seed" { print $2 }' "$HIDDEN")
            shapes=$(awk '$1 == "shapes" { print $2 }' "$HIDDEN")
            n_correct=$((n_correct + (${#seed} > 0) + (${#shapes} > 0)))
        fi
        [ "$n_technique" -gt 0 ] || { correct=$(awk -v a="$correct" -v b="$technique" 'BEGIN { print a + b }'); technique=0; }
        local each_c each_t
        each_c=$(awk -v p="$correct" -v n="$n_correct" 'BEGIN { printf "%.4f", n ? p / n : 0 }')
        each_t=$(awk -v p="$technique" -v n="$n_technique" 'BEGIN { printf "%.4f", n ? p / n : 0 }')
        for id in $ids; do
            local kind_of=correctness each=$each_c
            case "$id" in *_technique/*) kind_of=technique each=$each_t ;; esac
            if run_test "$bin" "$id"; then w=$each; else w=0; fi
            result "$lab" "${id#*/}" "$kind_of" "$w" "$each" visible "$kept"
        done
        if [ -n "${seed:-}" ]; then
            if run_test "$bin" "lab${lab}/random_shapes" TILELAB_SEED="$seed"; then w=$each_c; else w=0; fi
            result "$lab" "random_shapes (held-back seed)" correctness "$w" "$each_c" hidden "$kept"
        fi
        if [ -n "${shapes:-}" ]; then
            if run_test "$bin" "lab${lab}_hidden/held_back_shapes" TILELAB_HIDDEN="$shapes"; then w=$each_c; else w=0; fi
            result "$lab" "held_back_shapes" correctness "$w" "$each_c" hidden "$kept"
        fi
    fi

    [ "$perf" != 0 ] && [ "$PERF" != none ] || return
    # A GPU bench is never run beside another: grade-all leaves it to a serial pass.
    if [ "$PERF" = gpu-later ] && [ "$kind" = gpu ] && [ "$BACKEND" = cuda ]; then return; fi
    local failing
    failing=$(awk -F'\t' -v lab="$lab" '$1 == lab && $3 == "correctness" && $4 + 0 < $5 + 0' "$results" | wc -l)
    if [ "$failing" -gt 0 ]; then
        result "$lab" "performance" performance 0 "$perf" visible "$(note "not measured: performance counts once every correctness test passes")"
        return
    fi
    local ratio how
    ratio=$(perf_ratio "$lab" "$kind")
    how=$([ "$kind" = cpu ] && echo "simulated cache misses (reference / yours)" ||
          { [ "$BACKEND" = emu ] && echo "memory transactions counted by the emulator (reference / yours)" ||
            echo "GB/s at 4096x4096 (yours / reference)"; })
    if [ -z "$ratio" ]; then
        result "$lab" "performance" performance 0 "$perf" visible "$(note "could not be measured: $(tail -3 "$scratch/build.log" 2>/dev/null)")"
        return
    fi
    w=$(awk -v r="$ratio" -v z="$zero_at" -v f="$full_at" -v p="$perf" \
        'BEGIN { x = (r - z) / (f - z); if (x < 0) x = 0; if (x > 1) x = 1; printf "%.4f", p * x }')
    result "$lab" "performance" performance "$w" "$perf" visible \
        "$(note "ratio $ratio: $how; 0 points at $zero_at, all at $full_at")"
}

[ "$PERF" = only ] || unpack
for spec in $LAB_SPEC; do
    IFS=: read -r lab dir file kind <<<"$spec"
    log "grade: $name: lab $((10#$lab))"
    [ "$PERF" != only ] || [ "$kind" = gpu ] || continue
    grade_lab "$lab" "$dir" "$file" "$kind"
done
"${GRADE_REPORT:-$root/build/grade-report}" "$name" "$results" "$work" \
    "backend: $BACKEND; sandbox: $SANDBOX${HIDDEN:+; with held-back cases}"
