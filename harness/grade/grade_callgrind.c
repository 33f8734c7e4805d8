/*
 * A callgrind output, read strictly (grade_callgrind.h).
 *
 * Callgrind writes a header of "key: value" lines (its version, the
 * command, the simulated caches, one "events:" line naming the columns and
 * one "summary:" line of the run's costs), then a body of costs by object,
 * file and function ("ob=", "fl=", "fn=" lines, then numbers), and ends on
 * one "totals:" line. The body names what the program's symbols and debug
 * information name, raw: a lab file once named its source, with a #line
 * directive, "transpose.c\nevents: Ir Dr Dw DLmr D1mw ...", which put a
 * second events: line into the body, and a reader that took the last one
 * read the totals against columns the lab had chosen (a naive loop measured
 * 1.57 times the reference). The grader builds what it measures without
 * those names (the Makefile's grade-perf link), and reads only this: one
 * events: and one summary: line, in the header; one totals: line, the
 * last; each at most as many counts as events. Callgrind leaves out a
 * line's trailing zero counts (a 1024 x 1024 transpose that fits the last
 * level writes "summary:" without its DLmw), and its format reads a missing
 * count as zero; so does this. Anything else is no measurement.
 */
#define _GNU_SOURCE
#include "grade_callgrind.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tl_cg_events[TL_CG_EVENTS] = {"Ir", "Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw"};

#define MAX_COLS 64

/* A header line: a lowercase key, then ":" (a body line starts with a digit, "+", "-",
 * "*" or a key with "=") */
static int is_header_line(const char *line)
{
    const char *p = line;
    while (*p >= 'a' && *p <= 'z')
        p++;
    return p > line && *p == ':';
}

static int starts(const char *line, const char *key)
{
    return !strncmp(line, key, strlen(key));
}

/* The counts after a "key:", each a plain decimal number, into out[0..max), those left
 * out at its end zero: how many were written, or -1 if one is not a number or there are
 * more than max. */
static int counts_of(const char *line, double *out, int max)
{
    int n = 0;
    for (int i = 0; i < max; i++)
        out[i] = 0;
    const char *p = strchr(line, ':') + 1;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n')
            return n;
        if (!isdigit((unsigned char)*p) || n == max)
            return -1;
        char *end;
        double v = (double)strtoull(p, &end, 10);
        if (*end && *end != ' ' && *end != '\t' && *end != '\n')
            return -1;
        out[n++] = v;
        p = end;
    }
}

/* The column of each of tl_cg_events in an events: line: 0, or -1 where one is missing
 * or named twice. */
static int columns_of(char *line, int column[TL_CG_EVENTS], int *n_cols)
{
    char *save = NULL;
    *n_cols = 0;
    for (int e = 0; e < TL_CG_EVENTS; e++)
        column[e] = -1;
    for (char *t = strtok_r(strchr(line, ':') + 1, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        for (int e = 0; e < TL_CG_EVENTS; e++)
            if (!strcmp(t, tl_cg_events[e])) {
                if (column[e] >= 0)
                    return -1;
                column[e] = *n_cols;
            }
        if (++*n_cols > MAX_COLS)
            return -1;
    }
    for (int e = 0; e < TL_CG_EVENTS; e++)
        if (column[e] < 0)
            return -1;
    return 0;
}

static void read_fact(const char *line, tl_cg_run *run)
{
    int rows, cols, size, lsize;
    const char *arg;
    if (starts(line, "cmd:") && (arg = strstr(line, "grade-perf-")) && (arg = strchr(arg, ' '))) {
        if (sscanf(arg, " %dx%d", &rows, &cols) == 2)
            run->elements = (double)rows * cols;
        else if (sscanf(arg, " %d", &rows) == 1)
            run->elements = (double)rows * rows;
    } else if (sscanf(line, "desc: D1 cache: %d B, %d B", &size, &lsize) == 2) {
        run->d1_bytes = size;
        run->line_bytes = lsize;
    }
}

int tl_cg_read(const char *path, tl_cg_run *run, char *why, size_t why_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_len, "the cache simulation wrote no output");
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long number = 0, totals_at = 0;
    int header = 1, n_events = 0, n_summaries = 0, n_cols = 0, column[TL_CG_EVENTS], bad = 0;
    double summary[MAX_COLS], totals[MAX_COLS];
    memset(run, 0, sizeof *run);
    why[0] = '\0';
#define REFUSE(...) (snprintf(why, why_len, __VA_ARGS__), bad = 1)
    while (!bad && getline(&line, &cap, f) > 0) {
        number++;
        int blank = line[strspn(line, " \t\n")] == '\0';
        if (totals_at && !blank)
            REFUSE("a line follows its totals: line (line %ld), which callgrind writes last", number);
        else if (header && (blank || line[0] == '#' || is_header_line(line))) {
            read_fact(line, run);
            if (starts(line, "events:") && (++n_events > 1 || columns_of(line, column, &n_cols)))
                REFUSE("its events: line (line %ld) is not the one callgrind writes", number);
            else if (starts(line, "summary:") &&
                     (++n_summaries > 1 || !n_events || counts_of(line, summary, n_cols) < 0))
                REFUSE("its summary: line (line %ld) is not the one callgrind writes", number);
            else if (starts(line, "totals:"))
                REFUSE("a totals: line in its header (line %ld)", number);
        } else {
            header = 0;
            if (starts(line, "totals:")) {
                totals_at = number;
                if (counts_of(line, totals, n_cols) < 0)
                    REFUSE("its totals: line (line %ld) gives more counts than events, or one "
                           "that is not a number", number);
            } else if (starts(line, "events:") || starts(line, "summary:") || starts(line, "positions:"))
                REFUSE("line %ld is a header's line among its costs: a name in the program carried a "
                       "line break into the output (a #line directive in the lab file?)", number);
        }
    }
#undef REFUSE
    free(line);
    fclose(f);
    if (!bad && (n_events != 1 || n_summaries != 1 || !totals_at))
        snprintf(why, why_len, "it lacks its %s line",
                 n_events != 1 ? "events:" : n_summaries != 1 ? "summary:" : "totals:");
    if (why[0])
        return -1;
    for (int e = 0; e < TL_CG_EVENTS; e++)
        run->total[e] = totals[column[e]];
    return 0;
}
