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
#   TOOLS          the build folder holding the grader's programs: grade-lab,
#                  grade-run, grade-sandbox, grade-unpack, grade-misplaced,
#                  grade-held-back, grade-report, grade-confine, grade-private
#                  and grade-gpu-probe
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
# This script is glue: it decides the grading's configuration once, before
# any lab is graded (the limits below, the sandbox, the labs), writes it for
# the C programs (WORK/grading: harness/grade/grade_grading.h), and calls them
# in order. What they do and record (OUT_DIR/NAME/outcomes.tsv, which
# grade-report computes every point from, with WEIGHTS): a lab graded, one
# call of grade-lab (harness/grade/grade_lab.h): its builds, which tests each
# suite run holds, its tests with their limits and a test run again alone, its
# measurement, its held-back cases, each command in its sandbox. Each function
# gets what it needs as arguments and gives what it found on its output.
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
RETRY_SCALE=${TILELAB_GRADE_RETRY_SCALE:-10} # a test that timed out runs again alone, with this many times the reference's CPU time (the knob: for the grader's tests)
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
# A name is a folder and a gradebook row: letters, digits, . _ - only, each other
# character a _ (grade-name, which grade-all and Slurm ask too).
safe=$("$TOOLS/grade-name" "$name")
[ "$safe" = "$name" ] || log "grade: the hand-in '$name' is graded as '$safe' (letters, digits, . _ - only)"
name=$safe
work=$out/$name
outcomes=$work/outcomes.tsv
# The hand-in's bytes as they were when its grading began (assignment.txt, at its end).
handin_sum=$(handin_sum "$submission")
# What a student is shown for the grading machine's folders (grade-report
# --path): the lab file as the kit names it, the kit's files as in the kit.
shown_paths=()
for d in "$work/submission/=" "$work/build/=build/" "$work/=" "$root/=" "$(cd "$root" && pwd -P)/="; do
    shown_paths+=(--path "$d")
done
if [ "$PERF" != only ]; then
    # A hand-in graded before with held-back cases, and now without them (make grade without
    # the class's HIDDEN=): its results lose them, and say "held back none", without a word
    # once (an instructor's trial, 2026-11-28).
    before=$(sed -n 's/^held back //p' "$work/assignment.txt" 2>/dev/null)
    [ -z "$before" ] || [ "$before" = none ] || [ -n "$HIDDEN" ] ||
        log "grade: WARNING: $name was graded before with held-back cases ($work/assignment.txt); graded now without HIDDEN=, its results have none and say 'held back none': give HIDDEN= the class's file to grade it as the class was"
    rm -rf "$work"
    mkdir -p "$work"/{submission,build,records,outputs,perf}
    : >"$outcomes"
fi

# ---------------------------------------------------------------- records

# The grading's configuration, for the C programs (write_grading, below), and the
# hand-in's own lines and records: labs graded side by side each have theirs
# (grade_lab_apart), merged when all are done; every command's output is a file
# of its own in outputs/.
grading=$work/grading
records=$work/records
# grade-lab for the hand-in's own lines (harness/grade/grade_lab_main.c)
handin_tool=("$TOOLS/grade-lab" --grading "$grading" --outcomes "$outcomes" --records "$records")
record() { "${handin_tool[@]}" record "$@"; }   # FIELDS...: a line of outcomes.tsv
say() { "${handin_tool[@]}" say "$@"; }         # FIELDS... TEXT: ... its last field a file holding TEXT

# ---------------------------------------------------------------- sandbox

# The lock every grader's command holds shared on this machine, and a test
# run again alone holds alone (grade_retry.c). TILELAB_GRADE_LOCK names another
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
# Its environment is the same in every grading, the machine's library paths and
# nothing of the grading's (PATH, TILELAB_DONE_FILE, the grader's own variables),
# and grade-lab starts it from the measuring program's folder, as
# ./grade-perf-NAME: valgrind lays the program's stack under its arguments and
# environment, the loader and main run there, and their simulated misses moved
# by a few with each grading's paths (grade_perf.c). Unconfined as well, it is
# the program the launcher names where it names one: the launcher may be a
# script that adds variables of its own (Debian's: PWD, the folder).
measured=() unconfined=
if [ -n "$VALGRIND" ]; then
    start=(env -i ${VALGRIND_LIB:+"VALGRIND_LIB=$VALGRIND_LIB"} ${LD_LIBRARY_PATH:+"LD_LIBRARY_PATH=$LD_LIBRARY_PATH"})
    callgrind=$("$VALGRIND" -d --tool=callgrind --help 2>&1 | sed -n 's/.*launcher launching //p' | head -n 1)
    tool=("$VALGRIND")
    [ -z "$callgrind" ] || [ ! -x "$callgrind" ] || tool=(VALGRIND_LAUNCHER="$VALGRIND" "$callgrind")
    if [ ${#tool[@]} = 2 ] && "$TOOLS/grade-confine" /bin/true; then
        measured=("${start[@]}" "${tool[0]}" "$TOOLS/grade-confine" "$callgrind" --tool=callgrind --vgdb=no)
    else
        log "grade: WARNING: the CPU labs are measured unconfined here: a hand-in could do its work in another process, where valgrind counts nothing"
        unconfined=1
        measured=("${start[@]}" TILELAB_PERF_UNCONFINED=1 "${tool[@]}" --tool=callgrind --vgdb=no)
    fi
fi

# The GPU labs' backend: the GPU, unless it cannot be used in the sandbox (probed below),
# and then the emulator. Grading on the GPU, its device nodes are shown to student code;
# the driver's libraries are already there, read-only, under /.
GPU_BACKEND=$BACKEND sandbox_gpu=
[ "$BACKEND" != cuda ] || [[ " ${lab_kind[*]} " != *" gpu "* ]] || sandbox_gpu=1
# The labs graded, as make's LABS for every build of the hand-in (make references built theirs).
GRADED_LABS="${labs[*]} "

# write_grading: the grading's configuration, as the C programs read it
# (harness/grade/grade_grading.h: what each name means), closed to every other user.
write_grading() {
    local item
    (
        umask 077
        {
            printf '%s\0' name "$name" root "$root" out "$out" work "$work" sandbox "$SANDBOX" namespaces "$namespaces" \
                uid "${GRADE_UID:-0}" gpu "${sandbox_gpu:-0}" gpu-backend "$GPU_BACKEND" labs "$GRADED_LABS" \
                manifests "$MANIFESTS" \
                alone-lock "$ALONE_LOCK" output-limit "$OUTPUT_LIMIT" file-limit "$BUILD_FILE_LIMIT" \
                memory-limit "$MEMORY_LIMIT" disk-limit "$DISK_LIMIT" tmp-limit "$TMP_LIMIT" \
                build-limit "$BUILD_LIMIT" test-margin "$TEST_MARGIN" retry-scale "$RETRY_SCALE" \
                lab-limit "$LAB_LIMIT" perf-limit "$PERF_LIMIT" perf-size "$CPU_PERF_SIZE"
            for item in ${measured[@]+"${measured[@]}"}; do printf 'measured\0%s\0' "$item"; done
            for item in $CACHE_SIM; do printf 'cache-sim\0%s\0' "$item"; done
        } >"$grading"
    )
}
write_grading || { log "grade: $name: the grading's configuration could not be written"; exit 1; }
[ -z "$unconfined" ] || [ "$PERF" = only ] ||
    record warning "NOTE: the CPU labs were measured unconfined (grade-confine could not run here): work done in another process would not be counted"

# ---------------------------------------------------------------- hand-in

# Only the lab files themselves, as regular files of a sane size: never a
# hand-in's copy of the harness or the tests, never a link, nothing outside
# the hand-in. An archive is listed, with sizes, before anything is taken.
refuse() { log "grade: $name: $1"; record note "NOTE: $1"; }

# unreadable KIND TEXT: nothing of the hand-in is graded, and why (KIND:
# damaged, an archive cut off or corrupt, or empty, nothing gradable in it).
unreadable() {
    log "grade: $name: $2"
    say handin "$1" "$2"
}

# The hand-in's lab files, and what became of the others, by grade-unpack
# (harness/grade/grade_unpack.c), from an archive or a folder alike: a lab file
# refused is a note; an archive cut off, corrupt or no tar at all, the
# hand-in's outcome.
unpack() {
    local n paths=() kind text said=$work/unpacked
    : >"$work/listing"   # grade-unpack writes it, unless the archive was refused before its listing
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
    unreadable empty "$("$TOOLS/grade-misplaced" "${files[@]}" <"$work/listing")"
}

# What is kept of a hand-in is what an instructor reads: summary.txt,
# results.json, junit.xml and scores.tsv (grade-report keeps them under 1 MB),
# beside grade-all's log. What they were written from (the grader's records,
# the outputs whole, the measurements' files, the lab files as taken: the
# hand-in itself is the instructor's) and the builds go, unless KEEP_BUILD=1.
tidy() {
    [ -z "${KEEP_BUILD:-}" ] || [ "$KEEP_BUILD" = 0 ] || return 0
    rm -rf "$work/build" "$work/prebuilt" "$work/outputs" "$work/records" "$work/perf" "$work/submission" \
        "$work/outcomes.tsv" "$work/listing" "$work/gzip.err" "$grading"
}

# grade-all's pass of GPU timing: nothing to time in a hand-in that was not graded.
[ "$PERF" != only ] || ! grep -q '^handin	' "$outcomes" || { tidy; exit 0; }
if [ "$PERF" != only ]; then
    unpack
    # Nothing to grade: said once, not as every lab "not in the hand-in".
    if ! grep -q '^handin	' "$outcomes" && [ -z "$(find "$work/submission" -type f -print -quit)" ]; then
        nothing_gradable
    fi
fi
if [ -n "$sandbox_gpu" ]; then
    probe=$(mktemp "$work/outputs/out-XXXXXX")
    if [ "$("${handin_tool[@]}" run 60 "$probe" run -- env ${TILELAB_GRADE_NO_GPU:+TILELAB_GRADE_NO_GPU=1} \
            "$TOOLS/grade-gpu-probe")" != ok ]; then
        GPU_BACKEND=emu
        write_grading
        [ "$PERF" = only ] || record warning "NOTE: the GPU is not usable inside the grader's sandbox ($(head -c 300 "$probe" | tr '\n\t' '  ' | sed 's/ *$//')): the GPU labs were graded on the CPU emulator, and their performance from its memory transaction counts."
        log "grade: $name: the GPU is not usable inside the sandbox: GPU labs graded on the emulator"
    else
        # The GPU as its runtime describes it: the emulator's run of the technique checks answers
        # with it, and the technique checks hold the emulator's launches to the GPU's (grade_lab.c).
        cp "$probe" "$work/gpu-device"
    fi
fi
[ "$PERF" = only ] || record sandbox "$SANDBOX"
[ "$PERF" = only ] || record note "GPU labs on: $([ "$GPU_BACKEND" = cuda ] && echo the GPU || echo the CPU emulator); sandbox: $SANDBOX${HIDDEN:+; with held-back cases}"
# grade_lab_apart LAB DIR FILE KIND OPERATION: the lab graded by grade-lab, which
# builds, runs and measures, each command in its sandbox under its limits, and records
# what it saw (harness/grade/grade_lab.h: tl_grade_lab says each step); its outcomes
# and test records apart from the other labs' (merged once all are graded).
grade_lab_apart() {
    mkdir -p "$records/lab$1"
    : >"$work/outcomes.lab$1"
    "$TOOLS/grade-lab" --grading "$grading" --outcomes "$work/outcomes.lab$1" --records "$records/lab$1" lab "$@"
}

# gpu_timing: each GPU lab graded on the GPU, and correct, timed, one at a time (after
# every lab is graded; PERF=only: grade-all's second pass).
gpu_timing() {
    local lab
    [ "$GPU_BACKEND" = cuda ] || return 0
    for lab in "${labs[@]}"; do
        [ "${lab_kind[$lab]}" = gpu ] && ! grep -q "^lab	$lab	" "$outcomes" && "${handin_tool[@]}" correct "$lab" &&
            "${handin_tool[@]}" measure "$lab" gpu cuda
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
    for b in $backends; do "${handin_tool[@]}" build build "$b" "$work/build/grade-common-$b" >/dev/null || true; done
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
# What it was graded for, and from what bytes, which a later submission to Slurm compares
# (assignment.sh).
{ assignment && printf 'hand-in %s\n' "$handin_sum"; } >"$work/assignment.txt"
[ "$PERF" = gpu-later ] || tidy
