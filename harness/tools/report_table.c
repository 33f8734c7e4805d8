/*
 * report-table [--html] [--width N] CSV
 *
 * A CSV of the kit (a bench's, a profile's, a figure's) as make report prints
 * it, in Markdown for the PDF or in HTML for the page, the same table in both:
 *
 * - values in the units people read, each measurement to three figures: seconds as ms or us (one unit for all of a
 *   table's times, the one its median times read best in), a share of the
 *   ceiling as a percentage, a ratio as 1.23x, rows and cols as one size, the
 *   quartiles as the bench's spread (+-3 %), each variant's label and role
 *   said once above the table;
 * - a column that holds one value in every row is said once, above the table,
 *   and one that is empty in every row is left out;
 * - a table wider than the page (N characters, 140 by default: A4 in the report's small type) is cut into
 *   several, each repeating the columns that name a row (the ones before the
 *   first number: variant, size, kernel); one of a few rows (a profile's
 *   kernels) is written a column a line instead, a column for each row;
 * - a cell's '|' or Markdown mark-up is escaped, so no cell shifts.
 *
 * The file is read by csv.h, the kit's one reader of its CSVs.
 */
#include "csv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLUMNS = 64, CELL = 96, KEY_LIMIT = 3, FEW_ROWS = 4 };

typedef struct {
    char name[CELL];
    char **cells; /* one a row */
    int numeric;  /* right-aligned */
    int width;
} column;

static column cols[MAX_COLUMNS];
static int ncols, nrows;
/* An operation of one dimension (its "# dims: 1" fact: lab 10's sum): its sizes are counts
 * of elements, which the CSV carries as rows x cols (tl_count_shape), depth 1. */
static int counts;

static void *grow(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        perror("report-table");
        exit(1);
    }
    return p;
}

static char *copy(const char *s)
{
    return strcpy(grow(NULL, strlen(s) + 1), s);
}

/* S after what BUF (of LEN bytes) holds, cut where it is full. */
static void append(char *buf, size_t len, const char *s)
{
    strncat(buf, s, len - strlen(buf) - 1);
}

static int is_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    strtod(s, &end);
    return *end == 0;
}

/* A measurement to three figures, which is all a run's spread leaves of it, never in
 * exponent form: 42710, 185, 36.8, 0.0523. */
static void three_figures(char *out, size_t len, double v)
{
    double a = v < 0 ? -v : v;
    snprintf(out, len, a >= 1000 ? "%.0f" : a >= 0.001 || a == 0 ? "%.3g" : "%.6f", v);
}

static int find(const char *name)
{
    for (int i = 0; i < ncols; i++)
        if (strcmp(cols[i].name, name) == 0)
            return i;
    return -1;
}

static void drop(int i)
{
    free(cols[i].cells);
    memmove(&cols[i], &cols[i + 1], (size_t)(ncols - i - 1) * sizeof cols[0]);
    ncols--;
}

/* The table, whichever of the kit's files it is (csv.h says how its header is found). */
static void read_csv(tl_csv *f)
{
    ncols = tl_csv_columns(f) < MAX_COLUMNS ? tl_csv_columns(f) : MAX_COLUMNS;
    for (int i = 0; i < ncols; i++)
        snprintf(cols[i].name, CELL, "%s", tl_csv_name(f, i));
    while (tl_csv_next(f)) {
        for (int i = 0; i < ncols; i++) {
            cols[i].cells = grow(cols[i].cells, (size_t)(nrows + 1) * sizeof(char *));
            cols[i].cells[nrows] = copy(tl_csv_field(f, i));
        }
        nrows++;
    }
    const char *dims = tl_csv_fact(f, "dims");
    counts = dims && atoi(dims) == 1;
}

static void set(int c, int r, const char *value)
{
    free(cols[c].cells[r]);
    cols[c].cells[r] = copy(value);
}

/* rows, cols (and depth, for a product or a shape of three sides) as one "size"; a count's
 * rows x cols as the count, n (a table of lab 10's once read "1x4194304x1"). */
static void join_size(void)
{
    int r = find("rows"), c = find("cols"), d = find("depth"), u = find("unit");
    if (r < 0 || c < 0)
        return;
    if (counts) {
        for (int i = 0; i < nrows; i++) {
            char size[CELL];
            snprintf(size, sizeof size, "%llu",
                     strtoull(cols[r].cells[i], NULL, 10) * strtoull(cols[c].cells[i], NULL, 10));
            set(r, i, size);
        }
        snprintf(cols[r].name, CELL, "n");
        if (d >= 0)
            drop(d);
        drop(find("cols"));
        return;
    }
    int three = 0;
    for (int i = 0; d >= 0 && i < nrows; i++)
        three |= strcmp(cols[d].cells[i], cols[c].cells[i]) != 0 ||
                 (u >= 0 && strcmp(cols[u].cells[i], "GFLOP/s") == 0);
    for (int i = 0; i < nrows; i++) {
        char size[CELL];
        snprintf(size, sizeof size, three ? "%sx%sx%s" : "%sx%s", cols[r].cells[i], cols[c].cells[i],
                 three ? cols[d].cells[i] : "");
        set(r, i, size);
    }
    snprintf(cols[r].name, CELL, "size");
    if (d >= 0)
        drop(d);
    drop(find("cols"));
}

/* The quartiles of the repetitions as the bench's table gives them: "+-3 %", half
 * the interquartile range over the median. */
static void spread(void)
{
    int m = find("median_s"), q1 = find("q1_s"), q3 = find("q3_s");
    if (m < 0 || q1 < 0 || q3 < 0)
        return;
    for (int i = 0; i < nrows; i++) {
        char v[CELL] = "";
        double median = atof(cols[m].cells[i]);
        if (median > 0 && is_number(cols[q1].cells[i]) && is_number(cols[q3].cells[i]))
            snprintf(v, sizeof v, "+-%.0f %%", 50 * (atof(cols[q3].cells[i]) - atof(cols[q1].cells[i])) / median);
        set(q1, i, v);
    }
    snprintf(cols[q1].name, CELL, "spread");
    cols[q1].numeric = 1;
    drop(q3);
}

/* A bench's label and role describe its variant, the same on each of its rows: said
 * once, above the table, "memcpy: copy (ceiling), the ceiling; ...", into LEGEND. */
static void variants_once(char *legend, size_t len)
{
    int v = find("variant"), l = find("label"), r = find("role");
    if (v < 0 || l < 0)
        return;
    for (int i = 0; i < nrows; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= strcmp(cols[v].cells[j], cols[v].cells[i]) == 0;
        size_t n = strlen(legend);
        if (!seen)
            snprintf(legend + n, len - n, "%s%s: %s%s%s", n ? "; " : "", cols[v].cells[i], cols[l].cells[i],
                     r >= 0 ? ", the " : "", r >= 0 ? cols[r].cells[i] : "");
    }
    drop(l);
    if (r >= 0)
        drop(find("role"));
}

/* Every column of seconds (NAME_s) in one unit: the largest in which the table's
 * median times (its first time column's) mostly read 1 or more. */
static void times_in_units(void)
{
    static const struct { const char *name; double scale; } units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
    int first = find("median_s");
    for (int i = 0; first < 0 && i < ncols; i++) {
        size_t n = strlen(cols[i].name);
        if (n > 2 && strcmp(cols[i].name + n - 2, "_s") == 0)
            first = i;
    }
    if (first < 0 || nrows == 0)
        return;
    int u = 0;
    while (u < 3) {
        int below = 0;
        for (int i = 0; i < nrows; i++)
            below += atof(cols[first].cells[i]) * units[u].scale < 1;
        if (2 * below <= nrows)
            break;
        u++;
    }
    for (int c = 0; c < ncols; c++) {
        size_t n = strlen(cols[c].name);
        if (n < 3 || strcmp(cols[c].name + n - 2, "_s") != 0)
            continue;
        for (int i = 0; i < nrows; i++)
            if (is_number(cols[c].cells[i])) {
                char v[CELL];
                three_figures(v, sizeof v, atof(cols[c].cells[i]) * units[u].scale);
                set(c, i, v);
            }
        cols[c].name[n - 2] = 0;
        snprintf(cols[c].name + n - 2, CELL - n, " %s", units[u].name);
    }
}

/* A column's numbers as FORMAT of value times SCALE, under a new NAME. */
static void reformat(const char *from, const char *name, const char *format, double scale)
{
    int c = find(from);
    if (c < 0)
        return;
    for (int i = 0; i < nrows; i++)
        if (is_number(cols[c].cells[i]) && atof(cols[c].cells[i]) != 0) {
            char v[CELL];
            snprintf(v, sizeof v, format, atof(cols[c].cells[i]) * scale);
            set(c, i, v);
        } else {
            set(c, i, "-"); /* 0: no ceiling or reference ran beside it */
        }
    snprintf(cols[c].name, CELL, "%s", name);
    cols[c].numeric = 1;
}

static int constant(int c)
{
    for (int i = 1; i < nrows; i++)
        if (strcmp(cols[c].cells[i], cols[c].cells[0]) != 0)
            return 0;
    return 1;
}

/* Markdown: a cell's punctuation that could be mark-up, escaped. */
static void put_markdown(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>#+!|^~$@&{}", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

static void put_html(FILE *out, const char *s)
{
    for (; *s; s++)
        fputs(*s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : (char[]){*s, 0}, out);
}

static void put(FILE *out, int html, const char *s)
{
    (html ? put_html : put_markdown)(out, s);
}

/* One table of the key columns and columns [from, to). */
static void table(FILE *out, int html, int keys, int from, int to)
{
    int pick[MAX_COLUMNS], n = 0;
    for (int c = 0; c < keys; c++)
        pick[n++] = c;
    for (int c = from; c < to; c++)
        pick[n++] = c;
    if (html)
        fputs("<table>\n<tr>", out);
    else
        fputs("|", out);
    for (int j = 0; j < n; j++) {
        fputs(html ? "<th>" : " ", out);
        put(out, html, cols[pick[j]].name);
        fputs(html ? "</th>" : " |", out);
    }
    fputs(html ? "</tr>\n" : "\n|", out);
    for (int j = 0; !html && j < n; j++)
        fputs(cols[pick[j]].numeric ? "---:|" : ":---|", out);
    if (!html)
        fputs("\n", out);
    for (int i = 0; i < nrows; i++) {
        fputs(html ? "<tr>" : "|", out);
        for (int j = 0; j < n; j++) {
            const char *v = cols[pick[j]].cells[i];
            fputs(html ? (cols[pick[j]].numeric ? "<td>" : "<td class=\"name\">") : " ", out);
            put(out, html, *v ? v : "-");
            fputs(html ? "</td>" : " |", out);
        }
        fputs(html ? "</tr>\n" : "\n", out);
    }
    fputs(html ? "</table>\n" : "\n", out);
}

/* Row I's name in a turned table: its keys, "reference matmul_naive_kernel". */
static void row_name(char *name, size_t len, int keys, int i)
{
    name[0] = 0;
    for (int c = 0; c < keys; c++) {
        size_t n = strlen(name);
        snprintf(name + n, len - n, "%s%s", c ? " " : "", cols[c].cells[i]);
    }
}

/* A wide table of a few rows, a line a column, a column for each of rows [from, to):
 * its header names each row by its keys. */
static void turned(FILE *out, int html, int keys, int from, int to)
{
    char name[4 * CELL];
    fputs(html ? "<table>\n<tr><th></th>" : "| |", out);
    for (int i = from; i < to; i++) {
        row_name(name, sizeof name, keys, i);
        fputs(html ? "<th>" : " ", out);
        put(out, html, name);
        fputs(html ? "</th>" : " |", out);
    }
    fputs(html ? "</tr>\n" : "\n|:---|", out);
    for (int i = from; !html && i < to; i++)
        fputs("---:|", out);
    if (!html)
        fputs("\n", out);
    for (int c = keys; c < ncols; c++) {
        fputs(html ? "<tr><td class=\"name\">" : "| ", out);
        put(out, html, cols[c].name);
        fputs(html ? "</td>" : " |", out);
        for (int i = from; i < to; i++) {
            fputs(html ? "<td>" : " ", out);
            put(out, html, *cols[c].cells[i] ? cols[c].cells[i] : "-");
            fputs(html ? "</td>" : " |", out);
        }
        fputs(html ? "</tr>\n" : "\n", out);
    }
    fputs(html ? "</table>\n" : "\n", out);
}

/* The turned tables of every row, as many rows each as the page's WIDTH holds. */
static void turned_tables(FILE *out, int html, int keys, int width)
{
    int names = 0;
    for (int c = keys; c < ncols; c++)
        if ((int)strlen(cols[c].name) + 4 > names)
            names = (int)strlen(cols[c].name) + 4;
    for (int from = 0, to; from < nrows; from = to) {
        int w = names;
        for (to = from; to < nrows; to++) {
            char name[4 * CELL];
            row_name(name, sizeof name, keys, to);
            int cell = (int)strlen(name) + 4;
            for (int c = keys; c < ncols; c++)
                if ((int)strlen(cols[c].cells[to]) + 4 > cell)
                    cell = (int)strlen(cols[c].cells[to]) + 4;
            if (to > from && w + cell > width)
                break;
            w += cell;
        }
        turned(out, html, keys, from, to);
    }
}

int main(int argc, char **argv)
{
    int html = 0, width = 140;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--html") == 0)
            html = 1;
        else if (strcmp(argv[i], "--width") == 0 && i + 1 < argc)
            width = atoi(argv[++i]);
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path || width < 20) {
        fprintf(stderr, "usage: report-table [--html] [--width N] CSV\n");
        return 2;
    }
    tl_csv *f = tl_csv_open(path);
    if (!f) {
        perror(path);
        return 1;
    }
    read_csv(f);
    tl_csv_close(f);
    if (nrows == 0) {
        fputs(html ? "<p class=\"meta\">(no rows)</p>\n" : "(no rows)\n\n", stdout);
        return 0;
    }

    /* The rate's unit, said once in the header, before the unit column may go as constant. */
    int rate = find("rate"), unit = find("unit");
    if (rate >= 0 && unit >= 0 && constant(unit))
        snprintf(cols[rate].name, CELL, "%s", cols[unit].cells[0]);
    char legend[4096] = "";
    variants_once(legend, sizeof legend);
    join_size();
    spread();
    times_in_units();
    reformat("share_of_ceiling", "of ceiling", "%.1f %%", 100);
    reformat("ratio_to_reference", "vs reference", "%.2fx", 1);

    /* Every other measurement (a rate, 36.8413 GB/s) to three figures too; counts,
     * whole numbers, stay whole. */
    for (int c = 0; c < ncols; c++)
        for (int i = 0; i < nrows; i++)
            if (is_number(cols[c].cells[i]) && strpbrk(cols[c].cells[i], ".eE")) {
                char v[CELL];
                three_figures(v, sizeof v, atof(cols[c].cells[i]));
                set(c, i, v);
            }
    for (int c = 0; c < ncols; c++)
        for (char *p = cols[c].name; *p; p++)
            if (*p == '_')
                *p = ' ';
    char said[4096] = "";
    for (int c = 0; c < ncols;) {
        int empty = 1;
        for (int i = 0; i < nrows; i++)
            empty &= cols[c].cells[i][0] == 0;
        if (!empty && !(nrows > 1 && constant(c))) {
            c++;
            continue;
        }
        if (!empty) {
            size_t n = strlen(said);
            snprintf(said + n, sizeof said - n, "%s%s %s", n ? "; " : "", cols[c].name, cols[c].cells[0]);
        }
        drop(c);
    }
    for (int c = 0; c < ncols; c++) {
        int numeric = 1, w = (int)strlen(cols[c].name);
        for (int i = 0; i < nrows; i++) {
            const char *v = cols[c].cells[i];
            numeric &= !*v || is_number(v) || strcmp(v, "-") == 0;
            if ((int)strlen(v) > w)
                w = (int)strlen(v);
        }
        cols[c].numeric |= numeric;
        cols[c].width = w + 4; /* a cell's padding and rule */
    }
    /* The columns that name a row: those before the first number, at most a few. */
    int keys = 0, key_width = 0;
    while (keys < ncols - 1 && keys < KEY_LIMIT && !cols[keys].numeric)
        key_width += cols[keys++].width;

    if (legend[0]) {
        fputs(html ? "<p class=\"meta\">The variants: " : "The variants: ", stdout);
        put(stdout, html, legend);
        fputs(html ? ".</p>\n" : ".\n\n", stdout);
    }
    /* Every number said above: a table of the rows' names alone would say nothing, so
     * their names go into that line, "The same in each row (variant reference, student): ...". */
    int numbers = 0;
    for (int c = 0; c < ncols; c++)
        numbers += cols[c].numeric;
    if (said[0] && numbers == 0) {
        char names[4096] = "";
        for (int c = 0; c < ncols; c++) {
            append(names, sizeof names, c ? "; " : "");
            append(names, sizeof names, cols[c].name);
            for (int i = 0; i < nrows; i++) {
                append(names, sizeof names, i ? ", " : " ");
                append(names, sizeof names, cols[c].cells[i]);
            }
        }
        fputs(html ? "<p class=\"meta\">The same in each row (" : "The same in each row (", stdout);
        put(stdout, html, names);
        fputs("): ", stdout);
        put(stdout, html, said);
        printf(html ? "%s</p>\n" : "%s\n\n", said[strlen(said) - 1] == '.' ? "" : ".");
        ncols = 0;
    } else if (said[0]) {
        fputs(html ? "<p class=\"meta\">In every row: " : "In every row: ", stdout);
        put(stdout, html, said);
        const char *stop = said[strlen(said) - 1] == '.' ? "" : ".";
        printf(html ? "%s</p>\n" : "%s\n\n", stop);
    }
    int total = key_width;
    if (ncols == 0)
        return 0;
    for (int c = keys; c < ncols; c++)
        total += cols[c].width;
    if (total > width && nrows <= FEW_ROWS && keys > 0)
        turned_tables(stdout, html, keys, width);
    else
        for (int from = keys, to; from < ncols; from = to) {
            int w = key_width + cols[from].width;
            for (to = from + 1; to < ncols && w + cols[to].width <= width; to++)
                w += cols[to].width;
            table(stdout, html, keys, from, to);
        }
    for (int c = 0; c < ncols; c++) {
        for (int i = 0; i < nrows; i++)
            free(cols[c].cells[i]);
        free(cols[c].cells);
    }
    return 0;
}
