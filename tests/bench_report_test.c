/*
 * The bench's report, fed fixed numbers by a back end of its own: every
 * subset of the variants that --only can select must give a table and CSV
 * rows that say what ran, and no share or ratio against a line that did
 * not run (a missing ceiling once crashed the bench); its record, which
 * the grader reads, a row for every variant asked for, timed or not and why.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* A transpose back end in miniature: the ceiling, the reference, the student. */
static const tl_variant variants[] = {
    {"memcpy", "copy (ceiling)", "ceiling", "reference", NULL, NULL},
    {"reference", "reference", "reference", "reference", NULL, "transpose"},
    {"student", "your code", "student", "reference", NULL, "transpose"},
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

/* Runs the report of r into three strings: table, CSV, record. */
static void report_of(const tl_result *r, char *table, char *csv, char *record, size_t len)
{
    tl_shape s = {1024, 1024, 1024};
    FILE *t = fmemopen(table, len, "w"), *c = fmemopen(csv, len, "w"), *rec = fmemopen(record, len, "w");
    cr_assert(t && c && rec);
    tl_bench_report(&(tl_bench_out){t, c, rec}, 6, 0, "", s, r, N);
    fclose(t);
    fclose(c);
    fclose(rec);
}

static void report(unsigned selected, char *table, char *csv, size_t len)
{
    static char record[8192];
    tl_result r[N];
    results_for(r, selected);
    report_of(r, table, csv, record, len < sizeof record ? len : sizeof record);
}

/* The table alone. */
static void table_of(const tl_result *r, char *table, size_t len)
{
    tl_shape s = {1024, 1024, 1024};
    FILE *t = fmemopen(table, len, "w");
    cr_assert(t);
    tl_bench_report(&(tl_bench_out){t, NULL, NULL}, 6, 0, "", s, r, N);
    fclose(t);
}

/* The record's field `column` (0: lab, 1: variant, ... as TL_BENCH_RECORD_HEADER) of
 * variant's row, or NULL when it has none. */
static const char *record_field(const char *record, const char *variant, int column)
{
    static char field[256];
    char prefix[64];
    snprintf(prefix, sizeof prefix, "6\t%s\t", variant);
    for (const char *row = record; *row; row += strcspn(row, "\n") + (row[strcspn(row, "\n")] != 0)) {
        if (strncmp(row, prefix, strlen(prefix)))
            continue;
        for (int i = 0; i < column; i++)
            row += strcspn(row, "\t\n") + 1;
        snprintf(field, sizeof field, "%.*s", (int)strcspn(row, "\t\n"), row);
        return field;
    }
    return NULL;
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
    tl_bench_report(&(tl_bench_out){t, c, NULL}, 6, 0, "", s, r, N);
    fclose(t);
    fclose(c);
    cr_assert(strstr(table, "noise, not a difference"), "%s", table);
    cr_assert(strstr(table, "unreliable"), "a ceiling that varied threefold:\n%s", table);

    /* The case: the student's loop, the reference's own, read 3.54x the reference at
       +-127 %: a ratio whose spread covers 1.00x says so. */
    results_for(r, 7);
    r[2].stats = (tl_stats){0.565e-3, 0.3e-3, 4e-3, 0.4e-3, 1.835e-3, 5};
    r[1].stats = (tl_stats){2.0e-3, 1.9e-3, 2.1e-3, 1.95e-3, 2.05e-3, 5};
    table_of(r, table, sizeof table);
    cr_assert(strstr(table, "3.54x") && strstr(table, "+-127 %"), "%s", table);
    cr_assert(strstr(table, "student 3.54x reference, +-129 %") && strstr(table, "no measurable difference"),
              "a ratio of 3.54x +-129 %% covers 1.00x:\n%s", table);

    results_for(r, 7); /* steady numbers: nothing to warn about */
    table_of(r, table, sizeof table);
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
    static char csv[8192], record[8192];
    report_of(r, table, csv, record, sizeof table);
    cr_assert(strstr(table, "REFUSED, faster than this GPU can go: 17 GB/s, above 125 % of the copy"), "%s", table);
    /* The grader reads the refusal in the record's fields, never in the table. */
    cr_assert_str_eq(record_field(record, "student", 6), "refused", "%s", record);
    cr_assert_str_eq(record_field(record, "student", 7), "", "a refused row has no rate:\n%s", record);
    cr_assert_str_eq(record_field(record, "student", 10), r[2].note, "%s", record);
    cr_assert_str_eq(record_field(record, "reference", 6), "timed", "%s", record);
    cr_assert(!strstr(csv, "6,student,"), "a refused row is no CSV row:\n%s", csv);
    results_for(r, 7);
    tl_bench_refuse(s, r, N, 0, "");
    cr_assert(r[2].measured, "no bound (the CPU): nothing refused");
}

/* The record: a row for every variant asked for, in the table's order, timed or not. */
Test(bench_report, the_record_says_what_became_of_every_variant)
{
    static char table[8192], csv[8192], record[8192];
    tl_result r[N];
    for (unsigned selected = 1; selected < 1u << N; selected++) {
        results_for(r, selected);
        report_of(r, table, csv, record, sizeof table);
        for (int i = 0; i < N; i++) {
            const char *outcome = record_field(record, variants[i].name, 6);
            cr_assert((outcome != NULL) == (selected >> i & 1), "subset %u: %s:\n%s", selected,
                      variants[i].name, record);
            if (outcome)
                cr_assert_str_eq(outcome, "timed", "subset %u: %s:\n%s", selected, variants[i].name, record);
        }
    }
    /* The student's code wrong: not timed, the note why in the record, with its commas. */
    results_for(r, 7);
    r[2].measured = 0;
    snprintf(r[2].note, sizeof r[2].note, "WRONG, not timed: out(3, 4) is 7, not 12");
    report_of(r, table, csv, record, sizeof table);
    cr_assert_str_eq(record_field(record, "student", 2), "student", "its role:\n%s", record);
    cr_assert_str_eq(record_field(record, "student", 6), "untimed", "%s", record);
    cr_assert_str_eq(record_field(record, "student", 10), "WRONG, not timed: out(3, 4) is 7, not 12", "%s", record);
    cr_assert(!strstr(csv, "6,student,"), "an untimed row is no CSV row:\n%s", csv);
    /* The reference's ratio to itself, the ceiling's to the reference: the bench's own. */
    cr_assert_str_eq(record_field(record, "reference", 9), "1.0000", "%s", record);
    cr_assert_str_eq(record_field(record, "memcpy", 9), "2.0000", "%s", record);
    cr_assert_str_eq(record_field(record, "memcpy", 7), "8.3886", "GB/s of 8 MiB in 1 ms:\n%s", record);
    cr_assert_str_eq(record_field(record, "memcpy", 8), "GB/s", "%s", record);
    cr_assert_str_eq(record_field(record, "memcpy", 10), "", "a timed row has no note:\n%s", record);
}
