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
    char **names;       /* into names_line */
    char *names_line;
    int n_names;
    char *line;         /* the current row; fields point into it */
    size_t cap;
    char **fields;
    fact *facts;
    int n_facts;
};

/* The fields of line, split in place at sep, at most max: how many. */
static int split(char *line, char sep, char **field, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n < max)
            field[n] = p;
        n++;
        p = strchr(p, sep);
        if (!p)
            return n;
        *p++ = '\0';
    }
}

static int fields_in(const char *line, char sep)
{
    int n = 1;
    for (; *line; line++)
        n += *line == sep;
    return n;
}

static char *copy(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        perror("csv");
        exit(1);
    }
    return d;
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
    fact *grown = realloc(c->facts, (size_t)(c->n_facts + 1) * sizeof *grown);
    if (!grown) {
        perror("csv");
        exit(1);
    }
    c->facts = grown;
    c->facts[c->n_facts].key = strndup(k, end - k);
    c->facts[c->n_facts++].value = copy(end + 2);
}

static void set_header(tl_csv *c, const char *line)
{
    c->header = copy(line);
    c->names_line = copy(line);
    c->sep = strchr(line, '\t') ? '\t' : ',';
    c->n_names = fields_in(line, c->sep);
    c->names = calloc((size_t)c->n_names, sizeof *c->names);
    c->fields = calloc((size_t)c->n_names, sizeof *c->fields);
    if (!c->names || !c->fields) {
        perror("csv");
        exit(1);
    }
    split(c->names_line, c->sep, c->names, c->n_names);
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
        if (!strcmp(line, c->header) || fields_in(line, c->sep) != c->n_names)
            continue;
        split(line, c->sep, c->fields, c->n_names);
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
    free(c->names_line);
    free(c->names);
    free(c->fields);
    free(c->line);
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
    return column >= 0 && column < c->n_names && c->fields[column] ? c->fields[column] : "";
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
    if (!slash)
        return 0;
    const char *dir = slash;
    while (dir > path && dir[-1] != '/')
        dir--;
    return slash - dir == 5 && !strncmp(dir, "bench", 5);
}
