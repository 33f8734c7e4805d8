/*
 * grade-held-back: an instructor's held-back cases (HIDDEN=), read.
 *
 * usage: grade-held-back FILE        is every line of FILE one the grader reads?
 *        grade-held-back FILE OP     what a suite of operation OP reads on its
 *                                    standard input for them
 *
 * FILE holds a kind a line, # for comments (the last line of a kind counts):
 *
 *   seed 4242                   every random test again, with this seed
 *
 * and the operations' own keywords, each with its cases (harness/core/ops/:
 * an operation's .held_back, and .held_back_are, what follows it), e.g.
 *
 *   shapes 97x1031,4095x33      transposes: rows x cols
 *   products 97x65x1031         matrix products (labs 7-8): m x n x k
 *
 * A line it cannot read is said, with what it should be, and it exits 2:
 * the grader stops before it grades anyone, rather than leaving a case
 * silently out (grade.sh, grade-all.sh, grade-slurm.sh, gradescope.sh).
 *
 * With OP, it prints "TILELAB_SEED=N" and "TILELAB_HIDDEN=CASES" lines, each
 * where FILE has its kind: what the suite reads on its standard input
 * (tests/tl_test.h), never on a command line or in an environment, which a
 * lab's code could read.
 *
 * Exit status: 0; 2 for a line it cannot read, a file it cannot open, or usage.
 */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"

/* The kinds of case a file may hold: the seed, then each operation's keyword once (two
 * operations may share one: matmul and sgemm, products). */
#define KINDS 16
#define SEED 0

static struct {
    const char *key, *are;
    char pattern[256];
} kinds[KINDS];
static int n_kinds;

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

static void list_kinds(void)
{
    kinds[SEED].key = "seed";
    kinds[SEED].are = "N                 every random test again, with seed N";
    snprintf(kinds[SEED].pattern, sizeof kinds[SEED].pattern, "^[0-9]+$");
    n_kinds = 1;
    for (int i = 0; tl_op_at(i) && n_kinds < KINDS; i++) {
        const tl_op *op = tl_op_at(i);
        int k = 0;
        if (!op->held_back)
            continue;
        while (k < n_kinds && strcmp(kinds[k].key, op->held_back))
            k++;
        if (k < n_kinds)
            continue;
        kinds[k].key = op->held_back;
        kinds[k].are = op->held_back_are;
        pattern_of(op->held_back_are, kinds[k].pattern, sizeof kinds[k].pattern);
        n_kinds++;
    }
}

/* The kind of held-back case operation op is given: its descriptor's keyword; -1 for none. */
static int cases_of(const char *name)
{
    const tl_op *op = tl_op_named(name);
    for (int k = 1; op && op->held_back && k < n_kinds; k++)
        if (!strcmp(kinds[k].key, op->held_back))
            return k;
    return -1;
}

static int bad_line(const char *file, int n, const char *line)
{
    fprintf(stderr, "grade: %s, line %d: '%s' is not one of\n", file, n, line);
    for (int k = 0; k < n_kinds; k++)
        fprintf(stderr, "    %s %s\n", kinds[k].key, kinds[k].are);
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
static int read_cases(const char *file, char *value[KINDS])
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
        while (kind < n_kinds && strcmp(words[0], kinds[kind].key))
            kind++;
        regex_t re;
        int ok = kind < n_kinds && words[1] && !words[2];
        if (ok) {
            regcomp(&re, kinds[kind].pattern, REG_EXTENDED | REG_NOSUB);
            ok = regexec(&re, words[1], 0, NULL, 0) == 0;
            regfree(&re);
        }
        if (!ok) {
            rc = bad_line(file, n, shown);
        } else {
            free(value[kind]);
            value[kind] = strdup(words[1]);
        }
    }
    free(line);
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: grade-held-back FILE [OPERATION]\n");
        return 2;
    }
    char *value[KINDS] = {0};
    list_kinds();
    if (argc == 3 && !tl_op_named(argv[2])) {
        fprintf(stderr, "grade-held-back: no operation '%s' in the kit's table (harness/core/ops/)\n", argv[2]);
        return 2;
    }
    int rc = read_cases(argv[1], value);
    if (!rc && argc == 3) {
        int k = cases_of(argv[2]);
        if (value[SEED])
            printf("TILELAB_SEED=%s\n", value[SEED]);
        if (k > 0 && value[k])
            printf("TILELAB_HIDDEN=%s\n", value[k]);
    }
    for (int k = 0; k < KINDS; k++)
        free(value[k]);
    return rc;
}
