/*
 * grade-run: runs one command of the grader (a build, a test, a measurement)
 * under limits that the command cannot lift, and says how it ended.
 *
 * usage: grade-run --limit SECONDS --output FILE [--wall SECONDS] [--cpu-record FILE]
 *                  [--keep BYTES] [--fsize BYTES] [--memory BYTES]
 *                  [--test SUITE/TEST[=OUT]]... [--records DIR] [--lock FILE] [--input TEXT]
 *                  -- COMMAND...
 *
 * The command gets its own process group, no stdin (with --input, TEXT
 * on a pipe, then its end: what the command must read after it starts,
 * never on its command line or in its environment), no descriptor of this
 * program's but its output's, no core files and a cap on the size of any
 * file it writes (BYTES, 512 MiB unless said). With --memory, each of its
 * processes may hold at most BYTES of data (RLIMIT_DATA: its heap and its
 * private writable mappings; a reservation of address space without access,
 * as the emulator's device memory, is not counted): a file that allocates
 * until the machine runs out stops at that, on its own. Its stdout and stderr go to FILE,
 * cut to BYTES: its first three quarters and its last quarter (where a
 * run says how it ended: a measurement's verdict after whatever a lab printed), the
 * cut said between them, on a UTF-8 character and a line boundary.
 *
 * --limit counts CPU time: the seconds of CPU that the command and every
 * process it started used together (grade_cpu.h), which a busy machine does
 * not change, where the clock would stop a correct hand-in for its
 * neighbours' load. The clock's limit, --wall (WALL_SCALE times the limit
 * and WALL_MARGIN seconds unless said), ends what waits without using the
 * CPU: a sleep, a read that never comes. At either the command and every
 * process below this one is killed with SIGKILL, which no handler can
 * ignore; the grader's sandbox dies with it, and with the sandbox every
 * process it started. With --cpu-record, the CPU seconds the command used
 * are appended to FILE, a line: what a lab's limit on all its tests adds up
 * (grade_tests.c).
 *
 * With --test, the command is a Criterion suite filtered to that test, run
 * with --tap=/dev/fd/3 (a pipe), and DIR/done.fifo, a FIFO this program
 * makes, for the test's record that it reached its end: the command's
 * environment names it in TILELAB_DONE_FILE (the grader's sandbox sets it
 * inside, so that it is not in this program's environment, nor in the
 * sandbox's first process, where /proc would show it). Both are read here
 * as they come: the records that decide a pass never sit in a file. They
 * are written by the suite's processes only: a lab's code runs in a
 * process of its own (harness/lab/lab_process.h). A pass needs exactly one
 * result line for the test, "ok" and not skipped, the test's own record
 * that it reached its end, and a clean exit; anything else is a failure,
 * and FILE says why.
 *
 * With several, --test SUITE/TEST=OUT each, the command is one suite run of
 * all of them, one at a time (--jobs 1 --verbose): one start of the suite,
 * its lab process and, on a GPU, its server's context for all the tests of
 * a lab (lab_process.h). Each test is judged as above from its own lines of
 * the records, and its part of the output, cut at the lines Criterion
 * prints as each test ends, goes to OUT: what a student reads for the test
 * (the verdicts never come from it). The run's exit status is clean where
 * it is 0, or Criterion's 1 where a test of the run failed. A test the run
 * did not reach the end of (the limit, the sum of its tests', ended it) is
 * a time-out, which the grader runs again alone.
 *
 * With --lock, FILE (opened here, read and write) is the command's descriptor 4
 * and the only one beside its output's: the GPU timing lock the grader's
 * benches share (bench --gpu-lock-fd 4, timing_lock.h), where the sandbox
 * shows no such file.
 *
 * Prints one word: pass, fail, skip or timeout (with --test: timeout where
 * the test ran past a time limit, by this program's or the suite's record,
 * never by what the output says), or ok or fail; with several
 * tests, one such word a line, in the order of the --test options.
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "grade_cpu.h"
#include "grade_parts.h"

#define RECORD_MAX 65536
#define FILE_SIZE_MAX (512L << 20) /* any one file the command writes, unless --fsize says */
#define DRAIN_SECONDS 2.0          /* after the command ends, for output still in flight */
#define WALL_SCALE 4               /* the clock's limit, unless --wall says: this many times the CPU's */
#define WALL_MARGIN 30             /* ... and this many seconds more */
#define CPU_EVERY 0.2              /* seconds between two counts of the command's CPU time */

typedef struct {
    int fd;
    char *buf;
    size_t len, cap, dropped;
    /* The output of one command: past its first cap bytes, its last tail_cap in a ring (what a
     * run says last, a measurement's verdict after a hand-in's prints, is kept); dropped then
     * counts what fell out of the ring. */
    char *tail;
    size_t tail_cap, tail_len, tail_start;
    tl_parts *parts; /* the output of a run of several tests: cut into their parts as it comes */
} stream;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: grade-run --limit SECONDS --output FILE [--wall SECONDS] [--cpu-record FILE] "
                    "[--keep BYTES] [--fsize BYTES] [--memory BYTES] [--test SUITE/TEST[=OUT]]... "
                    "[--records DIR] [--lock FILE] [--input TEXT] -- COMMAND...\n");
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
    if (s->parts) {
        tl_parts_feed(s->parts, chunk, (size_t)n);
        return;
    }
    size_t room = s->cap - s->len, keep = (size_t)n < room ? (size_t)n : room;
    memcpy(s->buf + s->len, chunk, keep);
    s->len += keep;
    for (size_t i = keep; i < (size_t)n; i++) {
        if (s->tail_len == s->tail_cap) { /* the ring's oldest byte goes, or the byte itself */
            s->dropped++;
            if (!s->tail_cap)
                continue;
            s->tail_start = (s->tail_start + 1) % s->tail_cap;
            s->tail_len--;
        }
        s->tail[(s->tail_start + s->tail_len++) % s->tail_cap] = chunk[i];
    }
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

/* "suite::test" for the id "suite/test". */
static void criterion_name(const char *id, char *name, size_t len)
{
    const char *slash = strchr(id, '/');
    snprintf(name, len, "%.*s::%s", slash ? (int)(slash - id) : 0, id, slash ? slash + 1 : id);
}

/* Whether text (len bytes) starts with name followed by a space, a colon or its end. */
static int starts_with_name(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len >= n && !strncmp(text, name, n) && (len == n || text[n] == ' ' || text[n] == ':');
}

#define TESTS_MAX 64 /* tests of one run: a lab's suite has about 16 */

typedef struct {
    char id[512];    /* suite/test */
    char name[600];  /* suite::test, as Criterion names it in its TAP and output */
    const char *out; /* where its part of the output goes; NULL: the run's output file is its */
} test;

typedef struct {
    double limit, wall; /* seconds of CPU time, seconds on the clock */
    long keep, fsize, memory;
    const char *output, *records, *lock, *input, *cpu_record;
    test tests[TESTS_MAX];
    int n_tests;
    char **command;
} options;

static options parse_options(int argc, char **argv)
{
    options o = {.keep = 4000, .fsize = FILE_SIZE_MAX};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (i + 1 >= argc)
            usage();
        if (!strcmp(argv[i], "--limit"))
            o.limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--wall"))
            o.wall = atof(argv[++i]);
        else if (!strcmp(argv[i], "--cpu-record"))
            o.cpu_record = argv[++i];
        else if (!strcmp(argv[i], "--output"))
            o.output = argv[++i];
        else if (!strcmp(argv[i], "--keep"))
            o.keep = atol(argv[++i]);
        else if (!strcmp(argv[i], "--fsize"))
            o.fsize = atol(argv[++i]);
        else if (!strcmp(argv[i], "--memory"))
            o.memory = atol(argv[++i]);
        else if (!strcmp(argv[i], "--test")) {
            if (o.n_tests == TESTS_MAX)
                usage();
            test *t = &o.tests[o.n_tests++];
            const char *arg = argv[++i], *eq = strchr(arg, '=');
            char id[sizeof t->id];
            snprintf(id, sizeof id, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
            memcpy(t->id, id, sizeof id);
            criterion_name(id, t->name, sizeof t->name);
            t->out = eq ? eq + 1 : NULL;
        }
        else if (!strcmp(argv[i], "--records"))
            o.records = argv[++i];
        else if (!strcmp(argv[i], "--input"))
            o.input = argv[++i];
        else if (!strcmp(argv[i], "--lock"))
            o.lock = argv[++i];
        else
            usage();
    }
    if (!o.wall)
        o.wall = WALL_SCALE * o.limit + WALL_MARGIN;
    if (i + 1 >= argc || o.limit <= 0 || o.wall <= 0 || !o.output || o.keep < 0 || o.fsize <= 0 || o.memory < 0 ||
        (o.n_tests && !o.records))
        usage();
    /* several tests: each its own part of the output, in a file of its own */
    for (int t = 0; o.n_tests > 1 && t < o.n_tests; t++)
        if (!o.tests[t].out || !*o.tests[t].out)
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
        int in = open("/dev/null", O_RDONLY), given[2];
        if (o->input && pipe(given) == 0) { /* the text fits the pipe's buffer: written at once */
            (void)!write(given[1], o->input, strlen(o->input));
            close(given[1]);
            in = given[0];
        }
        dup2(in, 0);
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
        if (o->n_tests && getrlimit(RLIMIT_FSIZE, &fsize) == 0)
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

/* How the command ended, as far as its limits go. */
typedef struct {
    int timed_out; /* a limit ended it */
    int by_clock;  /* ... the clock's, while its CPU time was under its own */
    double cpu;    /* the CPU seconds it used, every process of it */
} ending;

/* Reads the three streams (output, TAP, FIFO) until the command has ended and its output
 * drained, killing it at a limit: its wait status, and how it ended. */
static int collect(pid_t pid, const options *o, stream s[3], ending *e)
{
    double start = now(), next_count = start, drain_until = 0;
    int status = 0, exited = 0;
    for (;;) {
        /* The command, and the orphans of its processes, which come here (a subreaper):
         * waited for, so that their CPU time is counted (RUSAGE_CHILDREN). */
        int st;
        for (pid_t w; (w = waitpid(-1, &st, WNOHANG)) > 0;)
            if (w == pid && !exited) {
                status = st, exited = 1;
                drain_until = now() + DRAIN_SECONDS;
            }
        double t = now();
        if (!exited && t >= next_count) {
            e->cpu = tl_descendants_cpu(0);
            next_count = t + CPU_EVERY;
        }
        if (!exited && (e->cpu >= o->limit || t - start >= o->wall)) {
            e->timed_out = 1;
            e->by_clock = e->cpu < o->limit;
            kill(-pid, SIGKILL);
            e->cpu = tl_descendants_cpu(1);
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
    /* Whatever the command left behind goes with it: its process group, and any
     * process below this one that left the group. */
    kill(-pid, SIGKILL);
    if (!e->timed_out)
        e->cpu = tl_descendants_cpu(1);
    /* ... and, killed, is waited for (they come here as their parents die): what
     * they used then counts in this program's own, for whoever counts it. */
    for (double until = now() + DRAIN_SECONDS;;) {
        int st;
        pid_t w = waitpid(-1, &st, WNOHANG);
        if ((w < 0 && errno != EINTR) || now() >= until)
            break;
        if (w == 0)
            usleep(10000);
    }
    while (s[2].fd >= 0 && s[2].len < s[2].cap) {
        size_t before = s[2].len + s[2].dropped;
        take(&s[2]);
        if (s[2].len + s[2].dropped == before)
            break;
    }
    return status;
}

/* The limit that ended the command, as words: "N seconds of CPU time". */
static const char *limit_words(const options *o, const ending *e)
{
    static char words[128];
    if (e->by_clock)
        snprintf(words, sizeof words, "%g seconds on the clock", o->wall);
    else
        snprintf(words, sizeof words, "%g seconds of CPU time", o->limit);
    return words;
}

/* FILE: the command's output, cut, and how it ended. */
static FILE *write_output(const options *o, const stream *out, int status, const ending *e)
{
    FILE *f = fopen(o->output, "w");
    if (!f) {
        perror(o->output);
        exit(1);
    }
    /* Nothing dropped: the head and the ring are the output whole, one after the other. */
    size_t cut = out->dropped ? utf8_cut(out->buf, out->len) : out->len, skip = 0;
    fwrite(out->buf, 1, cut, f);
    if (out->dropped) { /* a cut tail starts at its first whole line */
        while (skip < out->tail_len && out->tail[(out->tail_start + skip) % out->tail_cap] != '\n')
            skip++;
        skip += skip < out->tail_len;
        appendf(f, "\n[... %zu more bytes cut]\n", out->dropped + skip + (out->len - cut));
    }
    for (size_t i = skip; i < out->tail_len; i++)
        fputc(out->tail[(out->tail_start + i) % out->tail_cap], f);
    if (out->dropped && out->tail_len > skip &&
        out->tail[(out->tail_start + out->tail_len - 1) % out->tail_cap] != '\n')
        fputc('\n', f);
    if (e->timed_out && e->by_clock)
        appendf(f, "\ntilelab: stopped after %s, the time limit%s: it had used %.1f seconds "
                   "of CPU time, so it spent the rest waiting for something that never came "
                   "(a sleep, a read, a lock?)\n",
                limit_words(o, e), o->n_tests > 1 ? " of these tests together" : "", e->cpu);
    else if (e->timed_out)
        appendf(f, "\ntilelab: stopped after %s, the time limit%s\n", limit_words(o, e),
                o->n_tests == 1 ? " of this test (an endless loop, or far too slow?)"
                : o->n_tests    ? " of these tests together"
                                : "");
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

/* What the records say of one test of the run. */
typedef struct {
    int lines;        /* TAP result lines naming it: exactly one from a run that reached it */
    int ok, skipped;  /* of its (last) result line */
    int timed_out;    /* Criterion's limit: "not ok - suite::test timed out (1.01s)" */
    char why[512];    /* a skip's reason */
    int done, hung;   /* "done suite/test" lines of the done record; a "timeout suite/test" line */
} result;

/* The TAP record's result lines, each to the test of the run it names, in r[]: how many
 * report a result for no test of the run (Criterion's "skipped" lines for the tests the
 * filter left out are not results). Something besides the suite wrote those. */
static int read_tap(const char *tap, const options *o, result r[])
{
    int foreign = 0;
    for (const char *line = tap; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int is_ok = len >= 5 && !strncmp(line, "ok - ", 5);
        int is_not_ok = len >= 9 && !strncmp(line, "not ok - ", 9);
        if (is_ok || is_not_ok) {
            const char *name = line + (is_ok ? 5 : 9), *stop = line + len;
            int k = 0;
            while (k < o->n_tests && !starts_with_name(name, (size_t)(stop - name), o->tests[k].name))
                k++;
            if (k < o->n_tests) {
                result *t = &r[k];
                size_t wl = strlen(o->tests[k].name);
                t->lines++;
                t->ok = is_ok;
                t->timed_out = is_not_ok && (size_t)(stop - name) >= wl + 10 &&
                               !strncmp(name + wl, " timed out", 10);
                const char *skip = strstr(name, "# SKIP");
                t->skipped = skip && skip < stop;
                if (t->skipped) {
                    skip += 6;
                    while (*skip == ' ')
                        skip++;
                    snprintf(t->why, sizeof t->why, "%.*s", (int)(stop - skip), skip);
                }
            } else if (is_not_ok || !strstr(name, "# SKIP test was skipped")) {
                foreign++;
            }
        }
        line = end ? end + 1 : line + len;
    }
    return foreign;
}

/* The done record's lines (tests/tl_test.h writes "done suite/test" as a test reaches
 * its end, "timeout suite/test" where its watch stopped a call, gpu_technique.h
 * "launches suite/test ..." for each call a GPU grading records), each to its test in
 * r[]: how many lines are neither, for a test of the run. */
static int read_done(const char *done, const options *o, result r[])
{
    int foreign = 0;
    for (const char *line = done; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int k = 0, hung = 0;
        for (; k < o->n_tests; k++) {
            size_t n = strlen(o->tests[k].id);
            if (len == 5 + n && !strncmp(line, "done ", 5) && !strncmp(line + 5, o->tests[k].id, n))
                break;
            if (len == 8 + n && !strncmp(line, "timeout ", 8) && !strncmp(line + 8, o->tests[k].id, n)) {
                hung = 1;
                break;
            }
            /* what a GPU grading's technique check launched (tests/gpu_technique.h): the grader
             * reads it from DIR/done */
            if (len > 10 + n && !strncmp(line, "launches ", 9) && !strncmp(line + 9, o->tests[k].id, n) &&
                line[9 + n] == ' ') {
                hung = -1;
                break;
            }
        }
        if (k == o->n_tests || !end) /* a line of its own, ended: a test's record is written whole */
            foreign++;
        else if (hung > 0)
            r[k].hung = 1;
        else if (hung < 0)
            ; /* a record of launches, not of the test's end */
        else
            r[k].done++;
        line = end ? end + 1 : line + len;
    }
    return foreign;
}

/* A test's verdict from its records and the run's exit; why it failed goes to f.
 * "timeout": it ran past a limit on the clock, as this program saw (its own limit,
 * which ends the run: every test it had not ended) or as the suite's processes put on
 * record (Criterion's limit in the TAP record, the suite's watch on a call in the done
 * record: "timeout suite/test"), never as the output says, which the lab's code can
 * print as well. clean: the run ended as a suite run whose tests all ended does. */
static const char *test_verdict(const result *t, int foreign, int clean, int timed_out, FILE *f)
{
    if (t->hung || (t->lines == 1 && t->timed_out) || (timed_out && t->lines == 0))
        return "timeout";
    if (foreign || t->lines > 1) {
        appendf(f, "\ntilelab: the test's report holds results it did not produce: "
                   "something besides the test wrote to it. No points.\n");
        return "fail";
    }
    if (t->lines == 0) {
        appendf(f, "\ntilelab: the test reported no result: the process ended before it "
                   "could (exit() or a signal in the lab code?)\n");
        return "fail";
    }
    if (t->ok && t->skipped) {
        appendf(f, "\ntilelab: skipped: %s\n", t->why);
        return "skip";
    }
    if (!t->ok)
        return "fail";
    if (t->done != 1) {
        appendf(f, "\ntilelab: the test did not reach its end: the process was ended early "
                   "(exit() or _exit() in the lab code?)\n");
        return "fail";
    }
    if (!clean) {
        appendf(f, "\ntilelab: the test passed, but its process then failed: lab code that "
                   "runs at exit?\n");
        return "fail";
    }
    return "pass";
}

/* The verdicts of the run's tests, one a line; several tests: each one's part of the
 * output, and why it failed, in its own file. */
static void judge_tests(const options *o, const stream s[3], int status, const ending *e, FILE *run_output)
{
    int timed_out = e->timed_out;
    static result r[TESTS_MAX];
    memset(r, 0, sizeof r);
    int foreign = read_tap(s[1].buf, o, r) + (s[1].dropped != 0);
    foreign += read_done(s[2].buf, o, r) + (s[2].dropped != 0);
    /* Criterion's main exits 0, or 1 where a test failed. */
    int all_ok = 1;
    for (int k = 0; k < o->n_tests; k++)
        all_ok &= r[k].lines == 1 && r[k].ok;
    int exited = !timed_out && WIFEXITED(status);
    int clean = exited && (WEXITSTATUS(status) == 0 || (WEXITSTATUS(status) == 1 && !all_ok));
    if (!s[0].parts) {
        printf("%s\n", test_verdict(&r[0], foreign, clean, timed_out, run_output));
        return;
    }
    for (int k = 0; k < o->n_tests; k++) {
        FILE *f = fopen(o->tests[k].out, "w");
        if (!f) {
            perror(o->tests[k].out);
            exit(1);
        }
        int began, ended;
        fputs(tl_parts_of(s[0].parts, k, &began, &ended), f);
        if (timed_out && !ended)
            appendf(f, "\ntilelab: %s after %s, the time limit of this lab's tests together\n",
                    began ? "stopped as this test ran," : "not reached: the run was stopped",
                    limit_words(o, e));
        printf("%s\n", test_verdict(&r[k], foreign, clean, timed_out, f));
        fclose(f);
    }
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
    if (o.n_tests) {
        snprintf(fifo, sizeof fifo, "%s/done.fifo", o.records);
        open_fifo(fifo, done);
    }
    /* Orphans of the command's processes come here, and stay counted (grade_cpu.h). */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        perror("grade-run: prctl (orphans go uncounted)");
    pid_t pid = spawn(&o, out, tap);
    close(out[1]);
    close(tap[1]);
    signal(SIGPIPE, SIG_IGN);

    /* One command's output: its first three quarters of --keep, and its last quarter. */
    size_t tail_cap = (size_t)o.keep / 4;
    stream s[3] = {
        {out[0], malloc((size_t)o.keep + 1), 0, (size_t)o.keep - tail_cap, 0, malloc(tail_cap + 1), tail_cap, 0, 0,
         NULL},
        {tap[0], malloc(RECORD_MAX + 1), 0, RECORD_MAX, 0, NULL, 0, 0, 0, NULL},
        {done[0], malloc(RECORD_MAX + 1), 0, RECORD_MAX, 0, NULL, 0, 0, 0, NULL},
    };
    /* Several tests: the output goes to each one's part as it comes, kept to --keep a part. */
    static const char *name_of[TESTS_MAX];
    for (int k = 0; k < o.n_tests; k++)
        name_of[k] = o.tests[k].name;
    if (o.n_tests > 1 || (o.n_tests == 1 && o.tests[0].out))
        s[0].parts = tl_parts_new(name_of, o.n_tests, (size_t)o.keep);
    ending e = {0};
    int status = collect(pid, &o, s, &e);
    if (done[1] >= 0)
        close(done[1]);
    if (*fifo)
        unlink(fifo);
    for (int k = 0; k < 3; k++) {
        if (s[k].fd >= 0)
            close(s[k].fd);
        s[k].buf[s[k].len] = '\0';
    }
    FILE *f = write_output(&o, &s[0], status, &e);
    FILE *cpu = o.cpu_record ? fopen(o.cpu_record, "a") : NULL;
    if (o.cpu_record && (!cpu || fprintf(cpu, "%.2f\n", e.cpu) < 0 || fclose(cpu) != 0))
        perror(o.cpu_record);
    if (o.records)
        write_records(o.records, s);
    if (o.n_tests)
        judge_tests(&o, s, status, &e, f);
    else
        printf("%s\n", !e.timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "fail");
    fclose(f);
    return 0;
}
