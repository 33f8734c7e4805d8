/*
 * grade-run: runs one command of the grader (a build, a test, a measurement)
 * under limits that the command cannot lift, and says how it ended.
 *
 * usage: grade-run --limit SECONDS --output FILE [--keep BYTES] [--fsize BYTES]
 *                  [--memory BYTES] [--test SUITE/TEST] [--records DIR] [--lock FILE]
 *                  -- COMMAND...
 *
 * The command gets its own process group, no stdin, no descriptor of this
 * program's but its output's, no core files and a cap on the size of any
 * file it writes (BYTES, 512 MiB unless said). With --memory, each of its
 * processes may hold at most BYTES of data (RLIMIT_DATA: its heap and its
 * private writable mappings; a reservation of address space without access,
 * as the emulator's device memory, is not counted): a file that allocates
 * until the machine runs out stops at that, on its own. Its stdout and stderr go to FILE,
 * cut at BYTES (on a UTF-8 character boundary). At SECONDS it is killed
 * with SIGKILL, which no handler can ignore; the grader's sandbox dies with
 * it, and with the sandbox every process it started.
 *
 * With --test, the command is a Criterion suite filtered to that test, run
 * with --tap=/dev/fd/3 (a pipe), and DIR/done.fifo, a FIFO this program
 * makes, for the test's record that it reached its end: the command's
 * environment names it in TILELAB_DONE_FILE (grade.sh's sandbox sets it
 * inside, so that it is not in this program's environment, nor in the
 * sandbox's first process, where /proc would show it). Both are read here
 * as they come: the records that decide a pass never sit in a file. They
 * are written by the suite's processes only: a lab's code runs in a
 * process of its own (harness/lab/lab_process.h). A pass needs exactly one
 * result line for the test, "ok" and not skipped, the test's own record
 * that it reached its end, and a clean exit; anything else is a failure,
 * and FILE says why.
 *
 * With --lock, FILE (opened here, read and write) is the command's descriptor 4
 * and the only one beside its output's: the GPU timing lock the grader's
 * benches share (bench --gpu-lock-fd 4, timing_lock.h), where the sandbox
 * shows no such file.
 *
 * Prints one word: pass, fail, skip or timeout (with --test: timeout where
 * the test ran past a limit on the clock, by this program's or the suite's
 * record, never by what the output says), or ok or fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RECORD_MAX 65536
#define FILE_SIZE_MAX (512L << 20) /* any one file the command writes, unless --fsize says */
#define DRAIN_SECONDS 2.0          /* after the command ends, for output still in flight */

typedef struct {
    int fd;
    char *buf;
    size_t len, cap, dropped;
} stream;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: grade-run --limit SECONDS --output FILE [--keep BYTES] [--fsize BYTES] [--memory BYTES] "
                    "[--test SUITE/TEST] [--records DIR] [--lock FILE] -- COMMAND...\n");
    exit(2);
}

static void take(stream *s)
{
    char chunk[8192];
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n <= 0) {
        if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            close(s->fd);
            s->fd = -1;
        }
        return;
    }
    size_t room = s->cap - s->len, keep = (size_t)n < room ? (size_t)n : room;
    memcpy(s->buf + s->len, chunk, keep);
    s->len += keep;
    s->dropped += (size_t)n - keep;
}

/* The longest prefix of at most len bytes that does not end inside a UTF-8 character. */
static size_t utf8_cut(const char *p, size_t len)
{
    size_t cut = len;
    size_t back = 0;
    while (cut > 0 && back < 4 && ((unsigned char)p[cut - 1] & 0xC0) == 0x80) {
        cut--;
        back++;
    }
    if (cut > 0) {
        unsigned char lead = (unsigned char)p[cut - 1];
        size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (need > 1 && back + 1 < need)
            return cut - 1;
    }
    return len;
}

static void appendf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

/* Lines of the TAP record that report `suite::test`, other than Criterion's
 * "skipped" lines for the tests the filter left out. */
static int result_lines(const char *tap, const char *id, int *ok, int *skipped, int *timed_out,
                        char *skip_why, size_t why_len)
{
    char want[512];
    const char *slash = strchr(id, '/');
    snprintf(want, sizeof want, "%.*s::%s", slash ? (int)(slash - id) : 0, id, slash ? slash + 1 : id);
    int count = 0;
    for (const char *line = tap; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int is_ok = len >= 5 && !strncmp(line, "ok - ", 5);
        int is_not_ok = len >= 9 && !strncmp(line, "not ok - ", 9);
        if (is_ok || is_not_ok) {
            const char *name = line + (is_ok ? 5 : 9);
            size_t wl = strlen(want);
            int mine = (size_t)(line + len - name) >= wl && !strncmp(name, want, wl) &&
                       (name[wl] == ' ' || name + wl == line + len);
            if (mine) {
                count++;
                *ok = is_ok;
                /* Criterion's own limit: "not ok - suite::test timed out (1.01s)" */
                *timed_out = is_not_ok && !strncmp(name + wl, " timed out", 10);
                const char *skip = strstr(name, "# SKIP");
                *skipped = skip && skip < line + len;
                if (*skipped) {
                    skip += 6;
                    while (*skip == ' ')
                        skip++;
                    snprintf(skip_why, why_len, "%.*s", (int)(line + len - skip), skip);
                }
            } else if (is_not_ok || !strstr(name, "# SKIP test was skipped")) {
                count += 100; /* a result for another test: not from this run */
            }
        }
        line = end ? end + 1 : line + len;
    }
    return count;
}

typedef struct {
    double limit;
    long keep, fsize, memory;
    const char *output, *test, *records, *lock;
    char **command;
} options;

static options parse_options(int argc, char **argv)
{
    options o = {0, 4000, FILE_SIZE_MAX, 0, NULL, NULL, NULL, NULL, NULL};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (i + 1 >= argc)
            usage();
        if (!strcmp(argv[i], "--limit"))
            o.limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--output"))
            o.output = argv[++i];
        else if (!strcmp(argv[i], "--keep"))
            o.keep = atol(argv[++i]);
        else if (!strcmp(argv[i], "--fsize"))
            o.fsize = atol(argv[++i]);
        else if (!strcmp(argv[i], "--memory"))
            o.memory = atol(argv[++i]);
        else if (!strcmp(argv[i], "--test"))
            o.test = argv[++i];
        else if (!strcmp(argv[i], "--records"))
            o.records = argv[++i];
        else if (!strcmp(argv[i], "--lock"))
            o.lock = argv[++i];
        else
            usage();
    }
    if (i + 1 >= argc || o.limit <= 0 || !o.output || o.keep < 0 || o.fsize <= 0 || o.memory < 0 ||
        (o.test && !o.records))
        usage();
    o.command = argv + i + 1;
    return o;
}

/* Criterion's workers close inherited descriptors: a FIFO reaches them by name. Holding
 * its write end too, reads never see an end of file before the workers have written. */
static void open_fifo(const char *fifo, int done[2])
{
    unlink(fifo);
    if (mkfifo(fifo, 0622) || chmod(fifo, 0622) ||
        (done[0] = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
        (done[1] = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
        perror(fifo);
        exit(1);
    }
}

/* The command, in a process group of its own, under its limits: its pid. */
static pid_t spawn(const options *o, const int out[2], const int tap[2])
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("grade-run: fork");
        exit(1);
    }
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        dup2(tap[1], 3);
        int lock = o->lock ? open(o->lock, O_RDWR) : -1;
        if (o->lock && (lock < 0 || dup2(lock, 4) != 4)) {
            fprintf(stderr, "grade-run: the lock %s: %s\n", o->lock, strerror(errno));
            _exit(127);
        }
        /* Nothing else of the grader's: a lock it holds (setpriv.sh), a file it has open. */
        unsigned first = o->lock ? 5U : 4U;
        if (syscall(SYS_close_range, first, ~0U, 0) != 0)
            for (int fd = (int)first; fd < 65536; fd++)
                close(fd);
        /* A suite lifts the soft limit for the matrices it shares with its lab process, and
         * gives that process the limit as a hard one (lab_client.c): a test's cap is soft. */
        struct rlimit core = {0, 0}, fsize = {(rlim_t)o->fsize, (rlim_t)o->fsize};
        if (o->test && getrlimit(RLIMIT_FSIZE, &fsize) == 0)
            fsize.rlim_cur = (rlim_t)o->fsize;
        setrlimit(RLIMIT_CORE, &core);
        setrlimit(RLIMIT_FSIZE, &fsize);
        if (o->memory) {
            struct rlimit data = {(rlim_t)o->memory, (rlim_t)o->memory};
            setrlimit(RLIMIT_DATA, &data);
        }
        signal(SIGPIPE, SIG_DFL);
        execvp(o->command[0], o->command);
        fprintf(stderr, "grade-run: cannot run %s: %s\n", o->command[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    return pid;
}

/* Reads the three streams (output, TAP, FIFO) until the command has ended and its output
 * drained, killing it at the limit: its wait status; *timed_out when the limit ended it. */
static int collect(pid_t pid, double limit, stream s[3], int *timed_out)
{
    double deadline = now() + limit, drain_until = 0;
    int status = 0, exited = 0;
    for (;;) {
        if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
            exited = 1;
            drain_until = now() + DRAIN_SECONDS;
        }
        double t = now();
        if (!exited && t >= deadline) {
            *timed_out = 1;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            exited = 1;
            drain_until = t + DRAIN_SECONDS;
        }
        int open_streams = 0;
        struct pollfd p[3];
        for (int k = 0; k < 3; k++) {
            p[k].fd = s[k].fd;
            p[k].events = POLLIN;
            open_streams += k < 2 && s[k].fd >= 0; /* the FIFO never ends: see open_fifo */
        }
        if (exited && (!open_streams || t >= drain_until))
            break;
        int ready = poll(p, 3, 50);
        for (int k = 0; ready > 0 && k < 3; k++)
            if (s[k].fd >= 0 && (p[k].revents & (POLLIN | POLLHUP | POLLERR)))
                take(&s[k]);
    }
    /* Whatever the command left behind in its process group goes with it. */
    kill(-pid, SIGKILL);
    while (s[2].fd >= 0 && s[2].len < s[2].cap) {
        size_t before = s[2].len + s[2].dropped;
        take(&s[2]);
        if (s[2].len + s[2].dropped == before)
            break;
    }
    return status;
}

/* FILE: the command's output, cut, and how it ended. */
static FILE *write_output(const options *o, const stream *out, int status, int timed_out)
{
    FILE *f = fopen(o->output, "w");
    if (!f) {
        perror(o->output);
        exit(1);
    }
    size_t cut = utf8_cut(out->buf, out->len);
    fwrite(out->buf, 1, cut, f);
    if (out->dropped || cut < out->len)
        appendf(f, "\n[... %zu more bytes cut]\n", out->dropped + (out->len - cut));
    if (timed_out)
        appendf(f, "\ntilelab: stopped after %g seconds, the time limit%s\n", o->limit,
                o->test ? " of this test (an endless loop, or far too slow?)" : "");
    else if (WIFSIGNALED(status))
        appendf(f, "\ntilelab: killed by signal %d (%s)\n", WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) - 128 < NSIG)
        /* how a sandbox (bwrap) or a shell says that its command was killed */
        appendf(f, "\ntilelab: killed by signal %d (%s)\n", WEXITSTATUS(status) - 128,
                strsignal(WEXITSTATUS(status) - 128));
    return f;
}

/* DIR/tap and DIR/done: the records, as they came, for review. */
static void write_records(const char *records, const stream s[3])
{
    char path[4096];
    const char *names[2] = {"tap", "done"};
    for (int k = 1; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", records, names[k - 1]);
        FILE *r = fopen(path, "w");
        if (r) {
            fwrite(s[k].buf, 1, s[k].len, r);
            fclose(r);
        }
    }
}

/* A test's verdict from its records and its exit; why it failed goes to f. "timeout":
 * it ran past a limit on the clock, as this program saw (its own limit) or as the
 * suite's processes put on record (Criterion's limit in the TAP record, the suite's
 * watch on a call in the done record: "timeout suite/test"), never as the output
 * says, which the lab's code can print as well. */
static const char *test_verdict(const char *test, const stream s[3], int status, int timed_out,
                                FILE *f)
{
    int ok = 0, skipped = 0, criterion_timed_out = 0;
    int clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char why[512] = "", want[600], hang[600];
    int lines = result_lines(s[1].buf, test, &ok, &skipped, &criterion_timed_out, why, sizeof why);
    snprintf(want, sizeof want, "done %s\n", test);
    snprintf(hang, sizeof hang, "timeout %s\n", test);
    int reached_end = !strcmp(s[2].buf, want);
    if (timed_out || (lines == 1 && criterion_timed_out) || strstr(s[2].buf, hang))
        return "timeout";
    if (lines > 1 || s[1].dropped || s[2].dropped) {
        appendf(f, "\ntilelab: the test's report holds results it did not produce: "
                   "something besides the test wrote to it. No points.\n");
        return "fail";
    }
    if (lines == 0) {
        appendf(f, "\ntilelab: the test reported no result: the process ended before it "
                   "could (exit() or a signal in the lab code?)\n");
        return "fail";
    }
    if (ok && skipped) {
        appendf(f, "\ntilelab: skipped: %s\n", why);
        return "skip";
    }
    if (!ok)
        return "fail";
    if (!reached_end) {
        appendf(f, "\ntilelab: the test did not reach its end: the process was ended early "
                   "(exit() or _exit() in the lab code?)\n");
        return "fail";
    }
    if (!clean) {
        appendf(f, "\ntilelab: the test passed, but its process then failed (exit status "
                   "%d): lab code that runs at exit?\n",
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return "fail";
    }
    return "pass";
}

int main(int argc, char **argv)
{
    options o = parse_options(argc, argv);
    int out[2], tap[2], done[2] = {-1, -1};
    char fifo[4096] = "";
    /* The TAP pipe is reopened by name (--tap=/dev/fd/3), which a command run
     * as another user (the grader's setpriv sandbox) may do only if it is
     * writable by others: it is a pipe, and its reader is this program. */
    if (pipe2(out, O_CLOEXEC) || pipe2(tap, O_CLOEXEC) || fchmod(tap[1], 0622)) {
        perror("grade-run: pipe");
        return 1;
    }
    if (o.test) {
        snprintf(fifo, sizeof fifo, "%s/done.fifo", o.records);
        open_fifo(fifo, done);
    }
    pid_t pid = spawn(&o, out, tap);
    close(out[1]);
    close(tap[1]);
    signal(SIGPIPE, SIG_IGN);

    stream s[3] = {
        {out[0], malloc((size_t)o.keep + 1), 0, (size_t)o.keep, 0},
        {tap[0], malloc(RECORD_MAX + 1), 0, RECORD_MAX, 0},
        {done[0], malloc(RECORD_MAX + 1), 0, RECORD_MAX, 0},
    };
    int timed_out = 0, status = collect(pid, o.limit, s, &timed_out);
    if (done[1] >= 0)
        close(done[1]);
    if (*fifo)
        unlink(fifo);
    for (int k = 0; k < 3; k++) {
        if (s[k].fd >= 0)
            close(s[k].fd);
        s[k].buf[s[k].len] = '\0';
    }
    FILE *f = write_output(&o, &s[0], status, timed_out);
    if (o.records)
        write_records(o.records, s);
    int clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const char *verdict = o.test ? test_verdict(o.test, s, status, timed_out, f) : clean ? "ok" : "fail";
    fclose(f);
    printf("%s\n", verdict);
    return 0;
}
