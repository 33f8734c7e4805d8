/* The performance ratio of a hand-in, from its raw measurement: see grade_measure.h. */
#include "grade_measure.h"

#include "grade_callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64
#define N_EVENTS TL_CG_EVENTS
#define FIRST_MISS TL_CG_FIRST_MISS
static const char *const *const events = tl_cg_events;

/* One run's output read, and what it measured: 0, or -1 with why. */
static int read_run(const char *path, tl_cg_run *run, char *why, size_t why_len)
{
    if (tl_cg_read(path, run, why, why_len))
        return -1;
    if (run->elements <= 0 || run->line_bytes <= 0) {
        snprintf(why, why_len, "it does not say which matrix it measured, or which cache it simulated");
        return -1;
    }
    return 0;
}

static double misses_of(const double totals[N_EVENTS])
{
    double sum = 0;
    for (int e = FIRST_MISS; e < N_EVENTS; e++)
        sum += totals[e];
    return sum;
}

/*
 * A transpose reads every line of its input and writes every line of its
 * output, matrices far larger than the first-level cache: each line misses
 * there at least once, but for the few the cache may still hold from before
 * the call. Fewer first-level read or write misses than that, over the
 * baseline's, means the simulation was paused or reset during the call:
 * 0, or the first such event's index + 1.
 */
static int below_the_floor(const double student[N_EVENTS], const double baseline[N_EVENTS],
                           const tl_cg_run *facts, double *floor)
{
    *floor = facts->elements * sizeof(float) / facts->line_bytes - facts->d1_bytes / facts->line_bytes;
    for (int e = FIRST_MISS; e < FIRST_MISS + 2; e++) /* D1mr, D1mw */
        if (student[e] - baseline[e] < *floor)
            return e + 1;
    return 0;
}

/*
 * The student's run executes all the baseline run does (the same program,
 * which skips the call) and the call besides, so it cannot count fewer
 * instructions, reads or writes. Fewer were reset or paused from inside the
 * run: 0, or the first such event's index + 1. (Misses are not compared
 * here: those of the code around the call move by a few with where the
 * system places memory, run to run; below_the_floor judges the call's.)
 */
static int went_down(const double student[N_EVENTS], const double baseline[N_EVENTS])
{
    for (int e = 0; e < FIRST_MISS; e++)
        if (student[e] < baseline[e])
            return e + 1;
    return 0;
}

/* The columns of a CSV header line, in place. */
static int split_csv(char *line, char **cols, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        cols[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = '\0';
    }
    return n;
}

static int column(char *const *head, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(head[i], name))
            return i;
    return -1;
}

/* A CSV read by its header's names: the header is the line that starts with
 * `first` ("variant," or "lab,"); '#' lines are comments. */
typedef struct {
    FILE *f;
    const char *first;
    char line[4096], header[4096];
    char *head[MAX_COLS], *cols[MAX_COLS];
    int n_head;
} csv_reader;

static int csv_open(csv_reader *c, const char *path, const char *first)
{
    c->f = fopen(path, "r");
    c->first = first;
    c->n_head = 0;
    return c->f ? 0 : -1;
}

/* The next row with as many fields as the header: 1, or 0 at the end. */
static int csv_next(csv_reader *c)
{
    while (fgets(c->line, sizeof c->line, c->f)) {
        if (c->line[0] == '#')
            continue;
        if (!strncmp(c->line, c->first, strlen(c->first))) {
            memcpy(c->header, c->line, sizeof c->line);
            c->n_head = split_csv(c->header, c->head, MAX_COLS);
            continue;
        }
        if (split_csv(c->line, c->cols, MAX_COLS) == c->n_head)
            return 1;
    }
    return 0;
}

/* Field `name` of the current row, or NULL when the header has no such column. */
static const char *csv_field(const csv_reader *c, const char *name)
{
    int i = column(c->head, c->n_head, name);
    return i < 0 ? NULL : c->cols[i];
}

/* Global sectors cost a trip to memory; a shared-memory wavefront far less. A pass of the
 * constant cache (one address a warp) costs as a sector does: a warp that reads 32 addresses
 * through it waits for 32 passes, as a strided read waits for 32 sectors. */
static int emu_costs(const char *path, double *student, double *reference, double *least)
{
    static csv_reader c;
    if (csv_open(&c, path, "variant,"))
        return -1;
    *student = *reference = *least = 0;
    while (csv_next(&c)) {
        const char *v = csv_field(&c, "variant"), *gl = csv_field(&c, "global_load_sectors"),
                   *gs = csv_field(&c, "global_store_sectors"),
                   *sl = csv_field(&c, "shared_load_wavefronts"),
                   *ss = csv_field(&c, "shared_store_wavefronts"),
                   *cp = csv_field(&c, "constant_load_passes"), *ls = csv_field(&c, "least_sectors");
        if (!v || !gl || !gs || !sl || !ss || !cp || !ls)
            continue;
        double cost = strtod(gl, NULL) + strtod(gs, NULL) + strtod(cp, NULL) +
                      (strtod(sl, NULL) + strtod(ss, NULL)) / 8;
        if (!strcmp(v, "student")) {
            *student += cost;
            if (strtod(ls, NULL) > *least)
                *least = strtod(ls, NULL);
        }
        else if (!strcmp(v, "reference"))
            *reference += cost;
    }
    fclose(c.f);
    return c.n_head ? 0 : -1;
}

/* The student's headline (the first row of role student) against the reference's, by the
 * bench's own ratio_to_reference. */
static int bench_ratio(const char *path, double *ratio, char *said, size_t said_len)
{
    static csv_reader c;
    char reference[32] = "?", yours[32] = "?", size[64] = "", unit[16] = "GB/s";
    int found = 0, found_reference = 0;
    if (csv_open(&c, path, "lab,"))
        return -1;
    while (csv_next(&c)) {
        const char *role = csv_field(&c, "role"), *r = csv_field(&c, "ratio_to_reference"),
                   *rows = csv_field(&c, "rows"), *cols = csv_field(&c, "cols"),
                   *u = csv_field(&c, "unit"), *rate = csv_field(&c, "rate");
        if (!role || !rate)
            continue;
        if (!found_reference && !strcmp(role, "reference")) {
            snprintf(reference, sizeof reference, "%.0f", strtod(rate, NULL));
            found_reference = 1;
        }
        if (!found && r && rows && cols && !strcmp(role, "student")) {
            *ratio = strtod(r, NULL);
            snprintf(yours, sizeof yours, "%.0f", strtod(rate, NULL));
            snprintf(size, sizeof size, "%sx%s", rows, cols);
            snprintf(unit, sizeof unit, "%s", u ? u : "GB/s");
            found = 1;
        }
    }
    fclose(c.f);
    snprintf(said, said_len, "%s at %s on the GPU, median of repetitions in one run: reference %s, "
             "yours %s; ratio yours / reference", unit, size, reference, yours);
    return found ? 0 : -1;
}

int tl_measured_ratio(const char *method, const char *student, const char *reference,
                      const char *baseline, double *ratio, char *how, size_t how_len)
{
    if (!strcmp(method, "callgrind")) {
        static tl_cg_run runs[3];
        const char *paths[3] = {student, reference, baseline};
        const char *whose[3] = {"your", "the reference's", "the baseline's"};
        char why[256];
        for (int i = 0; i < 3; i++)
            if (read_run(paths[i], &runs[i], why, sizeof why)) {
                snprintf(how, how_len, "the cache simulation's output of %s run is not one "
                         "the grader can read: %s", whose[i], why);
                return -1;
            }
        const double *st = runs[0].total, *rt = runs[1].total, *bt = runs[2].total;
        double floor;
        int down = went_down(st, bt), under = below_the_floor(st, bt, &runs[0], &floor);
        if (down) {
            snprintf(how, how_len,
                     "your run counted fewer %s (%.0f) than the same program without your call "
                     "(%.0f): something reset or paused the cache simulation while it ran",
                     events[down - 1], st[down - 1], bt[down - 1]);
            return -1;
        }
        if (under) {
            snprintf(how, how_len,
                     "your call counted %.0f %s, fewer than the %.0f lines of the matrix it must "
                     "touch: something paused the cache simulation while it ran",
                     st[under - 1] - bt[under - 1], events[under - 1], floor);
            return -1;
        }
        double s = misses_of(st) - misses_of(bt), r = misses_of(rt) - misses_of(bt);
        if (s <= 0 || r <= 0) {
            snprintf(how, how_len, "the cache simulation counted no misses for %s",
                     s <= 0 ? "your transpose" : "the reference");
            return -1;
        }
        *ratio = r / s;
        snprintf(how, how_len,
                 "simulated cache misses (valgrind %s) of one call: reference %.0f, yours %.0f; "
                 "ratio reference / yours",
                 getenv("CACHE_SIM") ? getenv("CACHE_SIM") : "", r, s);
        return 0;
    }
    if (!strcmp(method, "emu")) {
        double s, r, least;
        if (emu_costs(student, &s, &r, &least)) {
            snprintf(how, how_len, "the emulator's profile left no counts to read");
            return -1;
        }
        if (s <= 0 || r <= 0) {
            snprintf(how, how_len, "the emulator counted no memory requests for %s",
                     s <= 0 ? "your kernels (is the work done in a kernel?)" : "the reference");
            return -1;
        }
        /* As a GPU's bench refuses a rate above the hardware's: every honest call reads its
         * input and writes its output, so counts below that are work the emulator did not
         * see, and a ratio from them is no measurement. */
        if (s < least) {
            snprintf(how, how_len,
                     "REFUSED: the emulator counted %.0f memory transactions for your kernels "
                     "(global sectors + constant-cache passes + shared wavefronts / 8), fewer "
                     "than the %.0f sectors any call must move (its input read once and its "
                     "output written once): part of the work moved memory by a path the "
                     "emulator does not count, and the count is not a measurement "
                     "(reference %.0f)",
                     s, least, r);
            return 1;
        }
        *ratio = r / s;
        snprintf(how, how_len,
                 "memory transactions counted by the emulator (global sectors + constant-cache "
                 "passes + shared wavefronts / 8): reference %.0f, yours %.0f; ratio reference / yours",
                 r, s);
        return 0;
    }
    if (!strcmp(method, "gpu")) {
        char said[256];
        if (bench_ratio(student, ratio, said, sizeof said) || *ratio <= 0) {
            snprintf(how, how_len, "the bench wrote no timed line for your code");
            return -1;
        }
        snprintf(how, how_len, "%s", said);
        return 0;
    }
    snprintf(how, how_len, "unknown method '%s'", method);
    return -1;
}
