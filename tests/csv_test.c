/* The kit's one reader of its table files (csv.h), on planted files: every
 * kind of file the kit writes, by its columns' names, and the lines that are
 * not rows. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"

/* text in a file of its own, its path in path (PATH_MAX). */
static tl_csv *planted(char *path, const char *name, const char *text)
{
    snprintf(path, 4096, "/tmp/tl-csv-%d-%s", (int)getpid(), name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    tl_csv *c = tl_csv_open(path);
    cr_assert(c, "%s", path);
    return c;
}

Test(csv, a_bench_csv_by_its_names_with_its_facts)
{
    char path[4096];
    tl_csv *c = planted(path, "bench.csv",
                        "# tilelab bench\n# machine: NVIDIA H100, 132 SMs\n# date: 2026-11-23\n\n"
                        "lab,variant,rate\n3,memcpy,2900.5\n3,reference,1450\n"
                        "3,student\n"               /* cut short: no row */
                        "lab,variant,rate\n"        /* a second run's header: no row */
                        "# tunables: student none\n3,student,12\n");
    cr_assert_eq(tl_csv_columns(c), 3);
    cr_assert_str_eq(tl_csv_fact(c, "machine"), "NVIDIA H100, 132 SMs");
    cr_assert_null(tl_csv_fact(c, "tilelab"), "'# tilelab bench' is a comment, not a fact");
    const char *want[][2] = {{"memcpy", "2900.5"}, {"reference", "1450"}, {"student", "12"}};
    for (int i = 0; i < 3; i++) {
        cr_assert(tl_csv_next(c), "row %d", i);
        cr_assert_str_eq(tl_csv_get(c, "variant"), want[i][0]);
        cr_assert_str_eq(tl_csv_field(c, tl_csv_column(c, "rate")), want[i][1]);
        cr_assert_null(tl_csv_get(c, "depth"), "no such column");
    }
    cr_assert_not(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_fact(c, "tunables"), "student none", "a fact after the rows, once read");
    cr_assert_str_eq(tl_csv_fact_key(c, 0), "machine");
    tl_csv_close(c);
    unlink(path);
}

Test(csv, a_figures_csv_has_its_header_on_a_columns_line)
{
    char path[4096];
    tl_csv *c = planted(path, "fig.csv", "# columns: line,size,GB/s\n-O0,64x64,1.5\n-O3,64x64,9\n");
    cr_assert_str_eq(tl_csv_name(c, 2), "GB/s");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "line"), "-O0", "the first row is a row, not the header");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "GB/s"), "9");
    cr_assert_not(tl_csv_next(c));
    tl_csv_close(c);
    unlink(path);
}

Test(csv, a_record_is_tab_separated_and_keeps_commas_and_empty_fields)
{
    char path[4096];
    tl_csv *c = planted(path, "bench.tsv",
                        "lab\tvariant\toutcome\trate\tnote\n"
                        "7\tnaive\tuntimed\t\tWRONG, not timed: out(3, 4) is 7\n7\tstudent\ttimed\t12.5\t\n");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "note"), "WRONG, not timed: out(3, 4) is 7");
    cr_assert_str_eq(tl_csv_get(c, "rate"), "");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "rate"), "12.5");
    cr_assert_str_eq(tl_csv_get(c, "note"), "");
    tl_csv_close(c);
    unlink(path);
}

Test(csv, quoted_fields_as_the_gradebook_writes_them)
{
    char path[4096];
    tl_csv *c = planted(path, "book.csv",
                        "name,total,details\nann,10,\"a, b and \"\"c\"\"\"\nbob,3,\"two\nlines\"\ncid,0,plain\n");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "details"), "a, b and \"c\"");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "details"), "two\nlines", "a quoted line break is part of its field");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_get(c, "name"), "cid", "the row after it is read as one");
    cr_assert_not(tl_csv_next(c));
    tl_csv_close(c);
    unlink(path);
}

Test(csv, no_header_no_rows)
{
    char path[4096];
    tl_csv *c = planted(path, "empty.csv", "# tilelab bench\n\n");
    cr_assert_eq(tl_csv_columns(c), 0);
    cr_assert_not(tl_csv_next(c));
    cr_assert_null(tl_csv_get(c, "rate"));
    tl_csv_close(c);
    unlink(path);
    cr_assert_null(tl_csv_open("/nonexistent/lab01.csv"));
}

Test(csv, labels_and_roles_of_runs_recorded_before_the_bench_wrote_them)
{
    char table[4096], path[4096];
    tl_csv *t = planted(table, "variants.csv",
                        "unit,variant,label,role\nGB/s,memcpy,copy (ceiling),ceiling\n"
                        "GFLOP/s,cublas,cuBLAS SGEMM,ceiling\nGB/s,cublas,cuBLAS Sgeam,library\n");
    tl_csv_close(t);
    tl_variants *v = tl_variants_read(table);
    cr_assert(v);
    tl_csv *c = planted(path, "old.csv", "lab,variant,unit\n3,cublas,GB/s\n7,cublas,GFLOP/s\n3,mine,GB/s\n");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_described(c, v, "label"), "cuBLAS Sgeam", "by unit and variant");
    cr_assert_str_eq(tl_csv_described(c, v, "role"), "library");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_described(c, v, "role"), "ceiling");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_described(c, v, "label"), "mine", "a variant the table lacks: its name");
    cr_assert_str_eq(tl_csv_described(c, v, "role"), "");
    tl_csv_close(c);
    c = planted(path, "new.csv", "lab,variant,unit,label,role\n3,cublas,GB/s,its own,its role\n");
    cr_assert(tl_csv_next(c));
    cr_assert_str_eq(tl_csv_described(c, v, "label"), "its own", "a row's own label first");
    tl_csv_close(c);
    tl_variants_free(v);
    unlink(path);
    unlink(table);
}

Test(csv, this_machines_runs_lie_in_bench)
{
    cr_assert(tl_csv_is_here("build/bench/lab03.csv"));
    cr_assert(tl_csv_is_here("/home/me/kit/build/bench/lab01-SIZES64-REPS1.csv"));
    cr_assert_not(tl_csv_is_here("plots/data/lab03.csv"));
    cr_assert_not(tl_csv_is_here("/tmp/x/mybench/lab03.csv"));
    cr_assert_not(tl_csv_is_here("bench/"));
    cr_assert_not(tl_csv_is_here("lab03.csv"));
}
