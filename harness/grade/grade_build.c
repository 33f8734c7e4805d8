/* A hand-in's lab built in its sandbox: grade_lab.h. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_command.h"
#include "grade_lab.h"
#include "grade_outcomes.h"
#include "grade_text.h"

#define LOG_MAX (1L << 20)

int tl_build(const tl_grading *g, const char *log, const char *mode, const char *backend, char *const *targets)
{
    char build[PATH_MAX + 2], labs[1024], student[PATH_MAX + 16], prebuilt[PATH_MAX + 24], gpu[64];
    snprintf(build, sizeof build, "B=%s/build", g->sandbox.work);
    snprintf(labs, sizeof labs, "LABS=%s", g->labs);
    snprintf(student, sizeof student, "STUDENT_DIR=%s/submission/labs", g->sandbox.work);
    /* setpriv: a copy of the references the hand-in's group alone reads (grade_setpriv.c) */
    if (!strcmp(g->sandbox.kind, "setpriv"))
        snprintf(prebuilt, sizeof prebuilt, "REFERENCE_PREBUILT=%s/prebuilt", g->sandbox.work);
    else
        snprintf(prebuilt, sizeof prebuilt, "REFERENCE_PREBUILT=%s", g->sandbox.prebuilt);
    snprintf(gpu, sizeof gpu, "GPU=%s", strcmp(backend, "cpu") ? backend : "emu");
    tl_argv make = {0};
    const char *first[] = {"make", "-s", "-C", g->sandbox.root, build, labs, student, prebuilt, gpu, "OPT=-O3"};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        tl_argv_add(&make, first[i]);
    for (char *const *t = targets; *t; t++)
        tl_argv_add(&make, *t);
    tl_command c = {.limit = g->build_limit, .output = log, .mode = mode, .argv = make.v};
    char *words = tl_command_run(g, &c);
    int built = !strcmp(words, "ok\n");
    free(words);
    tl_argv_free(&make);
    char *quota = tl_over_quota(g, NULL);
    if (quota) {
        tl_output_append(log, "%s\n", quota);
        free(quota);
        return 1;
    }
    if (!built) {
        char *said = tl_slurp(log, LOG_MAX);
        if (strstr(said, "File size limit exceeded"))
            tl_output_append(log, "the build wrote a file larger than %ld MiB, the most the grader allows one file "
                                  "of a build\n", g->file_limit >> 20);
        free(said);
    }
    return !built;
}
