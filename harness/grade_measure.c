/* The performance ratio of a hand-in, from its raw measurement: see grade_measure.h. */
#include "grade_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64

/* The data misses (D1mr + D1mw + DLmr + DLmw) of a callgrind output: 0, or -1. */
static int callgrind_misses(const char *path, double *misses)
{
    static char line[1 << 16];
    char *cols[MAX_COLS];
    int n_cols = 0, found = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    *misses = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "events:", 7)) {
            n_cols = 0;
            for (char *save = NULL, *t = strtok_r(line + 7, " \n", &save); t && n_cols < MAX_COLS;
                 t = strtok_r(NULL, " \n", &save))
                cols[n_cols++] = strdup(t);
        } else if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7)) {
            char *save = NULL, *t = strtok_r(strchr(line, ':') + 1, " \n", &save);
            double sum = 0;
            int seen = 0;
            for (int i = 0; t && i < n_cols; i++, t = strtok_r(NULL, " \n", &save))
                if (!strcmp(cols[i], "D1mr") || !strcmp(cols[i], "D1mw") ||
                    !strcmp(cols[i], "DLmr") || !strcmp(cols[i], "DLmw")) {
                    sum += strtod(t, NULL);
                    seen++;
                }
            if (seen == 4) {
                *misses = sum;
                found = 1;
            }
        }
    }
    fclose(f);
    for (int i = 0; i < n_cols; i++)
        free(cols[i]);
    return found ? 0 : -1;
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

static int column(char **head, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(head[i], name))
            return i;
    return -1;
}

/* Global sectors cost a trip to memory; a shared-memory wavefront far less. */
static int emu_costs(const char *path, double *student, double *reference)
{
    static char line[4096], header[4096];
    char *head[MAX_COLS], *cols[MAX_COLS];
    int n_head = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    *student = *reference = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (!strncmp(line, "variant,", 8)) {
            memcpy(header, line, sizeof line);
            n_head = split_csv(header, head, MAX_COLS);
            continue;
        }
        int n = split_csv(line, cols, MAX_COLS);
        int v = column(head, n_head, "variant"), gl = column(head, n_head, "global_load_sectors"),
            gs = column(head, n_head, "global_store_sectors"),
            sl = column(head, n_head, "shared_load_wavefronts"),
            ss = column(head, n_head, "shared_store_wavefronts");
        if (v < 0 || gl < 0 || gs < 0 || sl < 0 || ss < 0 || n != n_head)
            continue;
        double cost = strtod(cols[gl], NULL) + strtod(cols[gs], NULL) +
                      (strtod(cols[sl], NULL) + strtod(cols[ss], NULL)) / 8;
        if (!strcmp(cols[v], "student"))
            *student += cost;
        else if (!strcmp(cols[v], "reference"))
            *reference += cost;
    }
    fclose(f);
    return n_head ? 0 : -1;
}

static int bench_ratio(const char *path, double *ratio, char *size, size_t size_len, char *unit,
                       size_t unit_len)
{
    static char line[4096], header[4096];
    char *head[MAX_COLS], *cols[MAX_COLS];
    int n_head = 0, found = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (!strncmp(line, "lab,", 4)) {
            memcpy(header, line, sizeof line);
            n_head = split_csv(header, head, MAX_COLS);
            continue;
        }
        int n = split_csv(line, cols, MAX_COLS);
        int v = column(head, n_head, "variant"), r = column(head, n_head, "ratio_to_reference"),
            rows = column(head, n_head, "rows"), c = column(head, n_head, "cols"),
            u = column(head, n_head, "unit");
        if (v >= 0 && r >= 0 && rows >= 0 && c >= 0 && n == n_head && !strcmp(cols[v], "student")) {
            *ratio = strtod(cols[r], NULL);
            snprintf(size, size_len, "%sx%s", cols[rows], cols[c]);
            snprintf(unit, unit_len, "%s", u >= 0 ? cols[u] : "GB/s");
            found = 1;
        }
    }
    fclose(f);
    return found ? 0 : -1;
}

int tl_measured_ratio(const char *method, const char *student, const char *reference,
                      const char *baseline, double *ratio, char *how, size_t how_len)
{
    if (!strcmp(method, "callgrind")) {
        double s, r, b;
        if (callgrind_misses(student, &s) || callgrind_misses(reference, &r) ||
            callgrind_misses(baseline, &b)) {
            snprintf(how, how_len, "the cache simulation left no totals to read");
            return -1;
        }
        s -= b;
        r -= b;
        if (s <= 0 || r <= 0) {
            snprintf(how, how_len, "the cache simulation counted no misses for %s",
                     s <= 0 ? "your transpose" : "the reference");
            return -1;
        }
        *ratio = r / s;
        snprintf(how, how_len,
                 "simulated cache misses (32 KiB L1, 8 MiB last level) of one call: reference "
                 "%.0f, yours %.0f; ratio reference / yours",
                 r, s);
        return 0;
    }
    if (!strcmp(method, "emu")) {
        double s, r;
        if (emu_costs(student, &s, &r)) {
            snprintf(how, how_len, "the emulator's profile left no counts to read");
            return -1;
        }
        if (s <= 0 || r <= 0) {
            snprintf(how, how_len, "the emulator counted no memory requests for %s",
                     s <= 0 ? "your kernels (is the work done in a kernel?)" : "the reference");
            return -1;
        }
        *ratio = r / s;
        snprintf(how, how_len,
                 "memory transactions counted by the emulator (global sectors + shared "
                 "wavefronts / 8): reference %.0f, yours %.0f; ratio reference / yours",
                 r, s);
        return 0;
    }
    if (!strcmp(method, "gpu")) {
        char size[64], unit[32];
        if (bench_ratio(student, ratio, size, sizeof size, unit, sizeof unit) || *ratio <= 0) {
            snprintf(how, how_len, "the bench wrote no timed line for your code");
            return -1;
        }
        snprintf(how, how_len,
                 "%s at %s on the GPU, median of repetitions in one run; ratio yours / "
                 "reference",
                 unit, size);
        return 0;
    }
    snprintf(how, how_len, "unknown method '%s'", method);
    return -1;
}
