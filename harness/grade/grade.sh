#!/usr/bin/env bash
# grade.sh SUBMISSION OUT_DIR [NAME]
#
# Grades one hand-in (a .tar.gz or .tar from `make handin`, or a folder
# holding labs/NN-name/ files) against the kit's own harness and suites,
# and writes OUT_DIR/NAME/results.json (Gradescope), junit.xml, summary.txt
# and scores.tsv. NAME defaults to the hand-in's name without its suffix.
# The Makefile runs it (`make grade`) and passes, in the environment:
#
#   LABS_TSV       the labs graded: the table of labs (harness/tools/labs.sh)
#   BACKEND        cuda (a GPU) or emu (the CPU emulator) for the GPU labs
#   PREBUILT       compiled references (make references)
#   WEIGHTS        labs/grading.conf
#   TOOLS          the build folder holding the grader's programs: grade-run,
#                  grade-sandbox, grade-plan, grade-measured, grade-held-back,
#                  grade-report, grade-confine, grade-private and grade-gpu-probe
#   MANIFESTS      each suite's tests, labNN.tests, from the reference's build
#   HIDDEN         an instructor's file of held-back cases (grade_held_back.c), or empty
#   PERF           all (default); gpu-later: leave GPU timing out; only: GPU
#                  timing alone (grade-all's serial second pass)
#   SUBMISSIONS    a folder the student's code must not see (grade-all)
#   VALGRIND       valgrind, which measures the CPU labs (their cache misses)
#   CACHE_SIM      the caches it simulates: its --I1, --D1 and --LL flags
#   KEEP_BUILD     1: keep the hand-in's builds and raw records (its report alone otherwise, the builds removed once graded)
#   GRADE_JOBS     how many labs are graded at once (the machine's cores; grade-all sets it)
#   HIDDEN_VISIBILITY  how results.json shows held-back tests (grade-report reads it)
#
# This script only runs things and records what it saw (OUT_DIR/NAME/
# outcomes.tsv); grade-report computes every point from it and WEIGHTS. What
# to run and what it came to are the C programs' answers: the sandbox's
# command line (grade-sandbox), which tests each suite run holds and whether
# performance is measured (grade-plan), a measurement's runs and its outcome
# (grade-measured), the held-back cases (grade-held-back). Each function gets
# what it needs as arguments and gives what it found on its output; the
# grading's configuration (the limits below, the sandbox and the labs) is set
# once, before any lab is graded.
# Student code is built and run only in a bubblewrap sandbox: no network, no
# capabilities, the system's folders and the grader's tools read-only and
# nothing else of the machine, the reference sources, the held-back cases,
# other hand-ins and all grade records hidden, a fresh /tmp for each
# command, and every command under a time limit (grade-run). A CPU lab's
# measured run is besides one process (grade-confine).
set -u
unset MAKEFLAGS MFLAGS MAKELEVEL
root=$(pwd)
: "${LABS_TSV:?} ${BACKEND:?} ${PREBUILT:?} ${MANIFESTS:?} ${WEIGHTS:?} ${TOOLS:?} ${CACHE_SIM:?}"
# The labs graded: their numbers in $labs, their fields in lab_dir, lab_file, lab_kind, lab_op.
. harness/tools/labs.sh
CSV_ROWS=$TOOLS/csv-rows labs_read "$LABS_TSV" || exit 2
. harness/grade/assignment.sh
HIDDEN=${HIDDEN:-} PERF=${PERF:-all} SUBMISSIONS=${SUBMISSIONS:-} VALGRIND=${VALGRIND:-}
OUTPUT_LIMIT=4000            # bytes of output kept per command
FILE_LIMIT=$((1 << 20))      # bytes of one lab file
ARCHIVE_LIMIT=$((16 << 20))  # bytes of a whole hand-in archive, unpacked
# Time limits count CPU time (grade-run: the command's processes together), which
# a busy machine does not change; the clock ends only what waits for nothing.
BUILD_LIMIT=300              # seconds to build one lab
TEST_MARGIN=5                # seconds past a test's own limits (3 x its seconds) before it is killed
RETRY_SCALE=${TILELAB_GRADE_RETRY_SCALE:-10} # a test that timed out runs again alone, with this many times the reference's time (the knob: for the grader's tests)
LAB_LIMIT=${TILELAB_GRADE_LAB_LIMIT:-900}  # seconds of CPU time for all the tests of one lab (the knob: for the grader's tests)
PERF_LIMIT=300               # seconds for one measurement
# Disk: while a hand-in is built or measured each file it writes is capped,
# and its folder (builds and measurements together) is checked after each
# such command; its /tmp is a tmpfs of a fixed size (bwrap). Nothing of its
# builds is kept once it is graded, unless KEEP_BUILD=1 asks.
BUILD_FILE_LIMIT=$((64 << 20))  # bytes of one file a build or a measurement writes
# Memory: each process of a build, test or measurement holds at most this much
# data (grade-run --memory). Not on a GPU, whose driver's mappings this limit
# has not been tried against.
MEMORY_LIMIT=$((4 << 30))
DISK_LIMIT=${TILELAB_GRADE_DISK_LIMIT:-$((256 << 20))} # bytes of a hand-in's builds and measurements together (the knob: for the grader's tests)
TMP_LIMIT=$((512 << 20))        # bytes of its /tmp
CPU_PERF_SIZE=1000           # not a power of two: see labs/grading.conf
# On a GPU, the size of the lab's operation's descriptor (grade_size, harness/core/ops/):
# the bench's --grade-size; on the emulator, which counts every access, its grade_emu_size:
# the profile's --grade-size (256 x 256 a transpose; 2^20 floats a reduction, whose 256
# floats were one block, where every step of lab 10's ladder moved the same 36 sectors).
# What student code sees of the machine and of the kit's folder: grade-sandbox
# (harness/grade/grade_sandbox.h).

log() { printf '%s\n' "$*" >&2; }


# The hand-in by its absolute, physical path (realpath -e and readlink -f are not everywhere).
[ -e "$1" ] || { log "grade: no such hand-in: $1"; exit 2; }
if [ -d "$1" ]; then
    submission=$(cd -P -- "$1" && pwd -P)
else
    submission=$(cd -P -- "$(dirname -- "$1")" && pwd -P)/$(basename -- "$1")
fi || { log "grade: no such hand-in: $1"; exit 2; }
out=$(mkdir -p "$2" && cd "$2" && pwd)
handed=$(basename -- "$1")
name=${3:-$(basename "$submission")}
if [ -z "${3:-}" ] && [ ! -d "$submission" ]; then
    case $name in
    *.tar.gz) name=${name%.tar.gz} ;; *.tgz) name=${name%.tgz} ;; *.tar) name=${name%.tar} ;;
    ?*.*) name=${name%.*} ;;
    esac
fi
# A name is a folder and a gradebook row: letters, digits, . _ - only.
safe=$(printf '%s' "$name" | LC_ALL=C tr -c 'A-Za-z0-9._-' '_')
safe=${safe#.}; safe=${safe:-handin}
[ "$safe" = "$name" ] || log "grade: the hand-in '$name' is graded as '$safe' (letters, digits, . _ - only)"
name=$safe
work=$out/$name
outcomes=$work/outcomes.tsv
# What a student is shown for the grading machine's folders (grade-report
# --path): the lab file as the kit names it, the kit's files as in the kit.
shown_paths=()
for d in "$work/submission/=" "$work/build/=build/" "$work/=" "$root/=" "$(cd "$root" && pwd -P)/="; do
    shown_paths+=(--path "$d")
done
if [ "$PERF" != only ]; then
    rm -rf "$work"
    mkdir -p "$work"/{submission,build,records,outputs,perf}
    : >"$outcomes"
fi
# Labs are graded side by side (GRADE_JOBS at a time): each writes its own
# outcomes and test records (grade_lab_apart's outcomes and records), merged when
# all are done; every command's output is a file of its own in outputs/.
records=$work/records

# ---------------------------------------------------------------- records

record() { # FIELDS...: one tab-separated line of outcomes.tsv
    local IFS=$'\t'
    printf '%s\n' "$*" >>"$outcomes"
}
new_output() { # prints a fresh file's path, for one command's output
    mktemp "$work/outputs/out-XXXXXX"
}
say() { # TEXT: prints the path of a fresh output file holding TEXT
    local said
    said=$(new_output) && printf '%s\n' "$1" >"$said" && echo "$said"
}

# ---------------------------------------------------------------- sandbox

# The lock every grader's command holds shared on this machine, and a test
# run again alone holds alone (retry_alone). TILELAB_GRADE_LOCK names another
# file (the knob: for the kit's own tests, whose suites grade side by side in
# make check, each alone among its own graders rather than the machine's).
ALONE_LOCK=${TILELAB_GRADE_LOCK:-/run/tilelab-grade.lock}
{ : >>"$ALONE_LOCK"; } 2>/dev/null || ALONE_LOCK=$TOOLS/.grade.lock

# bwrap where it runs. Where it cannot (a container that forbids user
# namespaces, as Gradescope's may) and the grader is root, setpriv: student
# code runs as a user of its own, who owns nothing of the grader's and can
# read nothing bwrap would hide, without network where the container lets
# root take it away. Else none, said on every summary.
# (TILELAB_GRADE_SANDBOX=setpriv: the knob for the grader's tests.)
SANDBOX=none namespaces=none
. harness/grade/setpriv.sh
if [ "${TILELAB_GRADE_SANDBOX:-}" != setpriv ] && command -v bwrap >/dev/null &&
    bwrap --ro-bind / / --dev /dev --cap-drop ALL true 2>/dev/null; then
    SANDBOX=bwrap
elif [ "$(id -u)" = 0 ] && setpriv --reuid=$SETPRIV_UID_BASE --regid=$SETPRIV_UID_BASE --clear-groups true 2>/dev/null; then
    SANDBOX=setpriv
    # No network, and where the container lets root make them, processes, IPC and a view
    # of the machine of its own: a PID namespace with its own /proc (the command lines of
    # the graders beside it, which name their hand-ins, out of its sight), and
    # grade-private's view (harness/grade/grade_private.c): every mount read-only (what
    # all users may write, /var/tmp, /run/lock..., once carried a grading's held-back
    # cases to the next), the command's private folder as /tmp with the kit and this
    # hand-in's folder bound back in it where they lie under /tmp, a /dev/shm of its own
    # (Criterion names its socket in the one and its shared memory in the other by its
    # pid, which a PID namespace gives every command alike: two graders at once collided,
    # "Could not spawn test instance: File exists"), and what the command writes.
    # (grade-private stays the namespace's first process, which the kernel gives every
    # orphan; it waits for them.)
    # (grade-sandbox's --namespaces: private, net or none.)
    probe_tmp=$(mktemp -d)
    if unshare --net --pid --ipc --mount --fork --kill-child --mount-proc -- "$TOOLS/grade-private" "$probe_tmp" -- true 2>/dev/null; then
        namespaces=private
    elif unshare --net true 2>/dev/null; then
        namespaces=net
    fi
    rm -rf "$probe_tmp"
    setpriv_start || { log "grade: no uid left for the setpriv sandbox"; exit 1; }
    log "grade: WARNING: bubblewrap cannot run here: student code runs as uid $GRADE_UID$([ "$namespaces" != none ] || echo ", with the network")$([ "$namespaces" = private ] || echo ", seeing other graders' processes and their command lines, and writing where every user may (/tmp, /var/tmp...), where the next command, another hand-in's or a later grading's, reads it: held-back cases one lab sees can reach another"), and the kit's solutions, build, hidden files and other hand-ins are closed to other users"
else
    log "grade: WARNING: bubblewrap is missing or cannot run here: student code runs unsandboxed"
fi

# A CPU lab's measured run: valgrind's callgrind program, started as its
# launcher starts it (valgrind -d names it) but by grade-confine, so that it
# stays one process running one program (harness/grade/grade_confine.c); the
# measuring program itself allows no system call but those a transpose and
# valgrind need once the lab's code can run (grade_perf_confine.c), so no
# gdb server (--vgdb=no: its FIFOs, made at the start, removed at the end).
# Asked with --help, the launcher names it for this machine's platform without a
# program simulated (/bin/true under callgrind took 0.17 s of CPU a hand-in).
measured=()
if [ -n "$VALGRIND" ]; then
    callgrind=$("$VALGRIND" -d --tool=callgrind --help 2>&1 | sed -n 's/.*launcher launching //p' | head -n 1)
    if [ -n "$callgrind" ] && [ -x "$callgrind" ] && "$TOOLS/grade-confine" /bin/true; then
        measured=(env VALGRIND_LAUNCHER="$VALGRIND" "$TOOLS/grade-confine" "$callgrind" --tool=callgrind --vgdb=no)
    else
        log "grade: WARNING: the CPU labs are measured unconfined here: a hand-in could do its work in another process, where valgrind counts nothing"
        [ "$PERF" = only ] || record warning "NOTE: the CPU labs were measured unconfined (grade-confine could not run here): work done in another process would not be counted"
        measured=(env TILELAB_PERF_UNCONFINED=1 "$VALGRIND" --tool=callgrind --vgdb=no)
    fi
fi

# The GPU's device nodes shown to student code when grading on it (set once, below); the
# driver's libraries are already there, read-only, under /.
sandbox_gpu=

# sandbox_argv MODE [DIR [PRIVATE_TMP]]: the command line that starts a sandbox, each
# argument ended by a NUL (grade-sandbox: harness/grade/grade_sandbox.h says what each
# mode shows and lets write). PRIVATE_TMP: setpriv's folder for the command's /tmp.
sandbox_argv() {
    "$TOOLS/grade-sandbox" --kind "$SANDBOX" --root "$root" --out "$out" --work "$work" --records "$records" \
        --tmp-limit "$TMP_LIMIT" ${sandbox_gpu:+--gpu} ${3:+--uid "$GRADE_UID" --tmp "$3" --namespaces "$namespaces"} \
        "$1" ${2:+"$2"}
}

# setpriv_prepare MODE [DIR]: where bwrap cannot run and the grader is root, the same
# modes by ownership. What the hand-in may write (build and link: its build folder;
# perf: DIR too) is its user's, the rest root's and closed to writes. Prints the
# command's own folder, its /tmp (with grade-private's view, the only place writable
# besides those).
setpriv_prepare() {
    local mine=$GRADE_UID:$GRADE_UID private_tmp
    chown -R "0:$GRADE_UID" "$work/build" "$work/perf" && chmod -R go-w "$work/build" "$work/perf"
    case "$1" in
    build | link) chown -R "$mine" "$work/build" ;;
    perf) chown -R "$mine" "$2" ;;
    esac
    # The compiled references, while this hand-in is linked: a copy its group alone reads.
    rm -rf "$work/prebuilt"
    if [ "$1" = link ]; then
        cp -r "$PREBUILT" "$work/prebuilt" && chgrp -R "$GRADE_UID" "$work/prebuilt" && chmod -R g+rX,o-rwx "$work/prebuilt"
    fi
    private_tmp=$(mktemp -d) && chown "$mine" "$private_tmp" && echo "$private_tmp"
}

# setpriv_cleanup PRIVATE_TMP: after a command in the setpriv sandbox, every process
# its user still has killed (a daemon a hand-in left), its /tmp removed.
setpriv_cleanup() {
    setpriv --reuid=$GRADE_UID --regid=$GRADE_UID --clear-groups sh -c 'kill -KILL -1' 2>/dev/null
    rm -rf "$1" "$work/prebuilt"
    criterion_sockets
}

# criterion_sockets: Criterion's sockets in /tmp whose process is gone. Criterion
# names its socket by its pid in /tmp, whatever TMPDIR says, and one killed at a
# limit leaves it behind: a later test whose runner gets that pid cannot start
# ("Could not initialize the message server: Address already in use"; seen in
# make check). Under bwrap each command has a /tmp of its own; here all share it.
criterion_sockets() {
    local socket pid
    for socket in /tmp/criterion_*.sock; do
        pid=${socket#/tmp/criterion_} pid=${pid%.sock}
        [[ $pid =~ ^[0-9]+$ ]] && [ ! -d "/proc/$pid" ] && rm -f "$socket"
    done
    return 0
}

# run LIMIT OUTPUT [--alone] [grade-run's options] -- MODE [DIR] -- COMMAND...: prints
# pass/fail/skip or ok/fail. --alone: the caller holds the machine's lock alone (retry_alone).
run() {
    local limit=$1 output=$2 opts=() sb=() private_tmp= alone=
    shift 2
    while [ "$1" != -- ]; do
        if [ "$1" = --alone ]; then alone=1; else opts+=("$1"); fi
        shift
    done
    shift
    local mode=$1 dir=
    shift
    [ "$mode" != perf ] || { dir=$1; shift; }
    shift # --
    if [ "$SANDBOX" = setpriv ]; then
        private_tmp=$(setpriv_prepare "$mode" "$dir") || { log "grade: $name: the setpriv sandbox could not be made"; echo fail; return; }
    fi
    mapfile -d '' sb < <(sandbox_argv "$mode" "$dir" "$private_tmp")
    [ ${#sb[@]} -gt 0 ] || { log "grade: $name: grade-sandbox made no command line"; echo fail; return; }
    [ "$mode" = run ] || opts+=(--fsize "$BUILD_FILE_LIMIT")
    [ "${GPU_BACKEND:-}" = cuda ] || opts+=(--memory "$MEMORY_LIMIT")
    # Every command holds the machine's lock shared: a test run again alone holds it
    # alone. Waiting for it uses no CPU time, which is what the limits count.
    if [ -z "$alone" ]; then
        local shared
        exec {shared}>>"$ALONE_LOCK"
        flock -s "$shared"
    fi
    "$TOOLS/grade-run" --limit "$limit" --output "$output" --keep "$OUTPUT_LIMIT" \
        --records "$records" "${opts[@]}" -- "${sb[@]}" "$@"
    [ "$SANDBOX" != setpriv ] || setpriv_cleanup "$private_tmp"
}

# over_quota [DIR]: true, printing why, when the hand-in's builds and
# measurements together hold more than DISK_LIMIT bytes; its build folder and
# DIR (the measurement's) are removed then, so that the disk is given back at once.
over_quota() {
    local used
    used=$(du -sb "$work/build" "$work/perf" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
    [ "$used" -gt "$DISK_LIMIT" ] || return 1
    echo "your code's build and runs wrote $((used >> 20)) MiB to disk, more than the $((DISK_LIMIT >> 20)) MiB the grader allows one hand-in's builds and measurements together (and $((BUILD_FILE_LIMIT >> 20)) MiB for any one file): nothing of it was kept. A large array initialized in the file (a static or __device__ one) is the usual cause."
    rm -rf "$work/build" ${1:+"$1"} && mkdir -p "$work/build"
}

# ---------------------------------------------------------------- hand-in

# Only the lab files themselves, as regular files of a sane size: never a
# hand-in's copy of the harness or the tests, never a link, nothing outside
# the hand-in. An archive is listed, with sizes, before anything is taken.
refuse() { log "grade: $name: $1"; record note "NOTE: $1"; }

# unreadable KIND TEXT: nothing of the hand-in is graded, and why (KIND:
# damaged, an archive cut off or corrupt, or empty, nothing gradable in it).
unreadable() {
    log "grade: $name: $2"
    record handin "$1" "$(say "$2")"
}

# The archive's lab files, and what became of the others, by grade-unpack
# (harness/grade/grade_unpack.c): a lab file refused is a note; an archive cut
# off, corrupt or no tar at all, the hand-in's outcome.
unpack_archive() {
    local n paths=() kind text said=$work/unpacked
    for n in "${labs[@]}"; do
        paths+=("labs/${lab_dir[$n]}/${lab_file[$n]}")
    done
    "$TOOLS/grade-unpack" "$submission" "$work/submission" "$work/listing" "$work/gzip.err" \
        "$FILE_LIMIT" "$ARCHIVE_LIMIT" "${paths[@]}" >"$said" || { log "grade: $name: grade-unpack failed"; exit 1; }
    while IFS=$'\t' read -r kind text; do
        if [ "$kind" = note ]; then refuse "$text"; else unreadable "$kind" "$text"; fi
    done <"$said"
    rm -f "$said"
}

unpack_folder() {
    local n dir file path p part dst
    for n in "${labs[@]}"; do
        dir=${lab_dir[$n]} file=${lab_file[$n]}
        path=labs/$dir/$file
        p=$submission
        for part in labs "$dir" "$file"; do
            p=$p/$part
            if [ -L "$p" ]; then
                refuse "${p#"$submission"/} is a symbolic link: links in a hand-in are not followed"
                continue 2
            fi
        done
        [ -e "$p" ] || continue
        if [ ! -f "$p" ]; then
            refuse "$path is not a regular file: ignored"
        elif [ "$(wc -c <"$p")" -gt "$FILE_LIMIT" ]; then
            refuse "$path is larger than $FILE_LIMIT bytes: ignored"
        else
            dst=$work/submission/$path
            mkdir -p "$(dirname "$dst")"
            head -c "$FILE_LIMIT" <"$p" >"$dst"
        fi
    done
}

# ---------------------------------------------------------------- one lab

# build LOG MODE LAB BACKEND TARGET... : the lab's targets, built in the sandbox (MODE
# build or link); its log in LOG. OPT=-O3 without -march: valgrind decodes no AVX-512, and every
# machine grades alike. LABS: the labs graded, whose references make references built.
GRADED_LABS="${labs[*]} "
build() {
    local built=$1 mode=$2 lab=$3 backend=$4 ok quota
    shift 4
    ok=$(run "$BUILD_LIMIT" "$built" -- "$mode" -- make -s -C "$root" B="$work/build" LABS="$GRADED_LABS" \
        STUDENT_DIR="$work/submission/labs" REFERENCE_PREBUILT="$([ "$SANDBOX" = setpriv ] && echo "$work/prebuilt" || echo "$PREBUILT")" \
        GPU="$([ "$backend" = cpu ] && echo emu || echo "$backend")" OPT=-O3 "$@")
    if quota=$(over_quota); then
        printf '%s\n' "$quota" >>"$built"
        return 1
    elif [ "$ok" != ok ] && grep -q 'File size limit exceeded' "$built"; then
        printf 'the build wrote a file larger than %d MiB, the most the grader allows one file of a build\n' \
            $((BUILD_FILE_LIMIT >> 20)) >>"$built"
    fi
    [ "$ok" = ok ]
}

# run_tests LAB INPUT BIN [NAME=VALUE...] <LINES: records the outcome of each
# test of LINES (KIND, ID, SECONDS and a tag for its name, tab-separated), in
# their order, within what is left of the lab's limit on the CPU time of all its
# tests (LAB_LIMIT, lab_cpu_left). INPUT, where not empty (grade_lab's held-back cases):
# what the suite reads on its standard input (tests/tl_test.h), where no lab's
# code reads it.
# One suite run of BIN runs them all, one at a time (grade-run with
# several tests): one start of the suite and of its lab process, and on a GPU
# one server and its context (harness/lab/lab_process.h), for a lab's tests,
# where a run of its own for each test opened two contexts a test, which a
# GPU's driver opens one at a time. Each test keeps its own verdict, limits
# and output (a call that never returns fails its own test, and does not skip
# those after it, as it does in make labN test: TILELAB_HANG_FILE empty); one
# that timed out runs again alone (retry_alone).
run_tests() {
    local lab=$1 input=$2 bin=$3 kinds=() ids=() secs=() tags=() outs=() opts=() limit=0 pattern= verdicts=()
    local kind id seconds tag k output verdict whole
    shift 3
    [ -z "$input" ] || opts+=(--input "$input")
    opts+=(--cpu-record "$records/cpu-lab$lab")
    while IFS=$'\t' read -r kind id seconds tag; do
        kinds+=("$kind") ids+=("$id") secs+=("$seconds") tags+=("$tag")
        output=$(new_output)
        outs+=("$output") opts+=(--test "$id=$output")
        # The suite's own limits come first: its watch on each call's CPU time
        # (tests/tl_test.h), which the run's CPU time is at least, and, at three times
        # the test's limit, Criterion's clock (a test it stops is run again alone).
        limit=$((limit + 3 * seconds + TEST_MARGIN))
        pattern+=${pattern:+|}$id
    done
    [ ${#ids[@]} -gt 0 ] || return 0
    # The lab's limit on all its tests bounds the run too: the tests it stops are not run.
    local left
    left=$(lab_cpu_left "$lab")
    [ "$limit" -le "$left" ] || limit=$left
    if [ "$limit" -le 0 ]; then
        for k in "${!ids[@]}"; do
            printf 'not run: the tests of this lab ran past %d seconds of CPU time in all\n' "$LAB_LIMIT" >"${outs[k]}"
        done
    else
        whole=$(new_output)
        mapfile -t verdicts < <(run "$limit" "$whole" "${opts[@]}" -- run -- \
            env TILELAB_HANG_FILE= "$@" "$bin" --filter "@($pattern)" --tap=/dev/fd/3 --jobs 1 --verbose)
        mv "$whole" "$records/run-${ids[0]//\//-}.txt" # the run's whole output: the records'
    fi
    for k in "${!ids[@]}"; do
        output=${outs[k]} verdict=${verdicts[k]:-fail}
        # grade-run's "timeout": past a time limit by its record or the suite's, never by the output's words
        if [ "$verdict" = timeout ] && [ "$(lab_cpu_left "$lab")" -gt 0 ]; then
            IFS=$'\t' read -r verdict output < <(retry_alone "$lab" "${ids[k]}" "${secs[k]}" "$output" "$input" "$bin" "$@")
        elif [ "$verdict" = timeout ]; then
            printf '\nnot run (again): the tests of this lab ran past %d seconds of CPU time in all\n' "$LAB_LIMIT" >>"$output"
        fi
        [ "$verdict" != timeout ] || verdict=fail
        record test "$lab" "${kinds[k]}" "${ids[k]}${tags[k]}" "${verdict:-fail}" "$output"
    done
}

# lab_cpu_left LAB: the whole seconds of CPU time left to the lab's tests of LAB_LIMIT,
# after those its test runs used so far (grade-run --cpu-record), 0 at most.
# (cat: an awk that goes on past a missing file, as gawk does, would print its END too.)
lab_cpu_left() {
    cat "$records/cpu-lab$1" 2>/dev/null |
        awk -v limit="$LAB_LIMIT" '{ s += $1 } END { left = int(limit - s); print (left > 0 ? left : 0) }'
}

# retry_alone LAB ID SECONDS FIRST INPUT BIN [NAME=VALUE...]: a test that timed out
# (its output in FIRST; INPUT: its standard input, as run_tests'), run again once no
# other command of any grader runs (the lock alone), with limits RETRY_SCALE times the
# reference's time for the same test on this machine now, and never below its own: a
# loaded machine does not decide the verdict. Prints its verdict and its new output's
# path, tab-separated; the first run's output is kept beside.
retry_alone() {
    local lab=$1 id=$2 seconds=$3 first=$4 held=$5 bin=$6 variant ref_bin start took limit output verdict
    shift 6
    variant=$(basename "$(dirname "$bin")")
    ref_bin=$TOOLS/grade-build/lab$lab/${variant/student/reference}/test
    local input=()
    [ -z "$held" ] || input=(--input "$held")
    local alone
    exec {alone}>>"$ALONE_LOCK"
    flock -x "$alone"
    start=$(date +%s%N)
    [ ! -x "$ref_bin" ] || "$TOOLS/grade-run" --limit $((RETRY_SCALE * seconds)) --output "$records/reference.txt" \
        ${input[@]+"${input[@]}"} -- env "$@" "$ref_bin" --filter "$id" --jobs 1 >/dev/null
    took=$((($(date +%s%N) - start) / 1000000)) # ms
    limit=$(((RETRY_SCALE * took + 999) / 1000))
    [ "$limit" -ge "$seconds" ] && [ -x "$ref_bin" ] || limit=$seconds
    output=$(new_output)
    verdict=$(run $((limit + TEST_MARGIN)) "$output" --alone --test "$id" --cpu-record "$records/cpu-lab$lab" ${input[@]+"${input[@]}"} -- run -- \
        env TILELAB_HANG_FILE= TILELAB_TIME_SCALE="$(awk -v l="$limit" -v s="$seconds" 'BEGIN { printf "%.3f", l / s }')" "$@" \
        "$bin" --filter "$id" --tap=/dev/fd/3 --jobs 1)
    exec {alone}>&-
    local said=passed
    [ "$verdict" = pass ] || said="failed$([ "$verdict" != timeout ] || echo ", again past its limit: an endless loop, or a kernel far slower than the reference? Time your lab file spends before the test starts, in a constructor, counts too.")"
    printf '\ntilelab: this test ran past its time limit (%d seconds), and was run again alone, with no other grading on the machine, under a limit of %d seconds (its own, or %d times the %.1f seconds the reference solution took for it on this machine just before, whichever is longer): it %s\n' \
        "$seconds" "$limit" "$RETRY_SCALE" "$(awk -v t="$took" 'BEGIN { print t / 1000 }')" "$said" >>"$output"
    printf 'lab %d %s: timed out once, run again alone: %s\n' "$((10#$lab))" "$id" "$verdict" >>"$work/flags.txt"
    cp "$first" "$output.first-run" 2>/dev/null
    printf '%s\t%s\n' "$verdict" "$output"
}

unmeasured() { # LAB REASON TEXT: the lab's performance, not measured, why as a word and for the student
    "$TOOLS/grade-measured" none "$outcomes" "$work/outputs" "$1" "$2" "$3"
}

# measure LAB KIND BACKEND: the lab's performance, measured in the sandbox and
# recorded: grade-measured (harness/grade/grade_measured.c) says which runs a method
# takes and what they came to; this builds and runs them.
measure() {
    local lab=$1 kind=$2 backend=$3 dir=$work/perf/lab$1 built quota out_file ok runs=()
    mkdir -p "$dir"
    built=$(new_output)
    if [ "$kind" = cpu ]; then
        local bin=$work/build/lab$lab/grade-perf seed plan=() run_name binary mode
        if ! build "$built" link "$lab" cpu "$bin-student" "$bin-reference"; then
            unmeasured "$lab" build "the measuring program did not build: $(tail -3 "$built")"
            return
        fi
        # The input: random floats, new ones each time (grade_perf.c says why).
        seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
        mapfile -t plan < <("$TOOLS/grade-measured" runs callgrind)
        for v in "${plan[@]}"; do
            IFS=$'\t' read -r run_name binary mode <<<"$v"
            mkdir -p "$dir/$run_name"
            out_file=$(new_output)
            # (The seed on its standard input, which it reads once the lab's code has started:
            # on its command line, the lab's code could read it and make in's values itself.)
            ok=$(run "$PERF_LIMIT" "$out_file" --input "$seed" -- perf "$dir/$run_name" -- "${measured[@]}" \
                --cache-sim=yes $CACHE_SIM \
                --callgrind-out-file="$dir/$run_name/callgrind.out" --log-file="$dir/$run_name/valgrind.log" \
                "$bin-$binary" "$CPU_PERF_SIZE" "$mode" -)
            if quota=$(over_quota "$dir"); then
                unmeasured "$lab" disk-quota "$quota"
                return
            fi
            runs+=("$run_name=$ok=$out_file")
            [ "$ok" = ok ] || break
        done
        "$TOOLS/grade-measured" record "$outcomes" "$work/outputs" "$lab" callgrind "$dir" "$CPU_PERF_SIZE" "${runs[@]}"
    elif [ "$backend" = emu ]; then
        if ! build "$built" link "$lab" emu "$work/build/lab$lab/grade-profile"; then
            unmeasured "$lab" build "the profile did not build: $(tail -3 "$built")"
            return
        fi
        out_file=$(new_output)
        ok=$(run "$PERF_LIMIT" "$out_file" -- perf "$dir" -- "$work/build/lab$lab/grade-profile" \
            --grade-size --csv "$dir/profile.csv")
        if quota=$(over_quota "$dir"); then
            unmeasured "$lab" disk-quota "$quota"
            return
        fi
        "$TOOLS/grade-measured" record "$outcomes" "$work/outputs" "$lab" emu "$dir" "profile=$ok=$out_file"
    else
        # grade-bench holds none of the hand-in's host code: it runs the
        # launch plans the hand-in's lab process records (harness/core/include/plan.h),
        # and ends that process and all it started before it times anything.
        if ! build "$built" link "$lab" cuda "$work/build/lab$lab/grade-bench"; then
            unmeasured "$lab" build "the bench did not build: $(tail -3 "$built")"
            return
        fi
        out_file=$(new_output)
        # Never two timings on the GPU at once, whichever grader runs them:
        # each bench holds the lock alone while it times, and shares it while
        # it starts, checks and makes the plans (harness/core/include/timing_lock.h).
        : >>"$TOOLS/gpu-timing.lock"
        # Its record (bench.h) says what became of each variant, and why one of yours was
        # not timed: grade-report reads it (grade_measure.c).
        ok=$(run "$PERF_LIMIT" "$out_file" --lock "$TOOLS/gpu-timing.lock" -- perf "$dir" -- \
            "$work/build/lab$lab/grade-bench" --gpu-lock-fd 4 --only ceiling,student,reference \
            --grade-size --reps 20 --csv "$dir/bench.csv" --record "$dir/bench.tsv")
        if quota=$(over_quota "$dir"); then
            unmeasured "$lab" disk-quota "$quota"
            return
        fi
        "$TOOLS/grade-measured" record "$outcomes" "$work/outputs" "$lab" gpu "$dir" "bench=$ok=$out_file"
    fi
}

# all_correct LAB: every correctness test of the lab has passed so far (grade-plan).
all_correct() { "$TOOLS/grade-plan" correct "$outcomes" "$1"; }

grade_lab() { # LAB DIR FILE KIND OPERATION
    local lab=$1 dir=$2 file=$3 kind=$4 op=$5 backend bin manifest built
    backend=$([ "$kind" = cpu ] && echo cpu || echo "$GPU_BACKEND")
    manifest=$MANIFESTS/lab$lab.tests
    if [ "$PERF" = only ]; then
        [ "$kind" = gpu ] && [ "$backend" = cuda ] && ! grep -q "^lab	$lab	" "$outcomes" && all_correct "$lab" || return 0
        measure "$lab" "$kind" "$backend"
        return
    fi
    if [ ! -f "$work/submission/labs/$dir/$file" ]; then
        record lab "$lab" missing "$(say "labs/$dir/$file is not in the hand-in")"
        return
    fi
    # The kit's stub as it came (a stub holds TODO()s; an instructor's labs/
    # may hold finished work): nothing to build or run, it scores 0.
    if grep -q 'TODO(' "$root/labs/$dir/$file" 2>/dev/null &&
        cmp -s "$root/labs/$dir/$file" "$work/submission/labs/$dir/$file"; then
        record lab "$lab" stub "$(say "labs/$dir/$file is the kit's stub, unchanged: its TODO()s say what to write, and make lab$((10#$lab)) test checks it")"
        return
    fi
    bin=$work/build/lab$lab/student$([ "$backend" = emu ] && echo -emu)/test
    built=$(new_output)
    if ! build "$built" build "$lab" "$backend" "$bin"; then
        record lab "$lab" build "$built"
        return
    fi
    # Technique from the emulator's counts of the hand-in's own run, on every
    # machine (tests/gpu_technique.h): on a GPU, from the emulator's build of the same file.
    local id tech_bin=$bin no_emu=
    if [ "$backend" = cuda ]; then
        tech_bin=$work/build/lab$lab/student-emu/test
        built=$(new_output)
        build "$built" build "$lab" emu "$tech_bin" || no_emu=$built
        # A file that is not one program for nvcc and the emulator (emu-compile.sh) is refused whole.
        if [ -n "$no_emu" ] && grep -q 'the preprocessor keeps other code here' "$no_emu"; then
            record lab "$lab" build "$no_emu"
            return
        fi
    fi
    # The lab's tests, in one suite run (grade-plan says which); on a GPU, its technique
    # tests in another, of the emulator's build.
    local apart=
    [ "$tech_bin" = "$bin" ] || apart=--technique-apart
    if [ -n "$no_emu" ]; then
        while IFS=$'\t' read -r _ id _; do
            record test "$lab" technique "$id" fail "$(say "not graded: technique is judged from the CPU emulator's counts of your kernels' run, on every machine, and the emulator could not build your file:
$(tail -c 1500 "$no_emu")")"
        done < <("$TOOLS/grade-plan" run "$manifest" technique)
    fi
    run_tests "$lab" "" "$bin" < <("$TOOLS/grade-plan" run "$manifest" visible $apart)
    [ -z "$apart" ] || [ -n "$no_emu" ] || run_tests "$lab" "" "$tech_bin" < <("$TOOLS/grade-plan" run "$manifest" technique)
    # GPU timing waits until every lab is graded (gpu_timing), one lab at a
    # time; what it runs is built now, beside the other labs' work.
    if [ "$backend" != cuda ] && all_correct "$lab"; then
        measure "$lab" "$kind" "$backend"
    elif all_correct "$lab"; then
        build "$(new_output)" link "$lab" cuda "$work/build/lab$lab/grade-bench" || true # its log, if it fails, comes with the timing
    fi
    # Held-back cases last, in a sandbox of their own, their output marked hidden. Their
    # seed and shapes go to the suite on its standard input (run_tests' INPUT), never
    # on a command line or in an environment: a sandbox's first process shows both, and a
    # lab's code reads either (/proc/1/cmdline, /proc/1/environ).
    # grade-held-back: the lines the suite reads, TILELAB_SEED= and TILELAB_HIDDEN= (the
    # lab's operation's cases), each where the instructor's file has it.
    [ -n "$HIDDEN" ] || return 0
    local held_input seed= cases=
    held_input=$("$TOOLS/grade-held-back" "$HIDDEN" "$op")$'\n' || return 0
    [[ $held_input != *TILELAB_SEED=* ]] || seed=--seed
    [[ $held_input != *TILELAB_HIDDEN=* ]] || cases=--cases
    [ -n "$seed$cases" ] || return 0
    run_tests "$lab" "$held_input" "$bin" TILELAB_HELD_BACK=stdin < <(
        "$TOOLS/grade-plan" run "$manifest" held-back $seed $cases)
}

# ---------------------------------------------------------------- grade

# The held-back cases (grade-held-back): a line the grader cannot read stops it
# before anyone is graded, rather than leaving a case silently out.
[ -z "$HIDDEN" ] || "$TOOLS/grade-held-back" "$HIDDEN" || { rm -rf "$work/build"; exit 2; }

# nothing_gradable: no lab's file was where the grader looks; says what the
# hand-in holds instead, and the likely slip (grade-misplaced).
nothing_gradable() {
    local n files=()
    for n in "${labs[@]}"; do
        files+=("${lab_dir[$n]}/${lab_file[$n]}")
    done
    unreadable empty "$(
        if [ -d "$submission" ]; then
            find "$submission" -type f -print0 2>/dev/null | sort -z | while IFS= read -r -d '' path; do
                printf '%s\n' "${path#"$submission"/}"
            done
        else
            cat "$work/listing" 2>/dev/null
        fi | "$TOOLS/grade-misplaced" "${files[@]}")"
}

GPU_BACKEND=$BACKEND
# What is kept of a hand-in is what an instructor reads: summary.txt,
# results.json, junit.xml and scores.tsv (grade-report keeps them under 1 MB),
# beside grade-all's log. What they were written from (the grader's records,
# the outputs whole, the measurements' files, the lab files as taken: the
# hand-in itself is the instructor's) and the builds go, unless KEEP_BUILD=1.
tidy() {
    [ -z "${KEEP_BUILD:-}" ] || [ "$KEEP_BUILD" = 0 ] || return 0
    rm -rf "$work/build" "$work/prebuilt" "$work/outputs" "$work/records" "$work/perf" "$work/submission" \
        "$work/outcomes.tsv" "$work/listing" "$work/gzip.err"
}

# grade-all's pass of GPU timing: nothing to time in a hand-in that was not graded.
[ "$PERF" != only ] || ! grep -q '^handin	' "$outcomes" || { tidy; exit 0; }
if [ "$PERF" != only ]; then
    if [ -d "$submission" ]; then unpack_folder; else unpack_archive; fi
    # Nothing to grade: said once, not as every lab "not in the hand-in".
    if ! grep -q '^handin	' "$outcomes" && [ -z "$(find "$work/submission" -type f -print -quit)" ]; then
        nothing_gradable
    fi
fi
if [ "$BACKEND" = cuda ] && [[ " ${lab_kind[*]} " == *" gpu "* ]]; then
    sandbox_gpu=1
    probe=$(new_output)
    if [ "$(run 60 "$probe" -- run -- env ${TILELAB_GRADE_NO_GPU:+TILELAB_GRADE_NO_GPU=1} \
            "$TOOLS/grade-gpu-probe")" != ok ]; then
        GPU_BACKEND=emu
        [ "$PERF" = only ] || record warning "NOTE: the GPU is not usable inside the grader's sandbox ($(head -c 300 "$probe" | tr '\n\t' '  ' | sed 's/ *$//')): the GPU labs were graded on the CPU emulator, and their performance from its memory transaction counts."
        log "grade: $name: the GPU is not usable inside the sandbox: GPU labs graded on the emulator"
    fi
fi
[ "$PERF" = only ] || record sandbox "$SANDBOX"
[ "$PERF" = only ] || record note "GPU labs on: $([ "$GPU_BACKEND" = cuda ] && echo the GPU || echo the CPU emulator); sandbox: $SANDBOX${HIDDEN:+; with held-back cases}"
# grade_lab_apart LAB DIR FILE KIND OPERATION: grade_lab, its outcomes, test
# records and outputs apart from the other labs' (merged once all are graded).
grade_lab_apart() {
    local outcomes=$work/outcomes.lab$1 records=$work/records/lab$1
    mkdir -p "$records"
    : >"$outcomes"
    grade_lab "$@"
}

# gpu_timing: each GPU lab timed, one at a time (PERF=only: grade-all's second pass).
gpu_timing() {
    local lab
    for lab in "${labs[@]}"; do
        [ "${lab_kind[$lab]}" != gpu ] ||
            PERF=only grade_lab "$lab" "${lab_dir[$lab]}" "${lab_file[$lab]}" "${lab_kind[$lab]}" "${lab_op[$lab]}"
    done
}

if [ "$PERF" = only ]; then
    gpu_timing
else
    # What every lab's build shares, built first, once: the labs' builds then
    # share no file they write. (A failure shows again in each lab's build.)
    # A GPU lab's technique is judged from the emulator's run on every machine: the
    # emulator's objects are shared too, beside the GPU's. It is the harness and
    # the labs' suites, no line of the hand-in's, and make references compiled it
    # beside the references: copied in with its times, make compiles again only
    # what this build would compile otherwise (harness/flags, the suites' flags),
    # not the whole harness and every lab's suite for every hand-in of a class.
    shared=$(dirname "$PREBUILT")
    [ ! -d "$shared/harness" ] || cp -Rp "$shared/harness" "$shared/libtilelab.a" "$shared/suites" "$work/build/" 2>/dev/null
    backends=$(for lab in "${labs[@]}"; do
        [ "${lab_kind[$lab]}" = cpu ] && echo cpu || echo "$GPU_BACKEND emu"
    done | tr ' ' '\n' | sort -u)
    for b in $backends; do build "$(new_output)" build "" "$b" "$work/build/grade-common-$b" || true; done
    # Labs side by side, but not where a lab's build would make another's
    # files writable to the hand-in's user while its code runs (setpriv).
    jobs=${GRADE_JOBS:-$(nproc 2>/dev/null || echo 1)}
    [ "$SANDBOX" != setpriv ] || jobs=1
    for lab in "${labs[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        log "grade: $name: lab $((10#$lab))"
        grade_lab_apart "$lab" "${lab_dir[$lab]}" "${lab_file[$lab]}" "${lab_kind[$lab]}" "${lab_op[$lab]}" &
    done
    wait
    for lab in "${labs[@]}"; do
        cat "$work/outcomes.lab$lab" >>"$outcomes" 2>/dev/null
        rm -f "$work/outcomes.lab$lab"
    done
    [ "$PERF" != all ] || [ "$GPU_BACKEND" != cuda ] || gpu_timing
fi
# setpriv: a hand-in graded is closed to the next one's code, which runs as the same user.
[ "$SANDBOX" != setpriv ] || chmod -R go-rwx "$work"
# What it was handed in as, beside the name it was cleaned to (grade-all's handins.sh).
"$TOOLS/grade-report" "${shown_paths[@]}" --handed-in-as "$handed" "$WEIGHTS" "$outcomes" "$work" "$name" || exit
# What it was graded for, which a later submission to Slurm compares (assignment.sh).
assignment >"$work/assignment.txt"
[ "$PERF" = gpu-later ] || tidy
