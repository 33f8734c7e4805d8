/*
 * emu-sites WIDTHS|- SRC IN.s OUT.s
 *
 * Copies g++'s assembly of the instrumented lab file (IN.s) and adds the
 * table of its access checks, section tl_sites (sites.h), that emulator.c
 * reads: for each call of an __asan_load or __asan_store check, its return
 * address, the first check of the same source expression, its line and the
 * widths WIDTHS (emu-sass-widths' output) gives that line. The table starts
 * with an entry of pc 0 whose line says whether the widths are known (1) or
 * not (0: WIDTHS is -, and the emulator counts the accesses as written).
 * Lines of other files than SRC (the emulator's headers) count as line 0.
 */
#include <regex.h>
#include <search.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line_widths.h"
#include "sites.h"

#define MAX_FIELDS 6

/* One check: the entry of the first check of its expression, and its line. */
typedef struct {
    size_t first;
    long line;
} site;

static void *grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, n * size);
    if (!q) {
        perror("emu-sites");
        exit(1);
    }
    return q;
}

/* The first `max` whitespace-separated fields of line, and how many it has in all (as
 * awk's $1..$NF: *last is the last one). */
static int fields(char *line, char **f, int max, char **last)
{
    int n = 0;
    *last = NULL;
    for (char *p = line;;) {
        p += strspn(p, " \t\n");
        if (!*p)
            return n;
        char *end = p + strcspn(p, " \t\n");
        if (n < max)
            f[n] = p;
        *last = p;
        n++;
        if (!*end)
            return n;
        *end = '\0';
        p = end + 1;
    }
}

static int is_number(const char *s)
{
    return *s && s[strspn(s, "0123456789")] == '\0';
}

static const tl_line_widths *widths_of(const tl_line_widths *w, size_t n, long line)
{
    for (size_t i = 0; i < n; i++)
        if (w[i].line == line)
            return &w[i];
    return NULL;
}

/* The file numbers of the assembly's .file directives that name SRC's file (.file 1
 * "dir/transpose.cu", or a directory first, in quotes too), as written; and in *lines how
 * many lines the assembly has, as many checks as it can hold. */
static char **main_files(FILE *in, const char *src, size_t *n, size_t *lines)
{
    char **files = NULL;
    size_t cap = 0;
    char *text = NULL, *f[MAX_FIELDS], *last;
    size_t len = 0;
    *n = *lines = 0;
    while (getline(&text, &len, in) > 0) {
        ++*lines;
        if (fields(text, f, MAX_FIELDS, &last) < 2 || strcmp(f[0], ".file") != 0 || !is_number(f[1]))
            continue;
        char name[4096];
        size_t k = 0;
        for (const char *p = last; *p && k + 1 < sizeof name; p++)
            if (*p != '"')
                name[k++] = *p;
        name[k] = '\0';
        if (tl_names_file_of(name, src)) {
            if (*n == cap)
                files = grow(files, cap = cap ? 2 * cap : 8, sizeof *files);
            files[(*n)++] = strdup(f[1]);
        }
    }
    free(text);
    return files;
}

/* The first check of key's source expression ("line:column:ld|st"), by hsearch's table:
 * index, where key is new. */
static size_t first_check(const char *key, size_t index)
{
    ENTRY e = {.key = (char *)key, .data = (void *)(uintptr_t)index}, *found = hsearch(e, FIND);
    if (found)
        return (size_t)(uintptr_t)found->data;
    if (!(e.key = strdup(key)) || !hsearch(e, ENTER)) {
        perror("emu-sites");
        exit(1);
    }
    return index;
}

/* One field of an entry: where sites.h puts it, how many bytes, and what it holds. */
typedef struct {
    size_t offset, size;
    char value[64];
} entry_field;

static int by_offset(const void *a, const void *b)
{
    const entry_field *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The entry at index i (-1: the table's first, unlabelled), its fields in the order sites.h
 * lays them out, each in a directive of its size, the gaps between them zeroes. */
static void entry(FILE *out, long i, const char *pc, long first, long line, const unsigned *widths)
{
    static const char *directive[] = {NULL, ".byte", ".short", NULL, ".long", NULL, NULL, NULL, ".quad"};
    const tl_site *s = NULL;
    entry_field f[3 + TL_SITE_KINDS] = {
        {offsetof(tl_site, pc), sizeof s->pc, ""},
        {offsetof(tl_site, first), sizeof s->first, ""},
        {offsetof(tl_site, line), sizeof s->line, ""},
    };
    size_t n = 3, at = 0;
    snprintf(f[0].value, sizeof f[0].value, "%s", pc);
    if (first >= 0)
        snprintf(f[1].value, sizeof f[1].value, ".Ltl_site_%ld", first);
    else
        snprintf(f[1].value, sizeof f[1].value, "0");
    snprintf(f[2].value, sizeof f[2].value, "%ld", line);
    for (int k = 0; k < TL_SITE_KINDS; k++, n++) {
        f[n] = (entry_field){offsetof(tl_site, widths) + k * sizeof s->widths[0], sizeof s->widths[0], ""};
        snprintf(f[n].value, sizeof f[n].value, "%u", widths ? widths[k] : 0);
    }
    qsort(f, n, sizeof *f, by_offset);
    if (i >= 0)
        fprintf(out, ".Ltl_site_%ld:\n", i);
    for (size_t j = 0; j < n; j++) {
        if (f[j].size >= sizeof directive / sizeof *directive || !directive[f[j].size]) {
            fprintf(stderr, "emu-sites: a field of %zu bytes in struct tl_site (sites.h), which no "
                            "assembler directive writes\n", f[j].size);
            exit(1);
        }
        if (f[j].offset > at)
            fprintf(out, "\t.zero\t%zu\n", f[j].offset - at);
        fprintf(out, "\t%s\t%s\n", directive[f[j].size], f[j].value);
        at = f[j].offset + f[j].size;
    }
    if (sizeof(tl_site) > at)
        fprintf(out, "\t.zero\t%zu\n", sizeof(tl_site) - at);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: emu-sites WIDTHS|- SRC IN.s OUT.s\n");
        return 2;
    }
    const char *widths_path = argv[1], *src = argv[2];
    int known = strcmp(widths_path, "-") != 0;
    size_t n_widths = 0, n_files = 0;
    tl_line_widths *widths = NULL;
    if (known) {
        FILE *f = fopen(widths_path, "r");
        if (!f) {
            perror(widths_path);
            return 1;
        }
        widths = tl_line_widths_read(f, &n_widths);
        fclose(f);
    }
    FILE *in = fopen(argv[3], "r"), *out = fopen(argv[4], "w");
    if (!in || !out) {
        perror(!in ? argv[3] : argv[4]);
        return 1;
    }
    size_t lines;
    char **files = main_files(in, src, &n_files, &lines);
    rewind(in);
    if (!hcreate(2 * lines + 16)) {
        perror("emu-sites");
        return 1;
    }

    regex_t check;
    if (regcomp(&check, "^[ \t]*call[ \t].*__asan_(load|store)", REG_EXTENDED | REG_NOSUB) != 0)
        return 1;
    site *sites = NULL;
    size_t n_sites = 0, cap = 0;
    char *text = NULL, *copy = NULL, *f[MAX_FIELDS], *last;
    size_t len = 0, copy_len = 0;
    /* The last .loc: its file number, line and column, as written. */
    char file[32] = "", line[32] = "", column[32] = "";
    ssize_t got;
    while ((got = getline(&text, &len, in)) > 0) {
        if ((size_t)got + 1 > copy_len)
            copy = grow(copy, copy_len = (size_t)got + 1, 1);
        memcpy(copy, text, (size_t)got + 1);
        int nf = fields(copy, f, MAX_FIELDS, &last);
        if (nf > 0 && strcmp(f[0], ".loc") == 0) {
            snprintf(file, sizeof file, "%s", nf > 1 ? f[1] : "");
            snprintf(line, sizeof line, "%s", nf > 2 ? f[2] : "");
            snprintf(column, sizeof column, "%s", nf > 3 ? f[3] : "");
        }
        fputs(text, out);
        if (text[got - 1] != '\n')
            fputc('\n', out);
        if (regexec(&check, text, 0, NULL, 0) != 0)
            continue;
        fprintf(out, ".Ltl_pc_%zu:\n", n_sites);
        int in_main = 0;
        for (size_t i = 0; i < n_files; i++)
            in_main |= strcmp(files[i], file) == 0;
        long l = in_main ? atol(line) : 0;
        char key[128];
        snprintf(key, sizeof key, "%ld:%s:%s", l, column, strstr(text, "__asan_load") ? "ld" : "st");
        if (n_sites == cap)
            sites = grow(sites, cap = cap ? 2 * cap : 256, sizeof *sites);
        sites[n_sites].first = first_check(key, n_sites);
        sites[n_sites++].line = l;
    }
    fprintf(out, "\t.section\ttl_sites,\"aw\"\n\t.balign\t%zu\n", _Alignof(tl_site));
    entry(out, -1, "0", -1, known, NULL);
    for (size_t i = 0; i < n_sites; i++) {
        char pc[32];
        snprintf(pc, sizeof pc, ".Ltl_pc_%zu", i);
        const tl_line_widths *w = widths_of(widths, n_widths, sites[i].line);
        entry(out, (long)i, pc, (long)sites[i].first, sites[i].line, w ? w->widths : NULL);
    }
    if (ferror(out) || fclose(out) != 0) {
        perror(argv[4]);
        return 1;
    }
    return 0;
}
