/* The performance ratio of a hand-in, from its raw measurement: see grade_measure.h. */
#include "grade_measure.h"
#include "csv.h"

#include "grade_callgrind.h"
#include "memory_cost.h"

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

/* The profile's rows of the student's and the reference's launches, each weighed as
 * memory_cost.h weighs them. */
static int emu_costs(const char *path, double *student, double *reference, double *least)
{
    tl_csv *c = tl_csv_open(path);
    if (!c)
        return -1;
    *student = *reference = *least = 0;
    int v = tl_csv_column(c, "variant"), gl = tl_csv_column(c, "global_load_sectors"),
        gs = tl_csv_column(c, "global_store_sectors"), sl = tl_csv_column(c, "shared_load_wavefronts"),
        ss = tl_csv_column(c, "shared_store_wavefronts"), cp = tl_csv_column(c, "constant_load_passes"),
        ls = tl_csv_column(c, "least_sectors");
    int found = v >= 0 && gl >= 0 && gs >= 0 && sl >= 0 && ss >= 0 && cp >= 0 && ls >= 0;
    while (found && tl_csv_next(c)) {
        double cost = tl_memory_cost(strtod(tl_csv_field(c, gl), NULL), strtod(tl_csv_field(c, gs), NULL),
                                     strtod(tl_csv_field(c, cp), NULL),
                                     strtod(tl_csv_field(c, sl), NULL) + strtod(tl_csv_field(c, ss), NULL));
        if (!strcmp(tl_csv_field(c, v), "student")) {
            *student += cost;
            if (strtod(tl_csv_field(c, ls), NULL) > *least)
                *least = strtod(tl_csv_field(c, ls), NULL);
        }
        else if (!strcmp(tl_csv_field(c, v), "reference"))
            *reference += cost;
    }
    tl_csv_close(c);
    return found ? 0 : -1;
}

/*
 * The bench's record (bench.h): the student's headline (the first timed row of
 * role student) against the reference's, by the bench's own ratio_to_reference;
 * or, where a row of the student's was not timed, why (the first two): 2, or 1
 * where the bench refused a rate above what the GPU gives. -1: nothing to read.
 */
static int bench_record(const char *path, double *ratio, char *said, size_t said_len)
{
    char reference[32] = "?", yours[32] = "?", size[64] = "", unit[16] = "GB/s";
    int found = 0, found_reference = 0, untimed = 0, refused = 0;
    tl_csv *c = tl_csv_open(path);
    if (!c)
        return -1;
    int role = tl_csv_column(c, "role"), variant = tl_csv_column(c, "variant"),
        outcome = tl_csv_column(c, "outcome"), note = tl_csv_column(c, "note"),
        r = tl_csv_column(c, "ratio_to_reference"), rows = tl_csv_column(c, "rows"),
        cols = tl_csv_column(c, "cols"), u = tl_csv_column(c, "unit"), rate = tl_csv_column(c, "rate");
    if (role < 0 || variant < 0 || outcome < 0 || note < 0 || r < 0 || rows < 0 || cols < 0 ||
        u < 0 || rate < 0) {
        tl_csv_close(c);
        return -1;
    }
    snprintf(said, said_len, "your code was not timed: ");
    while (tl_csv_next(c)) {
        int timed = !strcmp(tl_csv_field(c, outcome), "timed"), student = !strcmp(tl_csv_field(c, role), "student");
        if (student && !timed) {
            refused |= !strcmp(tl_csv_field(c, outcome), "refused");
            size_t at = strlen(said);
            if (untimed++ < 2)
                snprintf(said + at, said_len - at, "%s%s: %s", untimed > 1 ? "; " : "",
                         tl_csv_field(c, variant), tl_csv_field(c, note));
        }
        if (!timed)
            continue;
        if (!found_reference && !strcmp(tl_csv_field(c, role), "reference")) {
            snprintf(reference, sizeof reference, "%.0f", strtod(tl_csv_field(c, rate), NULL));
            found_reference = 1;
        }
        if (!found && student) {
            *ratio = strtod(tl_csv_field(c, r), NULL);
            snprintf(yours, sizeof yours, "%.0f", strtod(tl_csv_field(c, rate), NULL));
            snprintf(size, sizeof size, "%sx%s", tl_csv_field(c, rows), tl_csv_field(c, cols));
            snprintf(unit, sizeof unit, "%s", tl_csv_field(c, u));
            found = 1;
        }
    }
    tl_csv_close(c);
    if (untimed)
        return refused ? 1 : 2;
    snprintf(said, said_len, "%s at %s on the GPU, median of repetitions in one run: reference %s, "
             "yours %s; ratio yours / reference", unit, size, reference, yours);
    return found ? 0 : -1;
}

const char *tl_refusal(const char *method)
{
    return !strcmp(method, "gpu") ? "a rate above what the GPU can give was refused"
                                  : "a count below what the work must move was refused";
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
        char said[1024];
        int got = bench_record(student, ratio, said, sizeof said);
        if (got > 0) {
            snprintf(how, how_len, "%s", said);
            return got;
        }
        if (got < 0 || *ratio <= 0) {
            snprintf(how, how_len, "the bench wrote no timed line for your code");
            return -1;
        }
        snprintf(how, how_len, "%s", said);
        return 0;
    }
    snprintf(how, how_len, "unknown method '%s'", method);
    return -1;
}
