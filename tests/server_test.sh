#!/usr/bin/env bash
# The suite's server (harness/lab/suite_server.c): a suite run one test at a
# time keeps one server (on a GPU, one context) for all its tests, a fresh lab
# process for each, and nothing a test says or decides changes. Each suite below runs twice, with the server and without
# (TILELAB_SUITE_SERVER=1 switches it on for the emulator's suites and the
# CPU labs', =0 off for a GPU's): the same outcome test by test, the same
# words, and the lab processes each run started, counted from
# TILELAB_LAB_PROCESS_LOG. Planted hand-ins, each a reference with one
# mistake, show that a test is as alone as without the server: a crash, a
# call that never returns, a kernel that writes far outside its matrix, a
# lab file that knocks at the server's socket, one that kills the server,
# one that keeps state from call to call. With a GPU, the GPU suites' own
# server (on by default) too, and a kernel that never ends.
source "$(dirname "$0")/tap.sh"

planted=$tmp/planted
b=$tmp/build
mkdir -p "$tmp/t"
export TMPDIR=$tmp/t # the server's folder, where only this test's suites put theirs

# plant LAB FILE SED: the reference with the edit SED, as the hand-in's FILE of LAB ("03").
kit_labs || not_ok "the table of labs"
plant() {
    local dir=${lab_dir[$1]-}
    mkdir -p "$planted/$dir"
    sed "$3" "solutions/$dir/$2" >"$planted/$dir/$2"
    cmp -s "solutions/$dir/$2" "$planted/$dir/$2" || return 0
    not_ok "the reference of lab $1 no longer reads as this test edits it"
    return 1
}
# After the entry point's opening brace, one line of C; plain C before it all.
at_entry() { printf '/^void transpose(/,/^{/ s/^{$/{\\n    %s/' "$1"; }
plant 03 transpose.cu "$(at_entry 'if (rows == 1 \&\& cols == 1) { volatile int *nowhere = 0; *nowhere = 1; }')"
plant 04 transpose.cu "$(at_entry 'for (volatile int spin = 0; rows == 1 \&\& cols == 1; spin++) {}')"
plant 05 transpose.cu "$(at_entry 'if (rows == 1 \&\& cols == 1) d_out += (size_t)1 << 28;')"
# Lab 6's first call in a process does nothing (state kept from call to call: a static
# counter): each test's first call fails, whatever ran before it in the run.
plant 06 transpose.cu "$(at_entry 'static int calls; if (calls++ == 0) return;')"
# Lab 9's kernel never ends at n = 1: on a GPU, the test's watch gives up on it.
plant 09 transpose.cu '/^void transpose_inplace(/,/^{/ s/^{$/{\n    if (n == 1) { forever<<<1, 1>>>(); return; }/; /^void transpose_inplace(/i __device__ int never_set;\n__global__ void forever(void) { while (*(volatile int *)\&never_set == 0) {} }\n'
plant 02 transpose.c "1i #define _GNU_SOURCE\\n#include <signal.h>\\n#include <unistd.h>
$(at_entry 'if (rows == 1 \&\& cols == 1) kill(getppid(), SIGKILL);')"
# Lab 1 knocks at the server as a test's process would, handshake and memfd, before it
# transposes (the connection is the lab process's own, its answer awaited in a child).
mkdir -p "$planted/01-cpu-naive"
cat >"$planted/01-cpu-naive/transpose.c" <<'C'
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lab.h"

static void knock(void)
{
    const char *tmp = getenv("TMPDIR");
    char dir[48];
    snprintf(dir, sizeof dir, "%s", tmp && *tmp ? tmp : "/tmp");
    struct sockaddr_un at = {.sun_family = AF_UNIX};
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)))
        if (!strncmp(e->d_name, "tilelab-suite-", 14)) {
            snprintf(at.sun_path, sizeof at.sun_path, "%s/%.40s/socket", dir, e->d_name);
            found = access(at.sun_path, F_OK) == 0;
        }
    if (d)
        closedir(d);
    int s = socket(AF_UNIX, SOCK_SEQPACKET, 0), mem = memfd_create("m", 0);
    if (!found || connect(s, (struct sockaddr *)&at, sizeof at) != 0) {
        fprintf(stderr, "planted: %s\n", found ? "could not connect" : "no server's socket found");
        return;
    }
    static const char hello[] = "tilelab suite server 1";
    union { struct cmsghdr align; char room[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)hello, sizeof hello};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.room,
                         .msg_controllen = sizeof control.room};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &mem, sizeof mem);
    /* The answer is awaited beside the call, which goes on: a server that took this
     * connection would answer it once the test that runs now ended. (Turned away at
     * once, the connection may be gone before the handshake is sent.) */
    int sent = sendmsg(s, &msg, MSG_NOSIGNAL) > 0;
    pid_t waiting = sent ? fork() : -1;
    if (sent && waiting < 0)
        fprintf(stderr, "planted: could not fork\n");
    else if (waiting <= 0) {
        char answer[64];
        ssize_t n = waiting == 0 ? recv(s, answer, sizeof answer, 0) : -1;
        fprintf(stderr, "planted: connected to the server's socket, and %s\n",
                n > 0 ? "the server ANSWERED" : "the server closed the connection unanswered");
        if (waiting == 0)
            _exit(0);
    }
    close(s);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    static int knocked;
    if (!knocked++)
        knock();
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
C
if ! nice make -s B="$b" STUDENT_DIR="$planted" GPU=emu "$b/lab01/student/test" "$b/lab02/student/test" \
    "$b/lab03/student-emu/test" "$b/lab04/student-emu/test" "$b/lab05/student-emu/test" \
    "$b/lab06/student-emu/test" "$b/lab04/reference-emu/test" >"$tmp/built" 2>&1; then
    not_ok "the planted hand-ins and lab 4's reference build" "$tmp/built"
    tap_plan
    exit
fi

# suite NAME BIN [NAME=VALUE...]: BIN run one test at a time, as NAME: its output
# ($tmp/NAME.out, times taken out), outcomes ($tmp/NAME.tap: "ok - lab04::primes " a line,
# "# SKIP" after a skipped one)
# and the processes it started to run the lab's code ($tmp/NAME.log).
suite() {
    local name=$1 bin=$2
    shift 2
    rm -f "$tmp/$name.log"
    env "$@" TILELAB_LAB_PROCESS_LOG="$tmp/$name.log" "$bin" --jobs 1 --verbose --tap="$tmp/$name.taps" \
        2>&1 | sed -E 's/ *\([0-9.]+s\)//g; /Writing tap report/d' >"$tmp/$name.out"
    sed -nE 's/^((not )?ok - [a-z0-9_]+::[a-z0-9_]+)( +(# SKIP))?.*/\1 \4/p' "$tmp/$name.taps" >"$tmp/$name.tap"
    touch "$tmp/$name.log"
}
runners() { grep -c '^lab-runner ' "$tmp/$1.log"; }
ran() { grep -cE '^(ok.* |not ok.*)$' "$tmp/$1.tap"; } # tests run, not skipped
servers() { grep -c '^suite-server ' "$tmp/$1.log"; }
# alike WHAT A B: runs A and B have the same outcomes, test by test, and say the same.
alike() {
    if [ -s "$tmp/$2.tap" ] && cmp -s "$tmp/$2.tap" "$tmp/$3.tap" && cmp -s "$tmp/$2.out" "$tmp/$3.out"; then
        ok "$1: the same outcomes ($(grep -c '^ok.* $' "$tmp/$2.tap") passed, $(grep -c '^not ok' "$tmp/$2.tap") failed, $(grep -c 'SKIP$' "$tmp/$2.tap") skipped) and the same words with the server and without"
    else
        diff "$tmp/$2.out" "$tmp/$3.out" >"$tmp/diff"
        diff "$tmp/$2.tap" "$tmp/$3.tap" >>"$tmp/diff"
        not_ok "$1: the server changed what the tests say or decide" "$tmp/diff"
    fi
}

# Lab 4's reference: every test passes, through one server and a lab process a test.
suite ref-alone "$b/lab04/reference-emu/test"
suite ref-served "$b/lab04/reference-emu/test" TILELAB_SUITE_SERVER=1
alike "lab 4's reference" ref-alone ref-served
if [ "$(servers ref-served)" -eq 1 ] && [ "$(runners ref-alone)" -gt 10 ] &&
    [ "$(runners ref-served)" -eq "$(ran ref-served)" ] && ! grep -q '^not ok' "$tmp/ref-served.tap"; then
    ok "lab 4's reference: 1 server for the whole run, a fresh lab process for each of its $(runners ref-served) tests, as without it"
else
    not_ok "lab 4's reference: $(servers ref-served) server(s) and $(runners ref-served) lab process(es) with the server, $(runners ref-alone) without" "$tmp/ref-served.log"
fi

# State the lab's code keeps from call to call (lab 6: its first call in a process does
# nothing) never reaches the next test: each test's first call fails, with the server as without.
suite state-alone "$b/lab06/student-emu/test"
suite state-served "$b/lab06/student-emu/test" TILELAB_SUITE_SERVER=1
alike "lab 6 doing nothing at its first call in a process" state-alone state-served
if [ "$(grep -c '^not ok' "$tmp/state-served.tap")" -gt 10 ] && [ "$(servers state-served)" -eq 1 ]; then
    ok "lab 6 doing nothing at its first call in a process: every test fails, as alone ($(grep -c '^not ok' "$tmp/state-served.tap") failed)"
else
    not_ok "lab 6 doing nothing at its first call in a process: tests that pass only after another's call" "$tmp/state-served.tap"
fi
ls -d "$TMPDIR"/tilelab-suite-* >"$tmp/left" 2>/dev/null
while read -r what pid; do
    ! kill -0 "$pid" 2>/dev/null || echo "$what $pid is still running" >>"$tmp/left"
done <"$tmp/ref-served.log"
if [ ! -s "$tmp/left" ] && [ -s "$tmp/ref-served.log" ]; then
    ok "the server, its lab process and its folder are gone once the run ends"
else
    not_ok "the server left processes or its folder behind" "$tmp/left"
fi

# A crash in one test (lab 3, 1 x 1): the same words, and the tests after it as alone.
suite crash-alone "$b/lab03/student-emu/test"
suite crash-served "$b/lab03/student-emu/test" TILELAB_SUITE_SERVER=1
alike "lab 3 crashing at 1 x 1" crash-alone crash-served
if grep -q 'your code was killed by SIGSEGV' "$tmp/crash-served.out" && grep -q '^not ok - lab03::one_by_one' "$tmp/crash-served.tap" &&
    grep -q '^ok - lab03::primes' "$tmp/crash-served.tap" && [ "$(runners crash-served)" -ge 2 ]; then
    ok "lab 3 crashing at 1 x 1: SIGSEGV named, a fresh lab process after it, the tests after it pass"
else
    not_ok "lab 3 crashing at 1 x 1: with the server ($(runners crash-served) lab processes)" "$tmp/crash-served.out"
fi

# A call that never returns (lab 4, 1 x 1): stopped by the watch on its CPU time, twice, in the
# server's lab process as in the test's own, and the tests after it skipped, saying why.
suite hang-alone "$b/lab04/student-emu/test"
suite hang-served "$b/lab04/student-emu/test" TILELAB_SUITE_SERVER=1
alike "lab 4 looping for ever at 1 x 1" hang-alone hang-served
if grep -qE 'transpose\(\) of a 1 x 1 matrix did not return: it ran past [0-9.]+ s of CPU time, and again' "$tmp/hang-served.out" &&
    grep -qE 'the [1-9][0-9]* test\(s\) after it were not run' "$tmp/hang-served.out" && [ "$(servers hang-served)" -eq 1 ]; then
    ok "lab 4 looping for ever at 1 x 1: the call named, stopped twice, the tests after it skipped, saying why"
else
    not_ok "lab 4 looping for ever at 1 x 1: not said as without the server" "$tmp/hang-served.out"
fi

# A kernel that writes far outside out (lab 5, 1 x 1): an error the lab process answers
# with, alive; it is ended all the same, and the next test starts a fresh one.
suite fault-alone "$b/lab05/student-emu/test"
suite fault-served "$b/lab05/student-emu/test" TILELAB_SUITE_SERVER=1
alike "lab 5 writing far outside out at 1 x 1" fault-alone fault-served
if grep -q 'cudaErrorIllegalAddress' "$tmp/fault-served.out" && [ "$(runners fault-served)" -ge 2 ]; then
    ok "lab 5 writing far outside out: the error named, a fresh lab process for the tests after it"
else
    not_ok "lab 5 writing far outside out: $(runners fault-served) lab process(es)" "$tmp/fault-served.out"
fi

# The lab's code knocking at the server's socket: turned away, and the tests pass as without it.
suite knock-served "$b/lab01/student/test" TILELAB_SUITE_SERVER=1
if grep -q "planted: connected to the server's socket, and the server closed the connection unanswered" "$tmp/knock-served.out" &&
    grep -q "the suite's server turned away process" "$tmp/knock-served.out" &&
    [ "$(grep -c '^ok.* $' "$tmp/knock-served.tap")" -gt 5 ] && ! grep -q '^not ok' "$tmp/knock-served.tap"; then
    ok "a lab file that connects to the server is turned away, unanswered, and its tests pass"
else
    not_ok "a lab file that connects to the server was not turned away" "$tmp/knock-served.out"
fi

# The lab's code signalling the server (lab 2, 1 x 1: kill(getppid(), SIGKILL), its parent
# the server with one, the test's own process without): refused in the lab process
# (lab_runner.c), which ends; that test fails, saying so, the server lives on for the tests
# after it, and the outcomes are those without the server. (Once the kill took the server,
# and each test after it started a lab process of its own.)
suite kill-alone "$b/lab02/student/test"
suite kill-served "$b/lab02/student/test" TILELAB_SUITE_SERVER=1
if cmp -s "$tmp/kill-alone.tap" "$tmp/kill-served.tap" && grep -q '^not ok - lab02::one_by_one' "$tmp/kill-served.tap" &&
    grep -q "your code tried to send a signal to another process before transpose() returned" "$tmp/kill-served.out" &&
    ! grep -q "the suite's server (.*) ended" "$tmp/kill-served.out" && [ "$(servers kill-served)" -eq 1 ] &&
    [ "$(grep -c '^ok.* $' "$tmp/kill-served.tap")" -gt 5 ]; then
    ok "the lab's code signalling the server: refused, that test fails, saying so, the server lives on, the rest as without it ($(grep -c '^ok.* $' "$tmp/kill-served.tap") passed)"
else
    diff "$tmp/kill-alone.tap" "$tmp/kill-served.tap" >"$tmp/diff"
    cat "$tmp/kill-served.out" >>"$tmp/diff"
    not_ok "the lab's code signalling the server: not refused as without it" "$tmp/diff"
fi

# No server where it cannot start (its folder cannot be made): said once, and the tests as without.
suite nofolder "$b/lab04/reference-emu/test" TILELAB_SUITE_SERVER=1 TMPDIR="$tmp/missing"
if cmp -s "$tmp/ref-alone.tap" "$tmp/nofolder.tap" && [ "$(grep -c "cannot start the suite's server" "$tmp/nofolder.out")" -eq 1 ] &&
    [ "$(servers nofolder)" -eq 0 ] && [ "$(runners nofolder)" -gt 10 ]; then
    ok "a server that cannot start: said once, each test with a lab process of its own, the same outcomes"
else
    not_ok "a server that cannot start" "$tmp/nofolder.out"
fi

# With a GPU: its suites' own server, against the same suite without it; and a kernel
# whose fault spoils the server's context (a sticky error), after which it runs afresh.
if nvidia-smi -L 2>/dev/null | grep -q GPU; then
    if nice make -s B="$b" STUDENT_DIR="$planted" GPU=cuda "$b/lab06/reference/test" "$b/lab05/student/test" \
        "$b/lab09/student/test" >"$tmp/built" 2>&1; then
        suite gpu-served "$b/lab06/reference/test"
        suite gpu-alone "$b/lab06/reference/test" TILELAB_SUITE_SERVER=0
        alike "lab 6's reference on the GPU" gpu-alone gpu-served
        if [ "$(servers gpu-served)" -eq 1 ] && [ "$(runners gpu-served)" -eq "$(ran gpu-served)" ] &&
            ! grep -q '^not ok' "$tmp/gpu-served.tap"; then
            ok "lab 6's reference on the GPU: 1 server for the run, a lab process a test ($(runners gpu-served)), as without it"
        else
            not_ok "lab 6's reference on the GPU: $(runners gpu-served) lab process(es), $(servers gpu-served) server(s)" "$tmp/gpu-served.log"
        fi
        suite gpu-fault-served "$b/lab05/student/test"
        suite gpu-fault-alone "$b/lab05/student/test" TILELAB_SUITE_SERVER=0
        # Which error a wild address gives depends on what lies there, which differs from a
        # fresh process to a long-lived one (nothing: illegal address; the shared or local
        # window: invalid address space): the same mistake, explained alike, decided alike.
        for run in gpu-fault-alone gpu-fault-served; do
            sed -i -E 's/cudaError(IllegalAddress|InvalidAddressSpace) \([^)]*\)/cudaError(a wild address)/' "$tmp/$run.out"
        done
        alike "lab 5 writing far outside out, on the GPU" gpu-fault-alone gpu-fault-served
        if grep -q 'cudaError(a wild address)' "$tmp/gpu-fault-served.out" && [ "$(servers gpu-fault-served)" -ge 2 ]; then
            ok "lab 5 writing far outside out, on the GPU: the server ran afresh after the fault ($(servers gpu-fault-served) starts)"
        else
            not_ok "lab 5 writing far outside out, on the GPU: $(servers gpu-fault-served) server start(s)" "$tmp/gpu-fault-served.out"
        fi
        # A kernel that never ends (lab 9, n = 1), each test on its own (TILELAB_HANG_FILE empty,
        # as the grader runs them): the test's watch gives up on it, the server runs afresh,
        # its context and the kernel gone, and the tests after it pass.
        suite gpu-hang-served "$b/lab09/student/test" TILELAB_HANG_FILE=
        # (random_sides meets n = 1 too; tiny_squares, after both, does not.)
        if grep -q '^not ok - lab09::one_by_one' "$tmp/gpu-hang-served.tap" && grep -q 'did not return within' "$tmp/gpu-hang-served.out" &&
            ! grep -q 'The tests after this one are not run' "$tmp/gpu-hang-served.out" &&
            [ "$(servers gpu-hang-served)" -ge 3 ] && grep -q '^ok - lab09::tiny_squares $' "$tmp/gpu-hang-served.tap"; then
            ok "a kernel that never ends, on the GPU: its test fails, the server runs afresh ($(servers gpu-hang-served) starts), the tests after it pass"
        else
            not_ok "a kernel that never ends, on the GPU: the tests after it" "$tmp/gpu-hang-served.out"
        fi
    else
        not_ok "lab 6's reference and the planted lab 5 build for the GPU" "$tmp/built"
    fi
else
    for what in "lab 6's reference on the GPU, with the server and without" "a kernel's fault on the GPU: the server runs afresh" \
        "a kernel that never ends, on the GPU: the server runs afresh"; do
        ok "$what # SKIP needs an NVIDIA GPU"
    done
fi

tap_plan
