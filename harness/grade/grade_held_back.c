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
 *   shapes 97x1031,4095x33      transposes: rows x cols
 *   products 97x65x1031         matrix products (labs 7-8): m x n x k
 *   sides 97,1031,4095          in-place transposes (lab 9): n x n matrices
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

enum { SEED, SHAPES, PRODUCTS, SIDES, KINDS };

static const struct {
    const char *key, *pattern;
} kinds[KINDS] = {
    [SEED] = {"seed", "^[0-9]+$"},
    [SHAPES] = {"shapes", "^[0-9]+x[0-9]+(,[0-9]+x[0-9]+)*$"},
    [PRODUCTS] = {"products", "^[0-9]+x[0-9]+x[0-9]+(,[0-9]+x[0-9]+x[0-9]+)*$"},
    [SIDES] = {"sides", "^[0-9]+(,[0-9]+)*$"},
};

/* The kind of held-back case an operation is given: the one place the grader
 * knows it (labs.mk's labNN_op), until the operations' table says it. */
static int cases_of(const char *op)
{
    if (!strcmp(op, "transpose"))
        return SHAPES;
    if (!strcmp(op, "inplace"))
        return SIDES;
    return PRODUCTS;
}

static int bad_line(const char *file, int n, const char *line)
{
    fprintf(stderr,
            "grade: %s, line %d: '%s' is not one of\n"
            "    seed N                 every random test again, with seed N\n"
            "    shapes RxC,RxC,...     transposes: rows x cols, no spaces\n"
            "    products MxNxK,...     matrix products (labs 7-8): m x n x k\n"
            "    sides N,N,...          in-place transposes (lab 9): N x N matrices\n",
            file, n, line);
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
        while (kind < KINDS && strcmp(words[0], kinds[kind].key))
            kind++;
        regex_t re;
        int ok = kind < KINDS && words[1] && !words[2];
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
    int rc = read_cases(argv[1], value);
    if (!rc && argc == 3) {
        if (value[SEED])
            printf("TILELAB_SEED=%s\n", value[SEED]);
        if (value[cases_of(argv[2])])
            printf("TILELAB_HIDDEN=%s\n", value[cases_of(argv[2])]);
    }
    for (int k = 0; k < KINDS; k++)
        free(value[k]);
    return rc;
}
