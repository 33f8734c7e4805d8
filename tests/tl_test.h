/*
 * What every suite shares: run the one checker on a shape and turn its
 * verdict into a Criterion assertion. A suite is built with TL_LAB_GPU
 * defined when its lab runs on the GPU.
 */
#ifndef TILELAB_TL_TEST_H
#define TILELAB_TL_TEST_H

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/internal/ordered-set.h>
#include <criterion/options.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "lab.h"
#include "lab_client.h"
#include "op.h"
#include "suite_server.h"

/*
 * The emulator runs every GPU thread in turn: its large cases are large
 * enough to span many tiles and small enough to run in seconds.
 */
#ifdef TL_EMU
#define TL_LARGE_SIDE 2048
#else
#define TL_LARGE_SIDE TL_LARGE
#endif
#define TL_RANDOM_MAX 1500

/*
 * Smaller large cases would cross fewer of the boundaries a kernel can get
 * wrong than a GPU's do: a side past 4096, more rows than a block has
 * threads where a kernel gives each row one thread of a single block. So a
 * GPU suite also checks thin shapes: each side at the longest a GPU's
 * large shapes give it, beside sides of TL_THIN (and TL_THIN + 2). They
 * cross every boundary those shapes cross past the emulator's, at almost
 * no cost, on the emulator as on a GPU. And one that no large shape
 * crosses: a grid holds at most 65535 blocks in y, so a kernel that gives
 * each row (or column) a row of blocks is refused past 65535 of them; a
 * side of TL_PAST_GRID_Y crosses it (about 200 000 elements, thin), both
 * sides of a transpose. Not a product's: there a block's work is a whole
 * tile of C deep as the kernel's own tiles whatever k is, and a thousand
 * blocks of a register-blocked kernel outlast a test's time on the
 * emulator; the products' suites cross it neither here nor on a GPU.
 */
#define TL_THIN 3
#define TL_PAST_GRID_Y (65535 + 2)

/*
 * One boundary only a square crosses: past 2^24 elements a float no longer
 * holds every integer, so a kernel that works out its index in a float
 * (r * cols + c held in a float, or taken through a float intrinsic) reads
 * and writes the wrong element for about half the indices past it, and only
 * there. A GPU's large shapes cross it (8192^2 = 2^26 elements), the
 * emulator's do not (2048^2 = 2^22); a side of TL_PAST_FLOAT_INDEX does, odd
 * (what a float rounds away is an odd index's last bit), at the cost of 2^24
 * threads on the emulator, a few seconds. Its test's name holds "large": the
 * emulator corpus's runs leave it out (tests/emu_corpus/run.sh).
 */
#define TL_PAST_FLOAT_INDEX 4097

/*
 * Every test of the kit: a time limit, the name of any signal that kills
 * it, and a record that it ran to its end. The limit, `seconds`, is what
 * the test's calls are measured against (tl_lab_watch, below: each may
 * take a quarter of it in CPU time, twice); Criterion's clock stops the test
 * only at three times that, for a process that hangs without computing, or
 * a machine so busy that its CPU time comes slowly. The grader trusts a pass only
 * with that record, so code that ends the process early (exit(0)) fails.
 *
 * Each test also says what it grades, in the suite's manifest:
 *   TL_TEST       correctness
 *   TL_RANDOM     correctness on shapes drawn from TILELAB_SEED (the grader
 *                 runs it again with a seed it held back)
 *   TL_TECHNIQUE  what the lab teaches, which a correct answer may skip
 *   TL_HELD_BACK  run only by the grader, on shapes it held back
 * The grader reads the manifest off the reference's build of the suite
 * (TILELAB_MANIFEST=FILE writes it and exits), never off a student's.
 */
typedef struct {
    const char *suite, *name, *kind;
    int seconds;
} tl_manifest_entry;

#define TL_TEST_OF_KIND(suite, name, seconds, kind)                                               \
    static const tl_manifest_entry tl_manifest_##suite##_##name                                   \
        __attribute__((used, section("tl_manifest"), aligned(sizeof(void *)))) = {#suite, #name,  \
                                                                                    kind, seconds}; \
    Test(suite, name, .timeout = 3 * (seconds), .init = tl_test_begin, .fini = tl_test_end)
#define TL_TEST(suite, name, seconds) TL_TEST_OF_KIND(suite, name, seconds, "correctness")
#define TL_RANDOM(suite, name, seconds) TL_TEST_OF_KIND(suite, name, seconds, "random")
#define TL_TECHNIQUE(suite, name, seconds) TL_TEST_OF_KIND(suite, name, seconds, "technique")
#define TL_HELD_BACK(suite, name, seconds) TL_TEST_OF_KIND(suite, name, seconds, "held-back")

extern const tl_manifest_entry __start_tl_manifest[] __attribute__((weak));
extern const tl_manifest_entry __stop_tl_manifest[] __attribute__((weak));

/* Before Criterion starts: with TILELAB_MANIFEST set, write "kind suite/test seconds" lines and exit. */
__attribute__((constructor)) static void tl_write_manifest(void)
{
    const char *path = getenv("TILELAB_MANIFEST");
    if (!path)
        return;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        _exit(1);
    }
    for (const tl_manifest_entry *e = __start_tl_manifest; e && e < __stop_tl_manifest; e++)
        fprintf(f, "%s\t%s/%s\t%d\n", e->kind, e->suite, e->name, e->seconds);
    _exit(fclose(f) == 0 ? 0 : 1);
}

/*
 * The held-back cases of a grader's run (harness/grade/grade_tests.c): with
 * TILELAB_HELD_BACK=stdin, their seed and shapes come on standard input, as
 * TILELAB_SEED=... and TILELAB_HIDDEN=... lines (and the technique checks'
 * seed, TILELAB_TECHNIQUE_SEED=..., and on a GPU grading what the GPU
 * launched at their shapes, TILELAB_RECORD_LAUNCHES, TILELAB_GPU_LAUNCH and
 * TILELAB_GPU_SMS: gpu_technique.h), never on a command line or
 * in an environment a lab's code could read (a sandbox's first process shows
 * both in /proc). Read here, in the suite's first process, before any test
 * or lab process starts, and set in its own environment: its test
 * processes inherit it, its lab processes never do
 * (lab_client.c starts them with a clean one), and this process, like every
 * process of the suite's, is closed to theirs (not dumpable).
 */
/* NAME's value, with value added as a line of its own. */
static inline void tl_append_env(const char *name, const char *value)
{
    const char *was = getenv(name);
    char *both = malloc((was ? strlen(was) + 1 : 0) + strlen(value) + 1);
    if (!both)
        return;
    sprintf(both, "%s%s%s", was ? was : "", was ? "\n" : "", value);
    setenv(name, both, 1);
    free(both);
}

__attribute__((constructor)) static void tl_take_held_back(void)
{
    const char *how = getenv("TILELAB_HELD_BACK");
    static char text[1 << 16]; /* a pipe's buffer, which grade-run fills at once */
    size_t n = 0;
    ssize_t got;
    if (!how || strcmp(how, "stdin"))
        return;
    unsetenv("TILELAB_HELD_BACK");
    while (n < sizeof text - 1 && (got = read(0, text + n, sizeof text - 1 - n)) > 0)
        n += (size_t)got;
    text[n] = '\0';
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *value = strchr(line, '=');
        if (!value)
            continue;
        *value++ = '\0';
        if (!strcmp(line, "TILELAB_SEED") || !strcmp(line, "TILELAB_HIDDEN") ||
            !strcmp(line, "TILELAB_TECHNIQUE_SEED") || !strcmp(line, "TILELAB_RECORD_LAUNCHES") ||
            !strcmp(line, "TILELAB_GPU_SMS"))
            setenv(line, value, 1);
        else if (!strcmp(line, "TILELAB_GPU_LAUNCH")) /* one a call: gpu_technique.h */
            tl_append_env("TILELAB_GPU_LAUNCHES", value);
    }
}

/*
 * A limit on the whole run, beside each test's own: the sum of the tests'
 * limits and a minute. Criterion has been seen to lose a test's time-out
 * while tests run in parallel (a lab process spinning in an endless loop,
 * `make lab3 test` never ending); this ends the run then, says why, and
 * takes the processes it started (workers, lab processes) with it. It runs
 * in the suite's own process, where no student code runs.
 */
static int tl_run_limit;

/*
 * TILELAB_TIME_SCALE (a number above 1): every limit of this run that many
 * times longer. The grader runs a test that ran past its limit again, alone,
 * with limits scaled by the reference's CPU time on the machine now, so that a
 * machine's load never decides a verdict (harness/grade/grade_retry.c).
 */
static double tl_time_scale(void)
{
    const char *text = getenv("TILELAB_TIME_SCALE");
    double scale = text ? atof(text) : 1;
    return scale > 1 && scale < 1000 ? scale : 1;
}

static void tl_kill_descendants(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    int child;
    while (f && fscanf(f, "%d", &child) == 1) {
        kill(child, SIGSTOP); /* no new children while its own are taken */
        tl_kill_descendants(child);
        kill(child, SIGKILL);
    }
    if (f)
        fclose(f);
}

/*
 * A call that never returns is named long before that: each call of a
 * test's may take a quarter of the test's own limit, at most TL_CALL_SECONDS,
 * of CPU time in the lab process; one that takes more is run again in a
 * fresh process, and stopped again, it fails its test and is put on record
 * (lab_client.h, tl_lab_watch) in a file of the suite's run, which this
 * process makes: every test after it is skipped, saying why. The
 * references' longest call, a 4097 x 4097 transpose on the emulator
 * (TL_PAST_FLOAT_INDEX), takes 3 to 6 s of CPU here, more on a busy machine
 * (a shared cache): TL_CALL_SECONDS is three times that, where it was 5 s,
 * which a loaded machine once took from a reference. A run given
 * TILELAB_HANG_FILE empty keeps no such record: each test is stopped on its
 * own, as the grader wants, which runs a lab's tests in one run and gives
 * each its own verdict (harness/grade/grade_tests.c).
 */
#define TL_CALL_SECONDS 15.0
static inline double tl_call_seconds(int test_seconds)
{
    return test_seconds / 4.0 < TL_CALL_SECONDS ? test_seconds / 4.0 : TL_CALL_SECONDS;
}
static char tl_hang_path[256];
static pid_t tl_hang_owner;

static void tl_remove_hang_file(void)
{
    if (tl_hang_owner && getpid() == tl_hang_owner)
        unlink(tl_hang_path);
}

__attribute__((constructor)) static void tl_make_hang_file(void)
{
    const char *tmp = getenv("TMPDIR");
    if (getenv("TILELAB_MANIFEST") || getenv("TILELAB_HANG_FILE"))
        return; /* a test's process: the suite's run made it */
    snprintf(tl_hang_path, sizeof tl_hang_path, "%s/tilelab-hang-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(tl_hang_path);
    if (fd < 0)
        return; /* no record: each test is then stopped on its own */
    close(fd);
    tl_hang_owner = getpid();
    setenv("TILELAB_HANG_FILE", tl_hang_path, 1);
    atexit(tl_remove_hang_file);
}

static void *tl_watch_run(void *unused)
{
    (void)unused;
    /* By the clock, to the second: a signal the process handles (a child's end) cuts a sleep short. */
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += tl_run_limit;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
        ;
    fprintf(stderr, "\ntilelab: the tests ran past %d seconds in all (the sum of their own limits): "
                    "one of them never ended and its own limit did not stop it. An endless loop in "
                    "your code is the usual cause. Stopped here.\n", tl_run_limit);
    tl_kill_descendants(getpid());
    tl_remove_hang_file();
    tl_suite_server_stop();
    _exit(124);
}

__attribute__((constructor)) static void tl_start_run_limit(void)
{
    pthread_t watcher;
    if (getenv("TILELAB_MANIFEST"))
        return;
    double tests = 0;
    for (const tl_manifest_entry *e = __start_tl_manifest; e && e < __stop_tl_manifest; e++)
        tests += e->seconds;
    tl_run_limit = 60 + (int)(tests * tl_time_scale());
    if (getenv("TILELAB_RUN_LIMIT")) /* the kit's own test of this limit */
        tl_run_limit = atoi(getenv("TILELAB_RUN_LIMIT"));
    if (pthread_create(&watcher, NULL, tl_watch_run, NULL) == 0)
        pthread_detach(watcher);
}

/*
 * Before any test starts: each test's own limit scaled (Criterion reads it
 * when it runs the test), and, for a run one test at a time, the suite's
 * server, which runs every test's calls (lab_process.h): a GPU suite's
 * always, where each test's process would otherwise open a CUDA context of
 * its own to replay them (TILELAB_SUITE_SERVER=0 goes without); another suite's
 * where TILELAB_SUITE_SERVER=1 asks for it. POST_ALL stops it.
 */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    double scale = tl_time_scale();
    if (scale > 1)
        FOREACH_SET(struct criterion_suite_set *suite, set->suites)
            FOREACH_SET(struct criterion_test *test, suite->tests)
                test->data->timeout *= scale;
#if defined(TL_LAB_GPU) && !defined(TL_EMU)
    tl_suite_server_start(1, criterion_options.jobs);
#else
    tl_suite_server_start(0, criterion_options.jobs);
#endif
}

static void tl_name_signal(int sig)
{
    static const char head[] = "\ntilelab: the test was killed by ";
    const char *what = tl_signal_meaning(sig);
    (void)!write(2, head, sizeof head - 1);
    (void)!write(2, what, strlen(what));
    (void)!write(2, "\n", 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* This test as the manifest names it ("lab04/one_by_one"), and its limit in seconds. */
static char tl_test_id[256];
static int tl_test_seconds;

#if defined(TL_LAB_GPU) && !defined(TL_EMU)
/*
 * Built for a GPU, a check runs the lab's kernels in this process
 * (lab_plans.c), one test at a time: a kernel that never ends is stopped
 * here, after twice what the lab process's CPU time allows a call, by the
 * clock, put on record, and named. The clock is the one thing here a busy
 * machine moves (other processes on the GPU and the CPU): the grader runs
 * such a test again alone, with the limit scaled (TILELAB_TIME_SCALE).
 */
static char tl_call_now[256];
static volatile double tl_call_since; /* CLOCK_MONOTONIC seconds; 0: no call running */

static double tl_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void *tl_watch_calls(void *unused)
{
    (void)unused;
    double limit = 2 * tl_call_seconds(tl_test_seconds) * tl_time_scale();
    for (;;) {
        sleep(1);
        double since = tl_call_since;
        if (since > 0 && tl_clock() - since > limit) {
            char what[sizeof tl_test_id + sizeof tl_call_now + 64];
            snprintf(what, sizeof what, "%s: %s did not return within %g s (an endless loop?)",
                     tl_test_id, tl_call_now, limit);
            const char *record = getenv("TILELAB_HANG_FILE");
            tl_lab_put_hang_on_record(what);
            tl_lab_record_timeout(tl_test_id);
            fprintf(stderr, "\ntilelab: %s did not return within %g s: an endless loop? (a loop "
                            "whose condition never changes, an index that never moves, or a thread "
                            "that waits for what another thread never does.)%s\n", tl_call_now, limit,
                    record && *record ? " The tests after this one are not run: each would wait as long." : "");
            _exit(1);
        }
    }
    return NULL;
}
#define TL_CALL_BEGIN(...) (snprintf(tl_call_now, sizeof tl_call_now, __VA_ARGS__), tl_call_since = tl_clock())
#define TL_CALL_END() (tl_call_since = 0)
#else
#define TL_CALL_BEGIN(...) ((void)0)
#define TL_CALL_END() ((void)0)
#endif

static inline void tl_test_begin(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        signal(signals[i], tl_name_signal);
    snprintf(tl_test_id, sizeof tl_test_id, "%s/%s", criterion_current_test->category,
             criterion_current_test->name);
    for (const tl_manifest_entry *e = __start_tl_manifest; e && e < __stop_tl_manifest; e++)
        if (!strcmp(e->suite, criterion_current_test->category) &&
            !strcmp(e->name, criterion_current_test->name))
            tl_test_seconds = e->seconds;
    tl_lab_watch(tl_call_seconds(tl_test_seconds), tl_test_id);
#if defined(TL_LAB_GPU) && !defined(TL_EMU)
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, tl_watch_calls, NULL) == 0)
        pthread_detach(watcher);
#endif
}

/*
 * Not run, once another test's call is on record as one that never
 * returned; and a line "skipped TEST" beside the record, by which the
 * run's last words count them.
 */
static inline void tl_skip_after_hang(void)
{
    char what[1024];
    size_t own = strlen(tl_test_id);
    if (!tl_lab_hang_on_record(what, sizeof what) ||
        (strncmp(what, tl_test_id, own) == 0 && what[own] == ':'))
        return;
    FILE *f = fopen(getenv("TILELAB_HANG_FILE"), "a");
    if (f) {
        fprintf(f, "skipped %s\n", tl_test_id);
        fclose(f);
    }
    cr_skip_test("not run: a call of an earlier test never returned, and each test after it "
                 "would wait as long. %s", what);
}

/* The tests tl_skip_after_hang skipped in this run. */
static inline int tl_skipped_after_hang(void)
{
    char line[1024];
    int n = 0;
    const char *path = getenv("TILELAB_HANG_FILE");
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    while (f && fgets(line, sizeof line, f))
        n += strncmp(line, "skipped ", 8) == 0;
    if (f)
        fclose(f);
    return n;
}

static inline void tl_test_end(void)
{
    const char *path = getenv("TILELAB_DONE_FILE");
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    if (fd >= 0) {
        char line[256];
        int n = snprintf(line, sizeof line, "done %s/%s\n", criterion_current_test->category,
                         criterion_current_test->name);
        (void)!write(fd, line, (size_t)n);
        close(fd);
    }
}

static inline uint64_t tl_test_seed(void)
{
    uint64_t seed;
    char why[256];
    if (tl_seed(&seed, why, sizeof why) != 0)
        cr_assert_fail("%s", why);
    return seed;
}

/* The lab's backend, run in the lab process (lab_process.h); a GPU lab is
 * skipped on a machine without a GPU, and a lab process that failed fails. */
static inline const tl_backend *tl_test_backend(void)
{
    const tl_backend *backend;
    char why[2048];
    tl_skip_after_hang();
    int can = tl_lab_backend(&backend, why, sizeof why);
    cr_assert(can >= 0, "%s", why);
    if (!can)
        cr_skip_test("needs a CUDA GPU, and this machine has none (%s)", why);
    return backend;
}

#include <criterion/hooks.h>

/* Criterion lists skipped tests only when verbose: say once why they were skipped. Then the
 * suite's server is stopped. */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    char why[2048];
    int after_hang = tl_skipped_after_hang(), hang = tl_lab_hang_on_record(why, sizeof why);
    (void)stats; /* read only by a GPU lab's message below */
    if (after_hang && hang)
        fprintf(stderr, "tilelab: a call never returned, and the %d test(s) after it were not run: "
                        "each would have waited as long.\ntilelab: %s\n", after_hang, why);
#ifdef TL_LAB_GPU
    /* Not after a hang: a call ran, so the GPU is there (and the server may still wait on it). */
    const tl_backend *backend;
    if (!after_hang && !hang && stats->tests_skipped && tl_lab_backend(&backend, why, sizeof why) == 0)
        fprintf(stderr,
                "[SKIP] %zu test(s) skipped: they run your kernel, which needs a CUDA GPU, and "
                "this machine has none (%s).\n[SKIP] Run them on a machine with an NVIDIA GPU, "
                "or here on the CPU emulator: leave GPU=cuda out, or say GPU=emu.\n",
                stats->tests_skipped, why);
#endif
    tl_suite_server_stop();
}

/* A lab's entry point as a check names it, by its name in lab.h (op.h: its handle; the
 * lab's code runs in the lab process). */
#define TL_ENTRY(name) tl_entry_named(#name)

/*
 * One call of a lab's entry point on shape s, checked by its operation's
 * checker (op.h) into v: the entry point names its operation.
 */
static inline void tl_check_entry(tl_verdict *v, void (*entry)(void), tl_shape s)
{
    const char *name = tl_lab_entry_of(entry);
    const tl_op *op = tl_op_of_entry(name);
    cr_assert(op, "tilelab: %s() is no operation's entry point (harness/core/ops/)", name);
    op->check(v, name, entry, tl_test_backend(), s, tl_test_seed());
}

/* The call checked, and the test failed with the checker's message where it was wrong. */
static inline void tl_expect(void (*entry)(void), tl_shape s)
{
    static tl_verdict v;
    const char *name = tl_lab_entry_of(entry);
    const tl_op *op = tl_op_of_entry(name);
    char said[256] = "";
    if (op)
        op->call->describe(said, sizeof said, name, s);
    TL_CALL_BEGIN("%s", said);
    tl_check_entry(&v, entry, s);
    TL_CALL_END();
    if (!v.ok)
        tl_skip_after_hang();
    cr_assert(v.ok, "%s", v.message);
}

static inline void tl_expect_transpose(int rows, int cols)
{
    tl_expect(TL_ENTRY(transpose), (tl_shape){rows, cols, 1});
}

static inline void tl_expect_matmul(tl_entry_fn fn, int m, int n, int k)
{
    tl_expect(fn, (tl_shape){m, n, k});
}

static inline void tl_expect_inplace(int n)
{
    tl_expect(TL_ENTRY(transpose_inplace), (tl_shape){n, n, 1});
}

/*
 * Shapes an instructor held back, which the grader passes in TILELAB_HIDDEN
 * ("97x1031,4095x33", or MxNxK for a product); a skip anywhere else.
 */
static inline int tl_hidden_shapes(tl_shape *shapes, int max)
{
    char why[256];
    const char *list = getenv("TILELAB_HIDDEN");
    if (!list || !*list)
        cr_skip_test("no held-back shapes here: the grader sets TILELAB_HIDDEN");
    int n = tl_parse_shapes(list, shapes, max, why, sizeof why);
    cr_assert(n > 0, "TILELAB_HIDDEN: %s", why);
    return n;
}

/* The longest sides of a GPU's large shapes, thin (TL_THIN above), each beside short ones. */
static inline void tl_expect_thin_transpose(int rows, int cols)
{
    tl_expect_transpose(rows, TL_THIN);
    tl_expect_transpose(TL_THIN, cols);
    tl_expect_transpose(TL_PAST_GRID_Y, TL_THIN);
    tl_expect_transpose(TL_THIN, TL_PAST_GRID_Y);
}

static inline void tl_expect_thin_matmul(tl_entry_fn fn, int m, int n, int k)
{
    tl_expect_matmul(fn, m, TL_THIN + 2, TL_THIN);
    tl_expect_matmul(fn, TL_THIN + 2, n, TL_THIN);
    tl_expect_matmul(fn, TL_THIN + 2, TL_THIN, k);
}

/* Shapes nobody saw before the run: TILELAB_SEED picks them. */
static inline void tl_expect_random_shapes(int count, int max_dim)
{
    uint64_t state = tl_test_seed();
    for (int i = 0; i < count; i++) {
        tl_shape s = tl_random_shape(&state, max_dim);
        tl_expect_transpose(s.rows, s.cols);
    }
}

#endif
