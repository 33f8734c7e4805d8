/* An instructor's held-back cases, read: grade_held_back.h. */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_held_back.h"
#include "op.h"

/* The kinds of case a file may hold: the seed, then each operation's keyword once (two
 * operations may share one: matmul and sgemm, products). */
#define KINDS 16
#define SEED 0

typedef struct {
    struct {
        const char *key, *are;
        char pattern[256];
    } at[KINDS];
    int n;
} case_kinds;

/* A case's regular expression from the form .held_back_are shows first ("RxC,RxC,...":
 * [0-9]+x[0-9]+), each run of capitals a number. */
static void pattern_of(const char *are, char *out, size_t len)
{
    char item[96] = "";
    size_t n = 0;
    for (const char *p = are; *p && *p != ',' && *p != ' ' && n + 8 < sizeof item; p++)
        if (*p >= 'A' && *p <= 'Z') {
            if (p == are || !(p[-1] >= 'A' && p[-1] <= 'Z'))
                n += (size_t)snprintf(item + n, sizeof item - n, "[0-9]+");
        } else {
            item[n++] = *p;
            item[n] = '\0';
        }
    snprintf(out, len, "^%s(,%s)*$", item, item);
}

static void list_kinds(case_kinds *kinds)
{
    kinds->at[SEED].key = "seed";
    kinds->at[SEED].are = "N                 every random test again, with seed N";
    snprintf(kinds->at[SEED].pattern, sizeof kinds->at[SEED].pattern, "^[0-9]+$");
    kinds->n = 1;
    for (int i = 0; tl_op_at(i) && kinds->n < KINDS; i++) {
        const tl_op *op = tl_op_at(i);
        int k = 0;
        if (!op->held_back)
            continue;
        while (k < kinds->n && strcmp(kinds->at[k].key, op->held_back))
            k++;
        if (k < kinds->n)
            continue;
        kinds->at[k].key = op->held_back;
        kinds->at[k].are = op->held_back_are;
        pattern_of(op->held_back_are, kinds->at[k].pattern, sizeof kinds->at[k].pattern);
        kinds->n++;
    }
}

/* The kind of held-back case operation op is given: its descriptor's keyword; -1 for none. */
static int cases_of(const case_kinds *kinds, const char *name)
{
    const tl_op *op = tl_op_named(name);
    for (int k = 1; op && op->held_back && k < kinds->n; k++)
        if (!strcmp(kinds->at[k].key, op->held_back))
            return k;
    return -1;
}

static int bad_line(const case_kinds *kinds, const char *file, int n, const char *line)
{
    fprintf(stderr, "grade: %s, line %d: '%s' is not one of\n", file, n, line);
    for (int k = 0; k < kinds->n; k++)
        fprintf(stderr, "    %s %s\n", kinds->at[k].key, kinds->at[k].are);
    return 2;
}

/* As the shell's "read key value rest": the first word, the second, and what
 * follows them with the blanks around it left out; NULL where there is none. */
static void split(char *line, char *words[3])
{
    static const char blank[] = " \t\r";
    char *p = line;
    for (int k = 0; k < 3; k++) {
        p += strspn(p, blank);
        words[k] = *p ? p : NULL;
        if (!*p)
            continue;
        if (k < 2) {
            p += strcspn(p, blank);
            if (*p)
                *p++ = '\0';
        } else {
            size_t n = strlen(p);
            while (n && strchr(blank, p[n - 1]))
                p[--n] = '\0';
        }
    }
}

/* Reads file into value[kind] (NULL where it has none); 0, or 2 with why said. */
static int read_cases(const case_kinds *kinds, const char *file, char *value[KINDS])
{
    FILE *f = fopen(file, "r");
    char *line = NULL;
    size_t cap = 0;
    int n = 0, rc = 0;
    if (!f) {
        fprintf(stderr, "grade: cannot read the held-back cases: %s\n", file);
        return 2;
    }
    while (!rc && getline(&line, &cap, f) >= 0) {
        n++;
        char *words[3], shown[1024];
        line[strcspn(line, "\n")] = '\0';
        split(line, words);
        if (!words[0] || words[0][0] == '#')
            continue;
        /* the line as read: key, value and whatever follows, one space apart */
        snprintf(shown, sizeof shown, "%s %s%s%s", words[0], words[1] ? words[1] : "", words[2] ? " " : "",
                 words[2] ? words[2] : "");
        int kind = 0;
        while (kind < kinds->n && strcmp(words[0], kinds->at[kind].key))
            kind++;
        regex_t re;
        int ok = kind < kinds->n && words[1] && !words[2];
        if (ok) {
            regcomp(&re, kinds->at[kind].pattern, REG_EXTENDED | REG_NOSUB);
            ok = regexec(&re, words[1], 0, NULL, 0) == 0;
            regfree(&re);
        }
        if (!ok) {
            rc = bad_line(kinds, file, n, shown);
        } else {
            free(value[kind]);
            value[kind] = strdup(words[1]);
        }
    }
    free(line);
    fclose(f);
    return rc;
}

int tl_held_back(const char *file, const char *op, char **input)
{
    char *value[KINDS] = {0};
    case_kinds kinds;
    list_kinds(&kinds);
    if (op && !tl_op_named(op)) {
        fprintf(stderr, "grade-held-back: no operation '%s' in the kit's table (harness/core/ops/)\n", op);
        return 2;
    }
    int rc = read_cases(&kinds, file, value);
    if (!rc && op) {
        int k = cases_of(&kinds, op);
        size_t len = 0;
        FILE *m = open_memstream(input, &len);
        if (value[SEED])
            fprintf(m, "TILELAB_SEED=%s\n", value[SEED]);
        if (k > 0 && value[k])
            fprintf(m, "TILELAB_HIDDEN=%s\n", value[k]);
        fclose(m);
    }
    for (int k = 0; k < KINDS; k++)
        free(value[k]);
    return rc;
}
