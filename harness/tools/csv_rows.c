/*
 * csv-rows: the kit's table files (csv.h) for its scripts, which read them
 * through this program and never split a CSV themselves: the figures
 * (plots/), the report, the slides' filter (slides/tilelab.lua) and the
 * tools' tables.
 *
 *   csv-rows [--header] [--sep C] [--where COL=VALUE]... [--variants VARIANTS.csv] FILE [COL...]
 *       the rows (those whose COL is VALUE, for every --where), a line each:
 *       the columns named, in that order (all of them without names),
 *       joined by tabs or C; --header first prints their names. A column
 *       FILE lacks is an error, unless its name ends in '?' (then empty).
 *       A row's label and role are its own, or for a run recorded before the
 *       bench wrote them, the bench's table's (--variants: build/bench/
 *       variants.csv, bench_variants_csv.c) by its unit and variant, else
 *       its variant's name and no role (csv.h, tl_csv_described).
 *   csv-rows --fact KEY FILE      the value of its "# KEY: value" line
 *   csv-rows --facts FILE         "KEY<tab>VALUE", a line for each
 *   csv-rows --origin FILE        "here" (this machine's run) or "recorded":
 *                                 where its numbers come from, which csv.h
 *                                 decides for every figure, table and slide
 *
 * Exits 1 when FILE cannot be read or lacks a column asked for, 2 on bad usage.
 */
#include "csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SELECTED = 64, MAX_WHERE = 8 };

static void usage(void)
{
    fprintf(stderr, "usage: csv-rows [--header] [--sep C] [--where COL=VALUE]... [--variants VARIANTS.csv] FILE [COL...]\n"
                    "       csv-rows --fact KEY FILE | --facts FILE | --origin FILE\n");
    exit(2);
}

static tl_csv *open_or_die(const char *path)
{
    tl_csv *c = tl_csv_open(path);
    if (!c) {
        fprintf(stderr, "csv-rows: ");
        perror(path);
        exit(1);
    }
    return c;
}

static tl_variants *variants;

/* A field of the row by name: its own, or for a label or a role the file
 * lacks, the bench's table's (csv.h); NULL when there is no such column. */
static const char *value_of(const tl_csv *c, const char *name)
{
    if (!strcmp(name, "label") || !strcmp(name, "role"))
        return tl_csv_described(c, variants, name);
    return tl_csv_get(c, name);
}

/* Whether rows have a field name: the file's column, or a label or role told by the variant. */
static int has_column(const tl_csv *c, const char *name)
{
    return tl_csv_column(c, name) >= 0 ||
           ((!strcmp(name, "label") || !strcmp(name, "role")) && tl_csv_column(c, "variant") >= 0);
}

/* Where FILE's numbers come from: csv.h decides. */
static int origin(const char *path)
{
    tl_csv_close(open_or_die(path));
    printf("%s\n", tl_csv_is_here(path) ? "here" : "recorded");
    return 0;
}

static int facts(const char *key, const char *path)
{
    tl_csv *c = open_or_die(path);
    while (tl_csv_next(c))
        ;
    if (key) {
        const char *v = tl_csv_fact(c, key);
        if (v)
            printf("%s\n", v);
    } else {
        const char *k;
        for (int i = 0; (k = tl_csv_fact_key(c, i)); i++)
            printf("%s\t%s\n", k, tl_csv_fact(c, k));
    }
    tl_csv_close(c);
    return 0;
}

int main(int argc, char **argv)
{
    const char *where[MAX_WHERE], *path = NULL, *selected[MAX_SELECTED];
    char sep = '\t';
    int header = 0, n_where = 0, n_selected = 0, optional[MAX_SELECTED];
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "--header"))
            header = 1;
        else if (!strcmp(opt, "--fact") && arg && i + 2 == argc - 1)
            return facts(arg, argv[i + 2]);
        else if (!strcmp(opt, "--facts") && arg && i + 1 == argc - 1)
            return facts(NULL, arg);
        else if (!strcmp(opt, "--origin") && arg && i + 1 == argc - 1)
            return origin(arg);
        else if (!strcmp(opt, "--sep") && arg && strlen(arg) == 1)
            sep = arg[0], i++;
        else if (!strcmp(opt, "--where") && arg && strchr(arg, '=') && n_where < MAX_WHERE)
            where[n_where++] = arg, i++;
        else if (!strcmp(opt, "--variants") && arg) {
            if (!(variants = tl_variants_read(arg))) {
                fprintf(stderr, "csv-rows: ");
                perror(arg);
                return 1;
            }
            i++;
        }
        else
            usage();
    }
    if (i >= argc)
        usage();
    path = argv[i++];
    for (; i < argc && n_selected < MAX_SELECTED; i++, n_selected++) {
        size_t len = strlen(argv[i]);
        optional[n_selected] = len > 1 && argv[i][len - 1] == '?';
        if (optional[n_selected])
            argv[i][len - 1] = '\0';
        selected[n_selected] = argv[i];
    }
    if (i < argc)
        usage();
    tl_csv *c = open_or_die(path);
    if (!n_selected)
        for (; n_selected < tl_csv_columns(c) && n_selected < MAX_SELECTED; n_selected++)
            optional[n_selected] = 0, selected[n_selected] = tl_csv_name(c, n_selected);
    /* Every column asked for, known before any row is printed (a file with no header has no rows). */
    char names[MAX_WHERE][256];
    for (int w = 0; w < n_where; w++)
        snprintf(names[w], sizeof names[w], "%.*s", (int)strcspn(where[w], "="), where[w]);
    for (int k = 0; k < n_selected + n_where; k++) {
        const char *name = k < n_selected ? selected[k] : names[k - n_selected];
        if ((k >= n_selected || !optional[k]) && tl_csv_columns(c) && !has_column(c, name)) {
            fprintf(stderr, "csv-rows: %s has no column '%s'\n", path, name);
            tl_csv_close(c);
            return 1;
        }
    }
    if (header)
        for (int k = 0; k < n_selected; k++)
            printf("%s%c", selected[k], k + 1 < n_selected ? sep : '\n');
    while (tl_csv_next(c)) {
        int keep = 1;
        for (int w = 0; w < n_where && keep; w++) {
            const char *v = value_of(c, names[w]);
            keep = v && !strcmp(v, where[w] + strlen(names[w]) + 1);
        }
        for (int k = 0; k < n_selected && keep; k++) {
            const char *v = value_of(c, selected[k]);
            printf("%s%c", v ? v : "", k + 1 < n_selected ? sep : '\n');
        }
    }
    tl_csv_close(c);
    tl_variants_free(variants);
    return 0;
}
