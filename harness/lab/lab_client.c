/*
 * The suite's side of the lab process (lab_process.h): it starts
 * `lab-runner` from the suite's own folder when a test first needs the
 * lab's code, hands it each run, and explains how it ended when it ends
 * before it answers. Never linked beside a lab file: a check names lab.h's
 * entry point by its handle (op.h), which says here which entry point a
 * request is for (and which lab_plans.c, in a suite built for a GPU and in
 * the grader's bench, runs as a plan).
 */
#define _GNU_SOURCE
#include "lab_client.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "lab_process.h"
#include "suite_server.h"

/* No process of the lab's may open this one's descriptors (/proc/PID/fd) or trace it; and
 * past a file-size limit, ftruncate of the matrices says so (EFBIG) instead of a signal.
 * First of all (priority 101): the suite's server (suite_server.c) runs from a constructor. */
__attribute__((constructor(101))) static void close_to_others(void)
{
    prctl(PR_SET_DUMPABLE, 0);
    signal(SIGXFSZ, SIG_IGN);
}

typedef void (*entry_fn)(void);

/* The entry point a suite's check asks for: its handle (op.h), as the suite names it. */
static int entry_of(entry_fn fn)
{
    return tl_entry_handled(fn);
}

const char *tl_lab_entry_of(void (*fn)(void))
{
    return tl_lab_entry_name(entry_of(fn));
}

const char *tl_signal_meaning(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV: a memory access outside what was allocated (an index out of "
                         "bounds, or a bad pointer?)";
    /* The matrices are a memfd's pages (lab_client.c): an index past the end of one, up to
     * the end of its mapping, faults as SIGBUS, where a student looks for SIGSEGV. */
    case SIGBUS: return "SIGBUS: an access past the end of a matrix (an index out of bounds: the "
                        "matrices lie in shared memory, where such an access faults with SIGBUS), "
                        "or a misaligned one";
    case SIGFPE: return "SIGFPE: an arithmetic error (integer division by zero?)";
    case SIGILL: return "SIGILL: an illegal instruction";
    case SIGABRT: return "SIGABRT: abort() was called, or an assert() failed";
    case SIGSYS: return "SIGSYS: it started a thread, a process or a program, which the emulator's "
                        "lab process does not allow (a lab's code needs none)";
    default: return strsignal(sig);
    }
}

/* ---------------------------------------------------------------- the process */

static pid_t runner = -1;
static int sock = -1, matrices = -1;
/* The read end of the lab process's standard output and error (relay_printed). */
static int printed = -1;
/* sock is the suite's server's (suite_server.h), which runs the lab process for this one: no
 * process here to watch or explain, and the server answers as the lab process would. */
static int served;
static const char *runner_path = "lab-runner"; /* in this program's folder */

int tl_lab_beside(char *path, size_t len, const char *name)
{
    ssize_t n = readlink("/proc/self/exe", path, len);
    char *slash = n > 0 && (size_t)n < len ? memrchr(path, '/', (size_t)n) : NULL;
    if (!slash || strlen(name) >= len - (size_t)(slash + 1 - path))
        return -1;
    strcpy(slash + 1, name);
    return 0;
}

void tl_lab_runner_at(const char *path)
{
    runner_path = path;
}

/*
 * The cap on any file a lab's code writes (RLIMIT_FSIZE, which the grader
 * sets as a soft limit): the lab process gets it as a hard one, which it
 * cannot lift. The matrices' memfd is a file too, and a pair of 8192 x 8192
 * matrices is more than the grader's 512 MiB: this process lifts its own
 * soft limit just for the memfd's size.
 */
static int resize_matrices(size_t bytes)
{
    struct rlimit given, lifted;
    if (getrlimit(RLIMIT_FSIZE, &given) != 0)
        return ftruncate(matrices, (off_t)bytes);
    lifted = given;
    lifted.rlim_cur = given.rlim_max;
    setrlimit(RLIMIT_FSIZE, &lifted);
    int rc = ftruncate(matrices, (off_t)bytes);
    int err = errno;
    setrlimit(RLIMIT_FSIZE, &given);
    errno = err;
    return rc;
}

/* ---------------------------------------------------------------- what the lab process prints */

/*
 * The lab process's standard output and error are a pipe of their own, never the suite's:
 * what the suite prints (Criterion's lines as each test starts and ends, the checks'
 * diagnosis) is what the grader cuts into each test's part (grade_parts.h), and a lab
 * file that printed "[PASS] lab01::one_by_one: (0.00s)" there once took that test's
 * diagnosis away and filed its own lines under the next test. So what the lab process
 * prints reaches the suite's output through here alone, each line behind LAB_SAID: the
 * student still reads it, beside the test it came in, as the lab process's, and no line
 * of it can be one of the suite's. (A kernel's printf on a GPU is the server's output,
 * which replays the kernel: plan.h.)
 */
#define LAB_SAID "[lab process] "
static int at_line_start = 1;

static void write_all(const char *bytes, size_t n)
{
    while (n > 0) {
        ssize_t w = write(2, bytes, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        bytes += w;
        n -= (size_t)w;
    }
}

/* What the lab process printed so far (up to `most` bytes), each line behind LAB_SAID, on
 * this process's standard error: whether the pipe is still open. */
static int relay_printed(size_t most)
{
    char chunk[65536];
    while (printed >= 0 && most > 0) {
        ssize_t n = read(printed, chunk, sizeof chunk < most ? sizeof chunk : most);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0 || errno != EAGAIN) {
                close(printed);
                printed = -1;
            }
            break;
        }
        most -= (size_t)n;
        size_t from = 0;
        for (size_t i = 0; i < (size_t)n; i++) {
            if (at_line_start) {
                write_all(chunk + from, i - from);
                write_all(LAB_SAID, sizeof LAB_SAID - 1);
                from = i;
                at_line_start = 0;
            }
            if (chunk[i] == '\n')
                at_line_start = 1;
        }
        write_all(chunk + from, (size_t)n - from);
    }
    return printed >= 0;
}

/* All it printed before it answered, and its last line ended: the suite's next line is its own. */
static void relay_up_to_now(void)
{
    relay_printed((size_t)64 << 20);
    if (!at_line_start) {
        write_all("\n", 1);
        at_line_start = 1;
    }
}

static void stop_runner(void)
{
    if (sock >= 0)
        close(sock);
    if (matrices >= 0)
        close(matrices);
    sock = matrices = -1;
    if (runner > 0) {
        kill(runner, SIGKILL);
        waitpid(runner, NULL, 0);
    }
    /* its last words (a line before a crash), as far as they were written */
    relay_up_to_now();
    if (printed >= 0)
        close(printed);
    printed = -1;
    runner = -1;
    served = 0;
}

/*
 * The lab process's environment: what a program needs to find its libraries and
 * the GPU (the grader's sandbox keeps the same for every command), nothing the
 * suite was given. The held-back cases reach a grader's suite in its own
 * environment (tests/tl_test.h, TILELAB_SEED and TILELAB_HIDDEN): a lab's code
 * reads them nowhere, nor any other setting of the suite's (but the GPU a GPU grading's
 * emulator stands in for, TILELAB_EMU_DEVICE, harness/emu/device.c, which the GPU's build
 * is given too). Built in the child,
 * just before it runs lab-runner.
 */
static char **lab_environment(void)
{
    static const char *const kept[] = {"PATH=", "HOME=", "TMPDIR=", "LANG=", "LD_LIBRARY_PATH=", "CUDA_",
                                       "TILELAB_EMU_DEVICE="};
    static char *env[64];
    int n = 0;
    for (char **e = environ; *e && n < (int)(sizeof env / sizeof *env) - 1; e++)
        for (size_t k = 0; k < sizeof kept / sizeof *kept; k++)
            if (!strncmp(*e, kept[k], strlen(kept[k]))) {
                env[n++] = *e;
                break;
            }
    env[n] = NULL;
    return env;
}

/* fd onto exactly `want` in a child about to exec, whatever fds it holds now. */
static int place(int fd, int want)
{
    return fd == want ? fcntl(fd, F_SETFD, 0) : dup2(fd, want);
}

/* The lab process started, or the suite's server joined where this run has one. */
static int start_runner(char *why, size_t why_len)
{
    char path[4096];
    if ((matrices = memfd_create("tilelab-matrices", MFD_CLOEXEC)) < 0) {
        snprintf(why, why_len, "tilelab: cannot start the lab process: %s", strerror(errno));
        return -1;
    }
    if ((sock = tl_suite_server_join(matrices)) >= 0) {
        served = 1;
        return 0;
    }
    if (tl_lab_beside(path, sizeof path, runner_path) != 0) {
        snprintf(why, why_len, "tilelab: cannot find this program's own folder (/proc/self/exe)");
        stop_runner();
        return -1;
    }
    int sv[2], out[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 ||
        prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 || pipe2(out, O_CLOEXEC) != 0) {
        snprintf(why, why_len, "tilelab: cannot start the lab process: %s", strerror(errno));
        stop_runner();
        return -1;
    }
    /* Out of the way of 1 to 4 first, so that placing one cannot close another. */
    int child_sock = fcntl(sv[1], F_DUPFD_CLOEXEC, 10), child_matrices = fcntl(matrices, F_DUPFD_CLOEXEC, 10),
        child_out = fcntl(out[1], F_DUPFD_CLOEXEC, 10);
    close(out[1]);
    printed = out[0];
    fcntl(printed, F_SETFL, O_NONBLOCK);
    at_line_start = 1;
    pid_t parent = getpid();
    runner = fork();
    if (runner == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        struct rlimit cap;
        if (getppid() != parent || getrlimit(RLIMIT_FSIZE, &cap) != 0)
            _exit(127);
        cap.rlim_max = cap.rlim_cur;
        if (setrlimit(RLIMIT_FSIZE, &cap) != 0)
            _exit(127);
        signal(SIGXFSZ, SIG_DFL);
        if (place(child_out, 1) < 0 || place(child_out, 2) < 0 || place(child_sock, TL_LAB_SOCKET_FD) < 0 ||
            place(child_matrices, TL_LAB_MATRICES_FD) < 0)
            _exit(127);
        for (int fd = TL_LAB_MATRICES_FD + 1; fd < 1024; fd++)
            close(fd);
        /* nothing to read that the suite was given: its standard input is the suite's */
        int nothing = open("/dev/null", O_RDONLY);
        if (nothing < 0 || (nothing != 0 && dup2(nothing, 0) < 0))
            _exit(127);
        if (nothing != 0)
            close(nothing);
        execle(path, "lab-runner", (char *)NULL, lab_environment());
        fprintf(stderr, "tilelab: cannot run %s: %s (make builds it beside the suite)\n", path,
                strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    close(child_sock);
    close(child_matrices);
    close(child_out);
    sock = sv[0];
    if (runner < 0) {
        snprintf(why, why_len, "tilelab: cannot start the lab process: %s", strerror(errno));
        stop_runner();
        return -1;
    }
    tl_lab_process_log("lab-runner", (int)runner);
    return 0;
}

/* The lab process's stack overflowed (TL_LAB_STACK_OVERFLOW): its limit is this process's. */
static void explain_stack_overflow(char *why, size_t why_len)
{
    struct rlimit limit;
    char size[64] = "";
    if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        snprintf(size, sizeof size, " (%llu KiB here)", (unsigned long long)limit.rlim_cur / 1024);
    snprintf(why, why_len,
             "your code was killed by SIGSEGV: a stack overflow, its local variables larger than "
             "the stack%s. A large local array? float buf[BLOCK][BLOCK] takes BLOCK * BLOCK * 4 "
             "bytes, 16 MiB at BLOCK = 2048. Keep a buffer that grows with a tunable in memory from "
             "malloc (freed before returning), or do without it",
             size);
}

/* Why the lab process ended (or stopped answering) before it answered. */
static void explain_end(char *why, size_t why_len, const char *what)
{
    int status = 0;
    pid_t done = 0;
    if (served) {
        tl_suite_server_lost(why, why_len, what);
        stop_runner();
        return;
    }
    for (int i = 0; i < 100 && (done = waitpid(runner, &status, WNOHANG)) == 0; i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    if (done == runner && WIFSIGNALED(status))
        snprintf(why, why_len, "your code was killed by %s", tl_signal_meaning(WTERMSIG(status)));
    else if (done == runner && WIFEXITED(status) && WEXITSTATUS(status) == TL_LAB_STACK_OVERFLOW)
        explain_stack_overflow(why, why_len);
    else if (done == runner && WIFEXITED(status) && WEXITSTATUS(status) == TL_LAB_SIGNAL_REFUSED)
        snprintf(why, why_len, "your code tried to send a signal to another process before %s "
                               "(kill(getppid(), ...), kill(-1, ...), kill(0, ...) or the like): the "
                               "process your code runs in may signal nothing but itself, so the call "
                               "was refused and the process ended. A lab's code needs no signal; "
                               "abort() and raise() still end your own process", what);
    else if (done == runner && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, why_len, "the lab process did not start (see the lines above)");
    else if (done == runner)
        snprintf(why, why_len, "your code ended its process with exit status %d before %s "
                               "(exit() or _exit() in the lab code?)",
                 WEXITSTATUS(status), what);
    else
        snprintf(why, why_len, "the process your code runs in stopped answering (it closed "
                               "descriptors it did not open?)");
    if (done == runner)
        runner = -1;
    stop_runner();
}

/* What a call was, for a message: "transpose() of a 97 x 89 matrix". */
static void describe_call(char *buf, size_t len, int entry, tl_shape s)
{
    const tl_call *call = tl_lab_entry_call(entry);
    if (call)
        call->describe(buf, len, tl_lab_entry_name(entry), s);
    else
        snprintf(buf, len, "%s()", tl_lab_entry_name(entry));
}

/* ---------------------------------------------------------------- calls that never return */

static double watch_limit; /* CPU seconds a call may take in the lab process; 0: no limit */
/* Whether the lab process runs on the CPU emulator: 1, 0 on a GPU, -1 not yet known. */
static int on_emulator = -1;
static char watch_test[256];

void tl_lab_watch(double cpu_seconds, const char *test)
{
    watch_limit = cpu_seconds;
    snprintf(watch_test, sizeof watch_test, "%s", test ? test : "");
}

/* The lab process's CPU time so far, all its threads, in seconds, 0 when it cannot be read; and,
 * where state is given, its state there (/proc/PID/stat's letter: T stopped by a signal), 0 unread. */
static double runner_cpu(char *state)
{
    char path[64], stat[1024], st = 0;
    unsigned long long user = 0, sys = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)runner);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
    if (f)
        fclose(f);
    stat[n] = '\0';
    const char *fields = strrchr(stat, ')'); /* the name before it may hold anything */
    int got = fields ? sscanf(fields, ") %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &st, &user, &sys) : 0;
    if (state)
        *state = got >= 1 ? st : 0;
    if (got != 3)
        return 0;
    return (double)(user + sys) / (double)sysconf(_SC_CLK_TCK);
}

/* Descriptors of this process's own watched beside the lab process's answer (tl_lab_wait_also). */
#define TL_LAB_ALSO 2
static int also[TL_LAB_ALSO], n_also;
static tl_lab_news_fn on_news;

void tl_lab_wait_also(const int *fds, int n, tl_lab_news_fn news)
{
    n_also = n < 0 ? 0 : n > TL_LAB_ALSO ? TL_LAB_ALSO : n;
    memcpy(also, fds, (size_t)n_also * sizeof *also);
    on_news = news;
}

/*
 * Waits for the reply to a request: 0 when it can be read, 1 when the call
 * ran past watch_limit seconds of the lab process's CPU time, 2 when
 * another test's call was put on record as hung meanwhile, 3 when news on
 * a descriptor of tl_lab_wait_also's ended the wait, or the lab process was
 * found stopped, with why (the process is then ended), -1 on an error of
 * the socket. CPU time, not the clock's:
 * what other processes running beside it take does not count. From the
 * suite's server only the answer: it watches its lab process itself.
 */
static int await_reply(char *why, size_t why_len)
{
    double start = served ? 0 : runner_cpu(NULL);
    char other[8];
    for (;;) {
        struct pollfd p[2 + TL_LAB_ALSO] = {{sock, POLLIN, 0}};
        int watched = served ? 0 : n_also;
        for (int i = 0; i < watched; i++)
            p[1 + i] = (struct pollfd){also[i], POLLIN, 0};
        /* what it prints as it runs, so that a full pipe never stops it */
        p[1 + watched] = (struct pollfd){printed, POLLIN, 0};
        int ready = poll(p, 2 + (nfds_t)watched, served ? -1 : 100);
        if (ready < 0 && errno != EINTR)
            return -1;
        if (ready > 0 && p[1 + watched].revents)
            relay_printed((size_t)1 << 20);
        if (ready > 0 && p[0].revents)
            return 0;
        for (int i = 0; ready > 0 && i < watched; i++)
            if (p[1 + i].revents && on_news(also[i], p[1 + i].revents, why, why_len) != 0) {
                stop_runner();
                return 3;
            }
        if (served)
            continue;
        /* Stopped by a signal (state T): a lab's code may signal itself, and SIGSTOP (or SIGTSTP,
         * raise()d) stops it, taking no CPU time, so that only the clock's limits ended each
         * test's call, minutes a test (a cheating helper, 2026-11-29). A debugger's stop (t, a
         * student's gdb at a breakpoint) is left alone. */
        char state;
        double cpu = runner_cpu(&state);
        if (state == 'T') {
            snprintf(why, why_len, "the lab process stopped itself (a SIGSTOP or SIGTSTP it sent "
                                   "itself): a stopped process never answers, so the call was ended");
            stop_runner();
            return 3;
        }
        int over = watch_limit > 0 && cpu - start > watch_limit;
        int elsewhere = !over && tl_lab_hang_on_record(other, sizeof other);
        if (over || elsewhere) {
            stop_runner();
            return over ? 1 : 2;
        }
    }
}

/* The hang of the suite's run, as its TILELAB_HANG_FILE holds it: 1 with what, else 0. */
int tl_lab_hang_on_record(char *what, size_t len)
{
    const char *path = getenv("TILELAB_HANG_FILE");
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    int found = f && fgets(what, (int)len, f) != NULL;
    if (f)
        fclose(f);
    if (found)
        what[strcspn(what, "\n")] = '\0';
    return found && *what;
}

void tl_lab_put_hang_on_record(const char *what)
{
    const char *path = getenv("TILELAB_HANG_FILE");
    char before[8];
    if (!path || !*path || tl_lab_hang_on_record(before, sizeof before))
        return;
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s\n", what);
        fclose(f);
    }
}

void tl_lab_record_timeout(const char *test)
{
    const char *path = getenv("TILELAB_DONE_FILE");
    int fd = path && *path && test && *test ? open(path, O_WRONLY | O_APPEND) : -1;
    if (fd >= 0) {
        char line[320];
        int n = snprintf(line, sizeof line, "timeout %s\n", test);
        (void)!write(fd, line, (size_t)n);
        close(fd);
    }
}

/* A call stopped twice (await_reply): why says so, and the hang is put on record. Entry -1:
 * the lab process's first answer, before any call, which code the lab file runs first delays. */
static void hung(char *why, size_t why_len, int entry, tl_shape s)
{
    char call[160], what[1024];
    if (entry < 0)
        snprintf(call, sizeof call, "the lab process, starting (your lab file's code that runs "
                                    "before any call, such as a constructor, counts),");
    else
        describe_call(call, sizeof call, entry, s);
    snprintf(why, why_len,
             "%s did not %s: it ran past %g s of CPU time, and again when it was run a "
             "second time in a fresh process. An endless loop? (a loop whose condition never "
             "changes, an index that never moves, or in a kernel a thread that waits for what "
             "another thread never does.)%s",
             call, entry < 0 ? "answer" : "return", watch_limit,
             on_emulator != 1 ? ""
                              : " On the CPU emulator, a thread that waits in a loop for what another "
                                "block writes waits forever, as may one that waits for a thread of "
                                "its own block: the emulator runs a kernel's blocks one after another, "
                                "and a block's threads each in turn until it waits at a barrier or a "
                                "warp function, where a GPU runs its resident blocks and their warps "
                                "side by side. A kernel whose blocks wait for each other (a block that "
                                "spins on a flag or a counter that later blocks set) is the emulator's "
                                "limit, not a mistake: run it on a GPU (make labN test GPU=cuda).");
    snprintf(what, sizeof what, "%s%s%s did not %s within %g s of CPU time, twice (an "
             "endless loop?)", watch_test, watch_test[0] ? ": " : "", call,
             entry < 0 ? "answer" : "return", watch_limit);
    tl_lab_put_hang_on_record(what);
}

/* One request and its reply; -1 with why when no reply came, 1 when the call was stopped
 * as it ran too long (why says so). The request carries the watch on it, for a server. */
static int ask(const tl_lab_request *rq, tl_lab_reply *rp, char *why, size_t why_len)
{
    char what[64];
    if (rq->ask == TL_ASK_BACKEND)
        snprintf(what, sizeof what, "the lab process answered");
    else
        snprintf(what, sizeof what, "%s() returned", tl_lab_entry_name(rq->entry));
    if (sock < 0 && start_runner(why, why_len) != 0)
        return -1;
    static tl_lab_request sent;
    sent = *rq;
    sent.watch = watch_limit;
    snprintf(sent.test, sizeof sent.test, "%s", watch_test);
    if (send(sock, &sent, sizeof sent, MSG_NOSIGNAL) != (ssize_t)sizeof sent) {
        explain_end(why, why_len, what);
        return -1;
    }
    ssize_t n = -1;
    int waited = await_reply(why, why_len);
    if (waited == 3)
        return -1;
    if (waited == 1) {
        snprintf(why, why_len, "the call was stopped: it ran past %g s of CPU time", watch_limit);
        return 1;
    }
    if (waited == 2) {
        snprintf(why, why_len, "the call was stopped: another test's call never returned");
        return -1;
    }
    while (waited == 0 && (n = recv(sock, rp, sizeof *rp, 0)) < 0 && errno == EINTR)
        ;
    relay_up_to_now();
    if (n != (ssize_t)sizeof *rp) {
        explain_end(why, why_len, what);
        return -1;
    }
    rp->backend[sizeof rp->backend - 1] = rp->why[sizeof rp->why - 1] = rp->todo[sizeof rp->todo - 1] = '\0';
    return 0;
}

/*
 * A request to run an entry point: 1 when the lab process answered, with
 * what it said of the run taken here (its TODO and its launches; its error
 * in why when it failed); 0 when it did not, with why, and no TODO or
 * launch kept from before; -1 when it was stopped as it ran too long.
 */
static int answered(const tl_lab_request *rq, tl_lab_reply *rp, char *why, size_t why_len)
{
    tl_todo_reset();
    tl_launch_reset();
    int rc = ask(rq, rp, why, why_len);
    if (rc != 0)
        return rc == 1 ? -1 : 0;
    tl_todo_set(rp->todo);
    for (int i = 0; i < rp->launches && i < TL_MAX_LAUNCHES; i++)
        tl_launch_add(&rp->launch[i]);
    tl_launch_more(rp->launches - TL_MAX_LAUNCHES);
    if (rp->rc)
        snprintf(why, why_len, "%s", rp->why);
    return 1;
}

/* ---------------------------------------------------------------- the backend */

/* The lab process, started if need be, and the memfd it shares, `bytes` long,
 * mapped here; NULL with why. */
static void *share(size_t bytes, const char *what, char *why, size_t why_len)
{
    if (sock < 0 && start_runner(why, why_len) != 0)
        return NULL;
    void *shared = MAP_FAILED;
    if (resize_matrices(bytes) != 0 ||
        (shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, matrices, 0)) == MAP_FAILED) {
        snprintf(why, why_len, "tilelab: cannot share %s (%zu bytes) with the lab process: %s", what,
                 bytes, strerror(errno));
        return NULL;
    }
    return shared;
}

/* Whether runs are counted (tl_lab_count), and the last counted run's counts. */
static int counting;
static tl_lab_profile counts;

void tl_lab_count(int on)
{
    counting = on;
}

const tl_lab_profile *tl_lab_counts(void)
{
    return &counts;
}

/* The counts the lab process wrote at from: a copy, taken once and checked,
 * since the lab process may still write the memfd. 0, or -1 with why. */
static int take_counts(const void *from, char *why, size_t why_len)
{
    memcpy(&counts, from, sizeof counts);
    if (counts.kernels < 0 || counts.kernels > TL_LAB_PROFILE_KERNELS) {
        snprintf(why, why_len, "your code ran %d different kernels; the profile counts %d at most, "
                               "and one or two do this lab's work", counts.kernels, TL_LAB_PROFILE_KERNELS);
        memset(&counts, 0, sizeof counts);
        return -1;
    }
    if (counts.made > TL_LAB_PROFILE_MADE)
        counts.made = TL_LAB_PROFILE_MADE + 1; /* more than it holds: the checks say so */
    for (int i = 0; i < counts.kernels; i++) {
        counts.kernel[i].name[sizeof counts.kernel[i].name - 1] = '\0';
        counts.kernel[i].stats.kernel = counts.kernel[i].name;
    }
    for (int i = 0; i < counts.made && i < TL_LAB_PROFILE_MADE; i++) {
        counts.made_by[i].name[sizeof counts.made_by[i].name - 1] = '\0';
        counts.made_by[i].stats.kernel = counts.made_by[i].name;
    }
    return 0;
}

/* One run of run_remote's: -2 when it was stopped as it ran too long. */
static int run_once(entry_fn fn, tl_matrix **m, int count, tl_shape s, char *why, size_t why_len)
{
    tl_lab_request rq = {.ask = counting ? TL_ASK_PROFILE : TL_ASK_RUN, .entry = entry_of(fn), .shape = s,
                         .matrices = count};
    for (int i = 0; i < count; i++) {
        rq.m[i].offset = rq.floats;
        rq.m[i].total = tl_matrix_total(m[i]);
        rq.m[i].count = m[i]->count;
        rq.floats += rq.m[i].total;
    }
    if (counting) { /* the counts after the matrices, 8-byte aligned */
        rq.floats += rq.floats % 2;
        rq.profile_at = rq.floats * sizeof(float);
        rq.floats += (sizeof(tl_lab_profile) + sizeof(float) - 1) / sizeof(float);
    }
    size_t bytes = rq.floats * sizeof(float);
    float *shared = share(bytes, "the matrices", why, why_len);
    if (!shared)
        return -1;
    for (int i = 0; i < count; i++)
        memcpy(shared + rq.m[i].offset, m[i]->base, rq.m[i].total * sizeof(float));
    static tl_lab_reply rp;
    memset(&counts, 0, sizeof counts);
    int replied = answered(&rq, &rp, why, why_len);
    for (int i = 0; i < count && replied > 0; i++)
        memcpy(m[i]->base, shared + rq.m[i].offset, rq.m[i].total * sizeof(float));
    int rc = replied > 0 && rp.rc == 0 ? 0 : replied < 0 ? -2 : -1;
    if (rc == 0 && counting)
        rc = take_counts((unsigned char *)shared + rq.profile_at, why, why_len);
    munmap(shared, bytes);
    return rc;
}

/* The run in the lab process, on the matrices as they were: a run stopped as it ran too
 * long is run again in a fresh process before it counts. */
static int run_remote(entry_fn fn, tl_matrix **m, int count, tl_shape s, char *why, size_t why_len)
{
    int rc = run_once(fn, m, count, s, why, why_len);
    if (rc == -2)
        rc = run_once(fn, m, count, s, why, why_len);
    if (rc == -2)
        hung(why, why_len, entry_of(fn), s);
    return rc < 0 ? -1 : 0;
}

static int run_call(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s, char *why,
                    size_t why_len)
{
    return run_remote(fn, (tl_matrix **)m, call->matrices, s, why, why_len);
}

int tl_lab_backend(const tl_backend **backend, char *why, size_t why_len)
{
    static char name[64];
    static tl_backend remote = {name, 0, run_call};
    static const tl_backend *planned;
    static int known = -2;
    static char known_why[sizeof ((tl_lab_reply *)0)->why];
    if (known == -2) {
        tl_lab_request rq = {.ask = TL_ASK_BACKEND};
        static tl_lab_reply rp;
        int rc = ask(&rq, &rp, known_why, sizeof known_why);
        if (rc == 1) /* stopped: once more, in a fresh process */
            rc = ask(&rq, &rp, known_why, sizeof known_why);
        if (rc == 1)
            hung(known_why, sizeof known_why, -1, (tl_shape){0, 0, 0});
        if (rc == 0 && rp.rc) { /* the suite's server's lab process failed (suite_server.c) */
            snprintf(known_why, sizeof known_why, "%s", rp.why);
            rc = -1;
        }
        if (rc != 0) {
            snprintf(why, why_len, "%s", known_why);
            return -1; /* asked again next time: it may start then */
        }
        snprintf(name, sizeof name, "%s", rp.backend);
        remote.on_gpu = rp.on_gpu;
        on_emulator = rp.on_gpu && strcmp(rp.backend, TL_EMU_RUNTIME_NAME) == 0;
        snprintf(known_why, sizeof known_why, "%s", rp.why);
        known = rp.available ? 1 : 0;
        if (known && rp.plans && tl_lab_plans_backend)
            planned = tl_lab_plans_backend();
    }
    *backend = planned ? planned : &remote;
    snprintf(why, why_len, "%s", known_why);
    return known;
}

/* ---------------------------------------------------------------- plans */

/* One request for a plan: 0, -1 with why, or -2 when it was stopped as it ran too long. */
static int plan_once(void (*entry)(void), tl_shape s, const unsigned long long device[3],
                     const tl_plan_table *table, tl_plan *plan, char *why, size_t why_len)
{
    tl_lab_request rq = {.ask = TL_ASK_PLAN, .entry = entry_of(entry), .shape = s,
                         .floats = (TL_LAB_PLAN_BYTES + sizeof(float) - 1) / sizeof(float)};
    memcpy(rq.device, device, sizeof rq.device);
    size_t bytes = rq.floats * sizeof(float);
    unsigned char *shared = share(bytes, "a plan", why, why_len);
    if (!shared)
        return -1;
    memcpy(shared, table, sizeof *table);
    memset(shared + TL_LAB_PLAN_OFFSET, 0, sizeof *plan);
    static tl_lab_reply rp;
    tl_todo_reset();
    int rc = ask(&rq, &rp, why, why_len);
    if (rc == 1)
        rc = -2;
    else if (rc == 0) {
        /* A copy, taken once: the lab process may still write the memfd. */
        memcpy(plan, shared + TL_LAB_PLAN_OFFSET, sizeof *plan);
        plan->refused[sizeof plan->refused - 1] = '\0';
        tl_todo_set(rp.todo);
        if (rp.rc)
            snprintf(why, why_len, "%s", rp.why);
        rc = rp.rc ? -1 : 0;
    }
    munmap(shared, bytes);
    return rc;
}

int tl_lab_plan(void (*entry)(void), tl_shape s, const unsigned long long device[3],
                const tl_plan_table *table, tl_plan *plan, char *why, size_t why_len)
{
    int rc = plan_once(entry, s, device, table, plan, why, why_len);
    if (rc == -2)
        rc = plan_once(entry, s, device, table, plan, why, why_len);
    if (rc == -2)
        hung(why, why_len, entry_of(entry), s);
    return rc < 0 ? -1 : 0;
}

/* Every process the lab process left behind: they were made this one's
 * children (PR_SET_CHILD_SUBREAPER) when it died. */
static void end_orphans(void)
{
    pid_t self = getpid();
    for (;;) {
        DIR *proc = opendir("/proc");
        struct dirent *e;
        while (proc && (e = readdir(proc))) {
            char path[64], stat[512];
            pid_t pid = (pid_t)atoi(e->d_name), parent = 0;
            snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
            FILE *f = pid > 0 ? fopen(path, "r") : NULL;
            size_t n = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
            if (f)
                fclose(f);
            stat[n] = '\0';
            char *close_paren = strrchr(stat, ')');
            if (close_paren && sscanf(close_paren, ") %*c %d", &parent) == 1 && parent == self)
                kill(pid, SIGKILL);
        }
        if (proc)
            closedir(proc);
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

void tl_lab_stop(void)
{
    stop_runner();
    end_orphans();
}
