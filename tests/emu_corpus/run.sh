#!/usr/bin/env bash
# run.sh FILE.cu...   (run by `make emu-corpus`, which sets the environment)
#
# The emulator's fidelity corpus: small lab files a student could write,
# valid ones in many styles and the usual mistakes, each with the verdict
# a GPU gives it in its first lines:
#
#   // expect: pass                 builds, and the lab's tests pass
#   // expect: fail TEXT            builds, and the tests fail, saying TEXT
#   // expect: build-error TEXT     the compiler refuses it, saying TEXT
#   // expect-not: TEXT             and never says TEXT (a diagnosis that
#                                   misled a student); one line for each
#   // emulator-says: TEXT          on the emulator, the output also says
#                                   TEXT: what only it can see (shared
#                                   memory nobody wrote), where a GPU's
#                                   output says something else
#   // without-nvcc: builds         a known limit (harness/emu/README.md):
#                                   without nvcc the emulator builds it
#                                   (build-error: a pass or fail file it
#                                   refuses)
#   // emulator: VERDICT TEXT       in limits/ only: a known limit, the
#                                   emulator's verdict where it differs
#   // gpu-expect: VERDICT TEXT     on a GPU, where a technique check is skipped
#                                   (technique is judged from the emulator's
#                                   counts on every machine): its verdict there
#   // documented-in: FILE...       each FILE (a handout, a deck) quotes its
#                                   emulator-says TEXT: the words a student is
#                                   told to expect are the words the emulator
#                                   prints (checked by tests/docs_test.sh)
#   // gpu-tool: synccheck          on a GPU, also run this compute-sanitizer
#                                   tool as `make labN sanitize` runs it, on
#                                   the file as a student's (what a GPU
#                                   leaves undefined, the tool reports)
#
# TEXT is matched without regard to case, in everything the build or the
# tests printed. labNN-*.cu is a file of lab NN. The same files and the
# same expectations run on the emulator (BACKEND=emu) and on a GPU
# (BACKEND=cuda); on the emulator, what should not build is built a second
# time as if nvcc were missing (TL_EMU_NVCC=none), where the emulator's own
# checks must refuse it, and what builds is built so too, where it must build
# (its tests are not run again). Prints TAP, one line a verdict, and the tally
# "corpus: N agree, M disagree".
#
# Environment: B BACKEND CC CFLAGS BACKEND_CFLAGS CORE CLIENT (objects and libraries) LAB_REQUEST BACKEND_OBJS LIBS,
# SUITE_OBJ (each lab's suite as the Makefile compiled it, @LAB@ for the lab's number), LABS_TSV
# (the table of labs: harness/tools/labs.sh), and for cuda NVCC NVCC_FLAGS.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${B:=build}" "${BACKEND:=emu}"
out=$B/corpus/$BACKEND
mkdir -p "$out"
# The tests of a corpus run: every one but the large and the random shapes.
filter='!(*large*|*random*)'
jobs=$([ "$BACKEND" = cuda ] && echo "--jobs 1")

# The labs: their folders and files (lab_dir, lab_file) for sanitize, below.
. harness/tools/labs.sh
labs_read "${LABS_TSV:-}" || exit 1

# The suite of lab NN, linked once a run, before the files (below), from the object the
# Makefile compiled it to: it never links the lab file, so each file's folder gets a copy,
# which runs there beside the file's lab process and reads its report there.
suite() {
    # shellcheck disable=SC2086
    $CC -o "$out/lab$1-test" "${SUITE_OBJ//@LAB@/$1}" $CLIENT $CORE -lcriterion -lm
}

build() {
    local src=$1 d=$2 lab=$3
    if [ "$BACKEND" = emu ]; then
        # Verdicts, not counts: no SASS to read (a second nvcc and nvdisasm a file).
        TL_EMU_NVDISASM=${TL_EMU_NVDISASM:-none} \
            harness/emu/emu-compile.sh "$B/harness/emu-rewrite" "$src" "$d/lab.raw.o" "$d/resources.txt"
    else
        # shellcheck disable=SC2086
        $NVCC $NVCC_FLAGS -c "$src" -o "$d/lab.raw.o" >"$d/resources.txt" 2>&1
        local rc=$?
        grep -v -E '^ptxas info|bytes stack frame' "$d/resources.txt"
        [ $rc -eq 0 ] || return 1
        # Its device code alone: the suite runs each call's plan from it (harness/lab/lab_plans.c).
        objcopy -O binary --only-section=.nv_fatbin "$d/lab.raw.o" "$d/lab.fatbin" || return 1
    fi || return 1
    # The suite, and beside it the lab process that runs the file (harness/lab/lab_process.h).
    # shellcheck disable=SC2086
    harness/lab/isolate-symbols.sh "$d/lab.raw.o" "$d/lab.o" &&
        $CC -o "$d/lab-runner" "$out/lab_runner.o" "$d/lab.o" $LAB_REQUEST $BACKEND_OBJS $CORE $LIBS -lm &&
        cp "$out/lab$lab-test" "$d/test"
}

# sanitize SRC DIR LAB TOOL: `make labLAB sanitize` with only TOOL, on SRC put where a
# student's file goes, in a kit folder and build folder of its own under DIR. The tool
# runs on the lab's bench (--once), not on the suite: compute-sanitizer does not
# follow a suite into the lab process it starts (lab_process.h), so a suite run under
# the tool passes what the tool would find. Two minutes at most: a kernel that hangs
# at a barrier may hang under the tool too.
sanitize() {
    local src=$1 d=$2 lab=$3 tool=$4 file
    file=${lab_dir[$lab]}/${lab_file[$lab]}
    mkdir -p "$d/kit/${file%/*}"
    cp "$src" "$d/kit/$file"
    timeout -k 10 120 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j4 B="$d/kit/build" STUDENT_DIR="$d/kit" GPU=cuda \
        SANITIZE_TOOLS="$tool" "lab${lab#0}" sanitize
}

# judge SRC: builds and runs one file, and writes its verdicts to $d/verdicts:
# "agree|disagree|limit TEXT" lines, the log's end after a disagreement.
judge() {
    local src=$1 name lab d expect limit want text tool got alone never said emu_text
    name=$(basename "$src" .cu)
    lab=${name#lab}
    lab=${lab%%-*}
    case "$src" in */limits/*) name=limits/$name ;; esac
    d=$out/${name#limits/}
    expect=$(sed -n 's|^// expect: *||p' "$src" | head -1)
    limit=
    if [ "$BACKEND" = emu ] && grep -q '^// emulator: ' "$src"; then
        expect=$(sed -n 's|^// emulator: *||p' "$src" | head -1)
        limit=" (a known limit: a GPU gives $(sed -n 's|^// expect: *||p' "$src" | head -1))"
    fi
    if [ "$BACKEND" = cuda ] && grep -q '^// gpu-expect: ' "$src"; then
        expect=$(sed -n 's|^// gpu-expect: *||p' "$src" | head -1)
    fi
    want=${expect%% *}
    text=$([ "$want" = "$expect" ] || echo "${expect#* }")
    tool=$(sed -n 's|^// gpu-tool: *||p' "$src" | head -1)
    if ! build "$src" "$d" "$lab" >"$d/log" 2>&1; then
        got=build-error
    else
        # On a GPU, one file's suite and tool at a time, the builds side by side.
        {
            [ "$BACKEND" != cuda ] || flock 9
            # shellcheck disable=SC2086
            if (cd "$d" && ./test $jobs --filter "$filter") >>"$d/log" 2>&1; then got=pass; else got=fail; fi
            # The tool runs whatever the tests said: where they hang (a barrier some threads
            # never reach), what the tool says is what the expectation names.
            if [ "$BACKEND" = cuda ] && [ -n "$tool" ]; then
                sanitize "$src" "$d" "$lab" "$tool" >>"$d/log" 2>&1 || got=fail
            fi
        } 9>"$out/gpu.lock"
        # Tests that did not run (a GPU build on a machine without one) decide nothing.
        ! grep -q '^\[SKIP\]' "$d/log" || got=skipped
    fi
    # What the output must not say: the first such text it says, if any.
    said=
    while IFS= read -r never; do
        if [ -z "$said" ] && grep -qiF -- "$never" "$d/log"; then said=$never; fi
    done < <(sed -n 's|^// expect-not: *||p' "$src")
    # On the emulator, a text the output must say besides: where it is missing, the
    # verdict names it as it names a missing expected text.
    emu_text=$([ "$BACKEND" != emu ] || sed -n 's|^// emulator-says: *||p' "$src" | head -1)
    [ -z "$emu_text" ] || [ "$got" != "$want" ] || grep -qiF -- "$emu_text" "$d/log" || text=$emu_text
    {
        if [ "$got" = "$want" ] && { [ -z "$text" ] || grep -qiF -- "$text" "$d/log"; } && [ -z "$said" ]; then
            echo "$([ -n "$limit" ] && echo limit || echo agree) $name: $got (expected $expect)$limit"
        else
            echo "disagree $name: $got (expected $expect)$limit"
            [ "$got" != "$want" ] || [ -z "$text" ] || grep -qiF -- "$text" "$d/log" ||
                echo "#   the output does not say \"$text\""
            [ -z "$said" ] || echo "#   the output says \"$said\", which it must not"
            sed 's/^/#   /' "$d/log" | head -40
        fi
        # Without nvcc, the emulator's own checks must refuse what nvcc refuses, and build what
        # it builds (a pass or fail file, where nvcc's check ran: its build alone, not its tests;
        # what differs at run time without nvcc, ptxas's registers, harness/emu/README.md lists).
        alone=$(sed -n 's|^// without-nvcc: *||p' "$src" | head -1)
        [ "$want" = build-error ] || alone=${alone:-builds}
        if [ "$BACKEND" = emu ] && { [ "$want" = build-error ] || grep -q "(nvcc's check before" "$d/log"; }; then
            if TL_EMU_NVCC=none harness/emu/emu-compile.sh "$B/harness/emu-rewrite" "$src" "$d/alone.o" \
                    "$d/alone.txt" >"$d/alone.log" 2>&1; then
                got=builds
            else
                got=build-error
            fi
            if [ "$got" = "${alone:-build-error}" ]; then
                echo "agree $name, without nvcc: $got (expected ${alone:-build-error})"
            else
                echo "disagree $name, without nvcc: $got (expected ${alone:-build-error})"
                sed 's/^/#   /' "$d/alone.log" | head -20
            fi
        fi
    } >"$d/verdicts"
}

# Jobs at once: as many as the machine has cores (CORPUS_JOBS= says otherwise); on a GPU
# their suites run one at a time (judge). Each file's verdicts go to its own folder, and are
# printed below in the files' order, whichever finished first.
parallel=${CORPUS_JOBS:-$(nproc)}
running=0
# start CMD...: in the background, once fewer than $parallel jobs run.
start() {
    if [ "$running" -ge "$parallel" ]; then
        wait -n
        running=$((running - 1))
    fi
    "$@" &
    running=$((running + 1))
}

# What every file shares, built once and side by side: the lab process's own part, and the
# suite of each lab the files belong to.
rm -f "$out"/lab[0-9][0-9]-test "$out/lab_runner.o"
# shellcheck disable=SC2086
start $CC $CFLAGS $BACKEND_CFLAGS -c harness/lab/lab_runner.c -o "$out/lab_runner.o"
labs=" "
dirs=()
for src in "$@"; do
    name=$(basename "$src" .cu)
    lab=${name#lab}
    lab=${lab%%-*}
    case "$labs" in *" $lab "*) ;; *) labs="$labs$lab " && start suite "$lab" ;; esac
    rm -rf "${out:?}/$name"
    mkdir -p "$out/$name"
    dirs+=("$out/$name")
done
# wait's status is the last job's: each output is checked instead.
wait
for lab in $labs; do
    [ -s "$out/lab$lab-test" ] || { echo "corpus: the suite of lab $lab did not build" >&2; exit 1; }
done
[ -s "$out/lab_runner.o" ] || { echo "corpus: harness/lab/lab_runner.c did not build" >&2; exit 1; }

running=0
for src in "$@"; do
    start judge "$src"
done
wait

n=0 agree=0 disagree=0 limits=0
for d in "${dirs[@]}"; do
    [ -f "$d/verdicts" ] || echo "disagree ${d##*/}: no verdict (its judge stopped)" >"$d/verdicts"
    while IFS= read -r line; do
        case "$line" in
        "#"*) echo "$line"; continue ;;
        agree*) agree=$((agree + 1)); n=$((n + 1)); echo "ok $n - ${line#agree }" ;;
        limit*) limits=$((limits + 1)); n=$((n + 1)); echo "ok $n - ${line#limit }" ;;
        *) disagree=$((disagree + 1)); n=$((n + 1)); echo "not ok $n - ${line#disagree }" ;;
        esac
    done <"$d/verdicts"
done
echo "1..$n"
echo "corpus: $agree agree, $disagree disagree ($BACKEND)$([ "$limits" -eq 0 ] || echo ", and $limits known limit(s) behaving as harness/emu/README.md says")"
[ "$disagree" -eq 0 ]
