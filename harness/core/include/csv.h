/*
 * The kit's table files, read by their columns' names: a bench's CSV and its
 * record (TSV), a profile's, a cache simulation's, a figure's, the bench's
 * variants.csv. This is the one reader of them: the grader and the tools
 * link it, and the figures, the report and the slides ask csv-rows
 * (harness/tools/csv_rows.c), which prints what it reads.
 *
 * What a file holds: '#' lines are comments, and "# key: value" among them a
 * fact of the run (machine, date, tunables, ...); the header is the first
 * line that is neither a '#' line nor empty, or a "# columns: a,b,c" line
 * before it (a figure's CSV, whose first line gnuplot must skip); then a row
 * a line. Fields are split at tabs where the header holds one, else at
 * commas; nothing is quoted (a TSV is for text that may hold commas). A line
 * with another count of fields than the header's is no row, and one that
 * repeats the header (two runs' files joined) is skipped.
 */
#ifndef TILELAB_CSV_H
#define TILELAB_CSV_H

typedef struct tl_csv tl_csv;

/* The file at path, read as far as its header: NULL, with errno, when it
 * cannot be opened. A file with no header has no columns and no rows. */
tl_csv *tl_csv_open(const char *path);
void tl_csv_close(tl_csv *c);

/* The next row: 1, or 0 once there is none. */
int tl_csv_next(tl_csv *c);

int tl_csv_columns(const tl_csv *c);
const char *tl_csv_name(const tl_csv *c, int column);
/* The index of the column called name, or -1. */
int tl_csv_column(const tl_csv *c, const char *name);
/* A field of the current row: by index ("" for -1), or by name (NULL where
 * the header has no such column). */
const char *tl_csv_field(const tl_csv *c, int column);
const char *tl_csv_get(const tl_csv *c, const char *name);

/* The value of the first "# key: value" line read so far (all those before
 * the header once opened, all of the file once tl_csv_next has returned 0),
 * or NULL. */
const char *tl_csv_fact(const tl_csv *c, const char *key);
/* The i-th fact read so far, in the file's order (each key once), or NULL past the last. */
const char *tl_csv_fact_key(const tl_csv *c, int i);

/*
 * The bench's table of variants (build/bench/variants.csv, unit,variant,
 * label,role: bench_variants_csv.c prints it from bench_variants.h), for a
 * run recorded before the bench wrote each row's label and role. NULL, with
 * errno, when it cannot be read.
 */
typedef struct tl_variants tl_variants;
tl_variants *tl_variants_read(const char *path);
void tl_variants_free(tl_variants *v);

/* The current row's label or role (what: "label" or "role"): its own field,
 * else the table's (v may be NULL) by the row's unit and variant, by variant
 * alone where the file has no unit (a profile has none), else the variant's
 * name for a label and "" for a role; NULL where the file has no such
 * column and no variant column either. */
const char *tl_csv_described(const tl_csv *c, const tl_variants *v, const char *what);

/*
 * Where a series' numbers come from, decided here for every figure, table
 * and slide: a file in a folder named bench/ is this machine's run (make
 * labN bench, profile and cachegrind write to build/bench/); any other file
 * (plots/data/) a recorded one. 1: this machine's; 0: recorded.
 */
int tl_csv_is_here(const char *path);

#endif
