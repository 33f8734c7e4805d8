/* Which tests each suite run of a lab holds: grade_plan.h. */
#define _GNU_SOURCE
#include "grade_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 1024

typedef struct {
    char kind[64], id[512], seconds[32];
} test;

static int read_manifest(const char *path, test *tests)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;
    if (!f) {
        perror(path);
        return -1;
    }
    while (n < MAX_TESTS && fgets(line, sizeof line, f)) {
        test *t = &tests[n];
        if (sscanf(line, "%63[^\t]\t%511[^\t]\t%31[^\t\n]", t->kind, t->id, t->seconds) == 3)
            n++;
    }
    fclose(f);
    return n;
}

int tl_plan(const char *manifest, const char *which, int flags, FILE *out)
{
    int visible = !strcmp(which, "visible"), technique_run = !strcmp(which, "technique"),
        held_run = !strcmp(which, "held-back");
    if (!visible && !technique_run && !held_run)
        return 2;
    if ((flags & TL_PLAN_TECHNIQUE_APART && !visible) || (flags & (TL_PLAN_SEED | TL_PLAN_CASES) && !held_run))
        return 2;
    test *tests = malloc(MAX_TESTS * sizeof *tests);
    int n = tests ? read_manifest(manifest, tests) : -1;
    /* The manifest lists the tests last to run first (tl_test.h). */
    for (int i = n - 1; i >= 0; i--) {
        const test *t = &tests[i];
        int technique = !strcmp(t->kind, "technique"), held = !strcmp(t->kind, "held-back");
        if (visible && !held && !(flags & TL_PLAN_TECHNIQUE_APART && technique))
            fprintf(out, "%s\t%s\t%s\t\n", t->kind, t->id, t->seconds);
        else if (technique_run && technique)
            fprintf(out, "%s\t%s\t%s\t\n", t->kind, t->id, t->seconds);
        else if (held_run && flags & TL_PLAN_SEED && !strcmp(t->kind, "random"))
            fprintf(out, "held-back\t%s\t%s\t (held-back seed)\n", t->id, t->seconds);
        else if (held_run && flags & TL_PLAN_CASES && held)
            fprintf(out, "held-back\t%s\t%s\t\n", t->id, t->seconds);
    }
    free(tests);
    return n < 0;
}

/* Every correctness test of lab recorded in outcomes passed (grade_report.c's "test" lines). */
int tl_lab_correct(const char *outcomes, const char *lab)
{
    FILE *f = fopen(outcomes, "r");
    char line[8192];
    int all = 1;
    if (!f) {
        perror(outcomes);
        return 0;
    }
    while (all && fgets(line, sizeof line, f)) {
        char *field[5], *save = NULL, *p = line;
        int k = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *s = strtok_r(p, "\t", &save); s && k < 5; s = strtok_r(NULL, "\t", &save))
            field[k++] = s;
        if (k == 5 && !strcmp(field[0], "test") && !strcmp(field[1], lab) && strcmp(field[2], "technique") &&
            strcmp(field[4], "pass"))
            all = 0;
    }
    fclose(f);
    return all;
}
