/*
 * grade-plan: which of a lab's tests the grader runs in each of its suite
 * runs, and whether the lab's performance is to be measured; grade.sh runs
 * what it says.
 *
 * usage: grade-plan run MANIFEST visible [--technique-apart]
 *        grade-plan run MANIFEST technique
 *        grade-plan run MANIFEST held-back [--seed] [--cases]
 *        grade-plan correct OUTCOMES LAB
 *
 * run: the tests of one suite run, in the order they run, one a line: the
 * kind the grader records (grade_report.c), the test (SUITE/TEST), its
 * seconds and a tag for its name, tab-separated. MANIFEST is the suite's
 * own list, written from the reference's build (tests/tl_test.h: "kind
 * suite/test seconds" a line, the last to run first).
 *   visible    every test but the held-back ones (and, --technique-apart,
 *              the technique tests: on a GPU they run in the emulator's build)
 *   technique  the technique tests alone
 *   held-back  the random tests again with the held-back seed (--seed), and
 *              the held-back tests with the held-back cases of the lab's
 *              operation (--cases), each kind "held-back": they run last, in
 *              a sandbox of their own, and are never shown to the student
 *
 * correct: exits 0 where every correctness test of LAB recorded so far in
 * OUTCOMES passed (technique tests aside): performance counts only then
 * (grade_report.c), so it is measured only then; 1 otherwise.
 *
 * Exit status: 0; 1 (correct: not all passed; a file that cannot be read); 2 for usage.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 1024

typedef struct {
    char kind[64], id[512], seconds[32];
} test;

static int usage(void)
{
    fprintf(stderr, "usage: grade-plan run MANIFEST visible [--technique-apart]\n"
                    "       grade-plan run MANIFEST technique\n"
                    "       grade-plan run MANIFEST held-back [--seed] [--cases]\n"
                    "       grade-plan correct OUTCOMES LAB\n");
    return 2;
}

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

static int run(const char *manifest, const char *which, int argc, char **argv)
{
    int apart = 0, seed = 0, cases = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--technique-apart") && !strcmp(which, "visible"))
            apart = 1;
        else if (!strcmp(argv[i], "--seed") && !strcmp(which, "held-back"))
            seed = 1;
        else if (!strcmp(argv[i], "--cases") && !strcmp(which, "held-back"))
            cases = 1;
        else
            return usage();
    }
    if (strcmp(which, "visible") && strcmp(which, "technique") && strcmp(which, "held-back"))
        return usage();
    static test tests[MAX_TESTS];
    int n = read_manifest(manifest, tests);
    if (n < 0)
        return 1;
    /* The manifest lists the tests last to run first (tl_test.h). */
    for (int i = n - 1; i >= 0; i--) {
        const test *t = &tests[i];
        int technique = !strcmp(t->kind, "technique"), held = !strcmp(t->kind, "held-back");
        if (!strcmp(which, "visible") && !held && !(apart && technique))
            printf("%s\t%s\t%s\t\n", t->kind, t->id, t->seconds);
        else if (!strcmp(which, "technique") && technique)
            printf("%s\t%s\t%s\t\n", t->kind, t->id, t->seconds);
        else if (!strcmp(which, "held-back") && seed && !strcmp(t->kind, "random"))
            printf("held-back\t%s\t%s\t (held-back seed)\n", t->id, t->seconds);
        else if (!strcmp(which, "held-back") && cases && held)
            printf("held-back\t%s\t%s\t\n", t->id, t->seconds);
    }
    return 0;
}

/* Every correctness test of lab recorded in outcomes passed (grade_report.c's "test" lines). */
static int correct(const char *outcomes, const char *lab)
{
    FILE *f = fopen(outcomes, "r");
    char line[8192];
    int all = 1;
    if (!f) {
        perror(outcomes);
        return 1;
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
    return !all;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "run"))
        return run(argv[2], argv[3], argc - 4, argv + 4);
    if (argc == 4 && !strcmp(argv[1], "correct"))
        return correct(argv[2], argv[3]);
    return usage();
}
