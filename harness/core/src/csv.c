/* The kit's table files, read by their columns' names: see csv.h. */
#define _GNU_SOURCE
#include "csv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *key, *value;
} fact;

struct tl_csv {
    FILE *f;
    char sep;
    char *header;       /* the header line as read, to know it again */
    char **names;       /* into names_buf */
    char *names_buf;
    int n_names;
    char *line;         /* the line as read */
    size_t cap;
    char *row;          /* the current row's fields, unquoted, each ended by a NUL */
    size_t row_cap;
    char **fields;
    fact *facts;
    int n_facts;
};

static void *grown(void *p, size_t n)
{
    if (!(p = realloc(p, n))) {
        perror("csv");
        exit(1);
    }
    return p;
}

static char *copy(const char *s)
{
    return strcpy(grown(NULL, strlen(s) + 1), s);
}

/*
 * The fields of line, split at sep into out (strlen(line) + 1 bytes at
 * least), each ended by a NUL, the first max of them pointed to by field:
 * how many there are; -1 when a quote is left open (its field goes on on
 * the next line). A field that starts with a quote runs to the quote that
 * closes it, "" a quote inside it (RFC 4180: the gradebook quotes its
 * details; the kit's other files quote nothing).
 */
static int split(const char *line, char sep, char *out, char **field, int max)
{
    int n = 0;
    for (const char *p = line;;) {
        if (n < max)
            field[n] = out;
        n++;
        if (*p == '"') {
            for (p++;; p++) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] != '"')
                    break;
                p += *p == '"';
                *out++ = *p;
            }
            p++;
        }
        while (*p && *p != sep)
            *out++ = *p++;
        *out++ = '\0';
        if (!*p++)
            return n;
    }
}

/* "# key: value", key a word: a fact, the first of its key kept. */
static void read_fact(tl_csv *c, const char *line)
{
    const char *k = line + 2, *end = k;
    while (isalnum((unsigned char)*end) || *end == '_')
        end++;
    if (strncmp(line, "# ", 2) || end == k || strncmp(end, ": ", 2))
        return;
    for (int i = 0; i < c->n_facts; i++)
        if (strlen(c->facts[i].key) == (size_t)(end - k) && !strncmp(c->facts[i].key, k, end - k))
            return;
    c->facts = grown(c->facts, (size_t)(c->n_facts + 1) * sizeof *c->facts);
    c->facts[c->n_facts].key = strndup(k, end - k);
    c->facts[c->n_facts++].value = copy(end + 2);
}

static void set_header(tl_csv *c, const char *line)
{
    c->header = copy(line);
    c->sep = strchr(line, '\t') ? '\t' : ',';
    c->names_buf = grown(NULL, strlen(line) + 1);
    c->n_names = split(line, c->sep, c->names_buf, NULL, 0);
    if (c->n_names < 0) /* a quote left open: the line as one name */
        c->n_names = 1;
    c->names = grown(NULL, (size_t)c->n_names * sizeof *c->names);
    c->fields = calloc((size_t)c->n_names, sizeof *c->fields);
    if (split(line, c->sep, c->names_buf, c->names, c->n_names) < 0)
        strcpy(c->names_buf, line);
}

/* The next line, without its line end, that is neither a comment nor
 * empty, the facts on the way taken; before the header, a "# columns:" line
 * too. NULL at the end. */
static char *next_line(tl_csv *c)
{
    while (getline(&c->line, &c->cap, c->f) > 0) {
        c->line[strcspn(c->line, "\r\n")] = '\0';
        if (c->line[0] == '#') {
            read_fact(c, c->line);
            if (!c->header && !strncmp(c->line, "# columns: ", 11))
                return c->line;
            continue;
        }
        if (c->line[strspn(c->line, " ")] != '\0')
            return c->line;
    }
    return NULL;
}

tl_csv *tl_csv_open(const char *path)
{
    tl_csv *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (!(c->f = fopen(path, "r"))) {
        free(c);
        return NULL;
    }
    c->sep = ',';
    char *line = next_line(c);
    if (line)
        set_header(c, line[0] == '#' ? line + 11 : line);
    return c;
}

int tl_csv_next(tl_csv *c)
{
    char *line;
    if (!c->header)
        return 0;
    while ((line = next_line(c))) {
        if (!strcmp(line, c->header))
            continue;
        /* A quoted field over several lines: the lines joined, their breaks kept. */
        size_t len = strlen(line);
        char *text = copy(line), *more = NULL;
        size_t more_cap = 0;
        int n;
        for (;;) {
            if (c->row_cap < len + 1)
                c->row = grown(c->row, c->row_cap = len + 1);
            if ((n = split(text, c->sep, c->row, c->fields, c->n_names)) >= 0)
                break;
            ssize_t got = getline(&more, &more_cap, c->f);
            if (got <= 0)
                break;
            more[strcspn(more, "\r\n")] = '\0';
            text = grown(text, len + strlen(more) + 2);
            len += (size_t)sprintf(text + len, "\n%s", more);
        }
        free(text);
        free(more);
        if (n == c->n_names)
            return 1;
    }
    return 0;
}

void tl_csv_close(tl_csv *c)
{
    if (!c)
        return;
    fclose(c->f);
    for (int i = 0; i < c->n_facts; i++) {
        free(c->facts[i].key);
        free(c->facts[i].value);
    }
    free(c->facts);
    free(c->header);
    free(c->names_buf);
    free(c->names);
    free(c->fields);
    free(c->line);
    free(c->row);
    free(c);
}

int tl_csv_columns(const tl_csv *c)
{
    return c->n_names;
}

const char *tl_csv_name(const tl_csv *c, int column)
{
    return column >= 0 && column < c->n_names ? c->names[column] : NULL;
}

int tl_csv_column(const tl_csv *c, const char *name)
{
    for (int i = 0; i < c->n_names; i++)
        if (!strcmp(c->names[i], name))
            return i;
    return -1;
}

const char *tl_csv_field(const tl_csv *c, int column)
{
    return column >= 0 && column < c->n_names && c->fields && c->fields[column] ? c->fields[column] : "";
}

const char *tl_csv_get(const tl_csv *c, const char *name)
{
    int i = tl_csv_column(c, name);
    return i < 0 ? NULL : tl_csv_field(c, i);
}

const char *tl_csv_fact(const tl_csv *c, const char *key)
{
    for (int i = 0; i < c->n_facts; i++)
        if (!strcmp(c->facts[i].key, key))
            return c->facts[i].value;
    return NULL;
}

const char *tl_csv_fact_key(const tl_csv *c, int i)
{
    return i >= 0 && i < c->n_facts ? c->facts[i].key : NULL;
}

int tl_csv_is_here(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || !slash[1])
        return 0;
    const char *dir = slash;
    while (dir > path && dir[-1] != '/')
        dir--;
    return slash - dir == 5 && !strncmp(dir, "bench", 5);
}

struct tl_variants {
    int n;
    struct {
        char *unit, *variant, *label, *role;
    } *rows;
};

tl_variants *tl_variants_read(const char *path)
{
    tl_csv *c = tl_csv_open(path);
    tl_variants *v = c ? calloc(1, sizeof *v) : NULL;
    if (!v) {
        tl_csv_close(c);
        return NULL;
    }
    int unit = tl_csv_column(c, "unit"), variant = tl_csv_column(c, "variant"),
        label = tl_csv_column(c, "label"), role = tl_csv_column(c, "role");
    while (unit >= 0 && variant >= 0 && label >= 0 && role >= 0 && tl_csv_next(c)) {
        void *grown = realloc(v->rows, (size_t)(v->n + 1) * sizeof *v->rows);
        if (!grown) {
            perror("csv");
            exit(1);
        }
        v->rows = grown;
        v->rows[v->n].unit = copy(tl_csv_field(c, unit));
        v->rows[v->n].variant = copy(tl_csv_field(c, variant));
        v->rows[v->n].label = copy(tl_csv_field(c, label));
        v->rows[v->n++].role = copy(tl_csv_field(c, role));
    }
    tl_csv_close(c);
    return v;
}

void tl_variants_free(tl_variants *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->n; i++) {
        free(v->rows[i].unit);
        free(v->rows[i].variant);
        free(v->rows[i].label);
        free(v->rows[i].role);
    }
    free(v->rows);
    free(v);
}

const char *tl_csv_described(const tl_csv *c, const tl_variants *v, const char *what)
{
    const char *own = tl_csv_get(c, what), *variant = tl_csv_get(c, "variant"),
               *unit = tl_csv_get(c, "unit");
    int label = !strcmp(what, "label");
    if (own || !variant)
        return own;
    for (int i = 0; v && i < v->n; i++)
        if (!strcmp(v->rows[i].variant, variant) && (!unit || !strcmp(v->rows[i].unit, unit)))
            return label ? v->rows[i].label : v->rows[i].role;
    return label ? variant : "";
}
