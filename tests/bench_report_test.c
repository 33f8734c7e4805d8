/*
 * The bench's report, fed fixed numbers by a back end of its own: every
 * subset of the variants that --only can select must give a table and CSV
 * rows that say what ran, and no share or ratio against a line that did
 * not run. (A missing ceiling once crashed the bench.)
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* A transpose back end in miniature: the ceiling, the reference, the student. */
static const tl_variant variants[] = {
    {"memcpy", "copy (ceiling)", "ceiling", "reference", NULL},
    {"reference", "reference", "reference", "reference", NULL},
    {"student", "your code", "student", "reference", NULL},
};
enum { N = 3 };

double tl_bench_work(tl_shape s, const char **unit)
{
    *unit = "GB/s";
    return 2.0 * (double)tl_shape_elements(s) * sizeof(float);
}

/* Seconds per call: the ceiling 1 ms, the reference 2 ms, the student 4 ms. */
static void results_for(tl_result *r, unsigned selected)
{
    memset(r, 0, N * sizeof *r);
    for (int i = 0; i < N; i++) {
        if (!(selected >> i & 1))
            continue;
        double t = 1e-3 * (1 << i);
        r[i].variant = &variants[i];
        r[i].measured = 1;
        r[i].stats = (tl_stats){t, t, t, t, t, 5};
    }
}

/* Runs the report into two strings. */
static void report(unsigned selected, char *table, char *csv, size_t len)
{
    tl_result r[N];
    tl_shape s = {1024, 1024, 1024};
    results_for(r, selected);
    FILE *t = fmemopen(table, len, "w"), *c = fmemopen(csv, len, "w");
    cr_assert(t && c);
    tl_bench_report(t, c, 6, 0, "", s, r, N);
    fclose(t);
    fclose(c);
}

Test(bench_report, every_subset_names_its_variants_and_nothing_else)
{
    static char table[8192], csv[8192];
    for (unsigned selected = 1; selected < 1u << N; selected++) {
        report(selected, table, csv, sizeof table);
        cr_assert(strstr(table, "1024x1024"), "subset %u: the size is missing:\n%s", selected, table);
        for (int i = 0; i < N; i++) {
            char row[64];
            snprintf(row, sizeof row, "6,%s,1024,", variants[i].name);
            int in_table = strstr(table, variants[i].name) != NULL, in_csv = strstr(csv, row) != NULL;
            int want = selected >> i & 1;
            cr_assert(in_table == want && in_csv == want,
                      "subset %u: %s %s:\n%s\n%s", selected, variants[i].name,
                      want ? "did not show" : "showed though it did not run", table, csv);
        }
    }
}

Test(bench_report, shares_and_ratios_only_against_lines_that_ran)
{
    static char table[8192], csv[8192];
    report(1u << 2, table, csv, sizeof table); /* the student alone */
    cr_assert(strstr(csv, "6,student,1024,1024,1024,5,0.004,0.004,0.004,2.0972,GB/s,0.0000,0.0000,"),
              "the student alone has no share and no ratio:\n%s", csv);
    cr_assert(strstr(table, "2.1          -         -"),
              "a share of a ceiling, or a ratio to a reference, that did not run:\n%s", table);

    report(7, table, csv, sizeof table); /* all three */
    cr_assert(strstr(csv, "6,student,1024,1024,1024,5,0.004,0.004,0.004,2.0972,GB/s,0.2500,0.5000,"),
              "the student at 4 ms: a quarter of the 1 ms ceiling, half the 2 ms reference:\n%s", csv);
    cr_assert(strstr(table, "25 %") && strstr(table, "0.50x"), "%s", table);
    cr_assert(strstr(csv, ",your code,student\n") && strstr(csv, ",copy (ceiling),ceiling\n"),
              "each CSV row ends with the variant's label and role, from its table:\n%s", csv);
}

Test(bench_report, noise_is_named)
{
    static char table[8192], csv[8192];
    tl_result r[N];
    tl_shape s = {1024, 1024, 1024};
    results_for(r, 7);
    /* The student 3 % slower than the reference, both spread over +-10 %. */
    r[2].stats = (tl_stats){2.06e-3, 1.8e-3, 2.3e-3, 1.86e-3, 2.26e-3, 5};
    r[1].stats = (tl_stats){2.0e-3, 1.8e-3, 2.3e-3, 1.8e-3, 2.2e-3, 5};
    /* A ceiling whose slowest repetition took three times its fastest. */
    r[0].stats = (tl_stats){1.0e-3, 0.5e-3, 1.5e-3, 0.6e-3, 1.4e-3, 5};
    FILE *t = fmemopen(table, sizeof table, "w"), *c = fmemopen(csv, sizeof csv, "w");
    tl_bench_report(t, c, 6, 0, "", s, r, N);
    fclose(t);
    fclose(c);
    cr_assert(strstr(table, "noise, not a difference"), "%s", table);
    cr_assert(strstr(table, "unreliable"), "a ceiling that varied threefold:\n%s", table);

    /* The case: the student's loop, the reference's own, read 3.54x the reference at
       +-127 %: a ratio whose spread covers 1.00x says so. */
    results_for(r, 7);
    r[2].stats = (tl_stats){0.565e-3, 0.3e-3, 4e-3, 0.4e-3, 1.835e-3, 5};
    r[1].stats = (tl_stats){2.0e-3, 1.9e-3, 2.1e-3, 1.95e-3, 2.05e-3, 5};
    t = fmemopen(table, sizeof table, "w");
    tl_bench_report(t, NULL, 6, 0, "", s, r, N);
    fclose(t);
    cr_assert(strstr(table, "3.54x") && strstr(table, "+-127 %"), "%s", table);
    cr_assert(strstr(table, "student 3.54x reference, +-129 %") && strstr(table, "no measurable difference"),
              "a ratio of 3.54x +-129 %% covers 1.00x:\n%s", table);

    results_for(r, 7); /* steady numbers: nothing to warn about */
    t = fmemopen(table, sizeof table, "w");
    tl_bench_report(t, NULL, 6, 0, "", s, r, N);
    fclose(t);
    cr_assert(!strstr(table, "note:"), "%s", table);
}

/* A row faster than the hardware's bound is refused, named in the table; the ceiling and rows under it stand. */
Test(bench_report, a_rate_above_the_bound_is_refused)
{
    static char table[8192];
    tl_result r[N];
    tl_shape s = {1024, 1024, 1024};
    results_for(r, 7);
    r[2].stats = (tl_stats){0.5e-3, 0.5e-3, 0.5e-3, 0.5e-3, 0.5e-3, 5}; /* twice the copy's rate */
    double copy = tl_bench_work(s, &(const char *){0}) / 1e-3 / 1e9;
    tl_bench_refuse(s, r, N, 1.25 * copy, "125 % of the copy");
    cr_assert(r[0].measured && r[1].measured, "the ceiling and the reference, under the bound, stand");
    cr_assert(!r[2].measured, "the student's row, at twice the copy's rate, is refused");
    cr_assert(!strncmp(r[2].note, "REFUSED, faster than this GPU can go: ", 38), "its note: %s", r[2].note);
    FILE *t = fmemopen(table, sizeof table, "w");
    cr_assert(t);
    tl_bench_report(t, NULL, 6, 0, "", s, r, N);
    fclose(t);
    cr_assert(strstr(table, "REFUSED, faster than this GPU can go: 17 GB/s, above 125 % of the copy"), "%s", table);
    results_for(r, 7);
    tl_bench_refuse(s, r, N, 0, "");
    cr_assert(r[2].measured, "no bound (the CPU): nothing refused");
}
