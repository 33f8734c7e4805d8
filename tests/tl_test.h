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
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lab.h"
#include "lab_client.h"

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
 * Every test of the kit: a time limit, the name of any signal that kills
 * it, and a record that it ran to its end. The grader trusts a pass only
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
    Test(suite, name, .timeout = (seconds), .init = tl_test_begin, .fini = tl_test_end)
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
 * with limits scaled by the reference's time on the machine now, so that a
 * machine's load never decides a verdict (harness/grade/grade.sh).
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

static void *tl_watch_run(void *unused)
{
    (void)unused;
    sleep((unsigned)tl_run_limit);
    fprintf(stderr, "\ntilelab: the tests ran past %d seconds in all (the sum of their own limits): "
                    "one of them never ended and its own limit did not stop it. An endless loop in "
                    "your code is the usual cause. Stopped here.\n", tl_run_limit);
    tl_kill_descendants(getpid());
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

/* Each test's own limit, scaled before any test starts (Criterion reads it when it runs the test). */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    double scale = tl_time_scale();
    if (scale > 1)
        FOREACH_SET(struct criterion_suite_set *suite, set->suites)
            FOREACH_SET(struct criterion_test *test, suite->tests)
                test->data->timeout *= scale;
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

static inline void tl_test_begin(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        signal(signals[i], tl_name_signal);
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
    int can = tl_lab_backend(&backend, why, sizeof why);
    cr_assert(can >= 0, "%s", why);
    if (!can)
        cr_skip_test("needs a CUDA GPU, and this machine has none (%s)", why);
    return backend;
}

#ifdef TL_LAB_GPU
#include <criterion/hooks.h>
#include <stdio.h>

/* Criterion lists skipped tests only when verbose: say once why they were skipped. */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    const tl_backend *backend;
    char why[2048];
    if (stats->tests_skipped && tl_lab_backend(&backend, why, sizeof why) == 0)
        fprintf(stderr,
                "[SKIP] %zu test(s) skipped: they run your kernel, which needs a CUDA GPU, and "
                "this machine has none (%s).\n[SKIP] Run them on a machine with an NVIDIA GPU, "
                "or here on the CPU emulator: leave GPU=cuda out, or say GPU=emu.\n",
                stats->tests_skipped, why);
}
#endif

static inline void tl_expect_transpose(int rows, int cols)
{
    static tl_verdict v;
    tl_shape s = {rows, cols, 1};
    tl_check_transpose(&v, transpose, tl_test_backend(), s, tl_test_seed());
    cr_assert(v.ok, "%s", v.message);
}

static inline void tl_expect_matmul(tl_matmul_fn fn, int m, int n, int k)
{
    static tl_verdict v;
    tl_shape s = {m, n, k};
    tl_check_matmul(&v, fn, fn != matmul_naive, tl_test_backend(), s, tl_test_seed());
    cr_assert(v.ok, "%s", v.message);
}

static inline void tl_expect_inplace(int n)
{
    static tl_verdict v;
    tl_check_inplace(&v, transpose_inplace, tl_test_backend(), n, tl_test_seed());
    cr_assert(v.ok, "%s", v.message);
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
