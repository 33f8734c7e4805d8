/*
 * grade-lab: what the grader does for a lab of a hand-in (grade_lab.h), for
 * grade.sh, each command in its sandbox under its limits (grade_command.h),
 * what it saw recorded (grade_outcomes.h).
 *
 * usage: grade-lab --grading FILE --outcomes FILE --records DIR COMMAND...
 *
 *   lab LAB DIR FILE KIND OPERATION
 *                                  grades the lab (its folder labs/DIR, its file
 *                                  FILE, KIND cpu or gpu, its OPERATION), and
 *                                  records what became of it (tl_grade_lab)
 *   build MODE BACKEND TARGET...   builds the targets (MODE build or link; BACKEND
 *                                  cpu, emu or cuda); prints its log's path
 *   correct LAB                    exits 0 where every correctness test of LAB
 *                                  recorded in the outcomes passed, 1 otherwise
 *   measure LAB KIND BACKEND       measures the lab's performance (KIND cpu or gpu;
 *                                  BACKEND emu or cuda), and records it
 *   run LIMIT OUTPUT MODE [DIR] -- COMMAND...
 *                                  runs COMMAND in the sandbox's MODE, within LIMIT
 *                                  seconds of CPU time; prints grade-run's word
 *   record FIELD...                a line of outcomes
 *   say FIELD... TEXT              ... and a last field: a fresh file holding TEXT
 *
 * FILE (--grading) is the grading, as grade.sh wrote it (grade_grading.h);
 * --outcomes and --records: where this lab's lines and records go (a lab
 * graded beside others has its own, merged once all are graded).
 *
 * Exit status: 0; 1 where the thing could not be done (build: not built; correct:
 * not all passed); 2 for usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_command.h"
#include "grade_lab.h"
#include "grade_outcomes.h"
#include "grade_plan.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: grade-lab --grading FILE --outcomes FILE --records DIR COMMAND...\n"
            "  lab LAB DIR FILE KIND OPERATION\n"
            "  build MODE BACKEND TARGET...\n"
            "  correct LAB\n"
            "  measure LAB KIND BACKEND\n"
            "  run LIMIT OUTPUT MODE [DIR] -- COMMAND...\n"
            "  record FIELD...\n"
            "  say FIELD... TEXT\n");
    return 2;
}

static int build(const tl_grading *g, int argc, char **argv)
{
    if (argc < 3)
        return usage();
    char *log = tl_output_new(g->outputs, NULL);
    if (!log)
        return 1;
    int rc = tl_build(g, log, argv[0], argv[1], argv + 2);
    printf("%s\n", log);
    free(log);
    return rc;
}

static int run(const tl_grading *g, int argc, char **argv)
{
    if (argc < 5)
        return usage();
    tl_command c = {.limit = atof(argv[0]), .output = argv[1], .mode = argv[2]};
    int dash = 3;
    if (strcmp(argv[dash], "--"))
        c.dir = argv[dash++];
    if (dash + 1 >= argc || strcmp(argv[dash], "--") || c.limit <= 0)
        return usage();
    c.argv = argv + dash + 1;
    char *words = tl_command_run(g, &c);
    fputs(words, stdout);
    free(words);
    return 0;
}

static int say(const tl_grading *g, int argc, char **argv)
{
    if (argc < 2)
        return usage();
    char *said = tl_output_new(g->outputs, argv[argc - 1]);
    if (!said)
        return 1;
    argv[argc - 1] = said;
    int rc = tl_outcome(g->outcomes, (const char *const *)argv, argc);
    free(said);
    return rc;
}

int main(int argc, char **argv)
{
    const char *grading = NULL, *outcomes = NULL, *records = NULL;
    int i = 1;
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
        if (!strcmp(argv[i], "--grading"))
            grading = argv[i + 1];
        else if (!strcmp(argv[i], "--outcomes"))
            outcomes = argv[i + 1];
        else if (!strcmp(argv[i], "--records"))
            records = argv[i + 1];
        else
            return usage();
    }
    if (!grading || !outcomes || !records || i >= argc)
        return usage();
    tl_grading g;
    if (tl_grading_read(grading, outcomes, records, &g))
        return 1;
    const char *command = argv[i];
    int n = argc - i - 1;
    char **args = argv + i + 1;
    int rc;
    if (!strcmp(command, "lab") && n == 5) {
        tl_lab lab = {.lab = args[0], .dir = args[1], .file = args[2], .kind = args[3], .op = args[4]};
        rc = tl_grade_lab(&g, &lab);
    } else if (!strcmp(command, "build"))
        rc = build(&g, n, args);
    else if (!strcmp(command, "correct") && n == 1)
        rc = !tl_lab_correct(g.outcomes, args[0]);
    else if (!strcmp(command, "measure") && n == 3)
        rc = tl_measure(&g, args[0], args[1], args[2]);
    else if (!strcmp(command, "run"))
        rc = run(&g, n, args);
    else if (!strcmp(command, "record") && n >= 1)
        rc = tl_outcome(g.outcomes, (const char *const *)args, n);
    else if (!strcmp(command, "say"))
        rc = say(&g, n, args);
    else
        rc = usage();
    free(g.text);
    return rc;
}
