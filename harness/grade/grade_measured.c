/* What one lab's measurement came to, as its line of outcomes.tsv: grade_measured.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_measured.h"
#include "grade_outcomes.h"
#include "grade_text.h"

#define OUTPUT_MAX (1L << 20) /* a run's output, as grade-run kept it */
#define TAIL_BYTES 1500       /* of a failed run's output, told the student */

/* The CPU labs' runs: the reference's build without its call (the baseline, whose
 * counts every run has), the reference, the student's (grade_perf.c). */
const tl_callgrind_run tl_callgrind_runs[TL_CALLGRIND_RUNS] = {
    {"baseline", "reference", "skip"},
    {"reference", "reference", "call"},
    {"student", "student", "call"},
};

int tl_measured_none(const char *outcomes, const char *outputs, const char *lab, const char *reason, const char *why)
{
    char *path = tl_output_new(outputs, why);
    if (!path)
        return 1;
    const char *fields[] = {"perf", lab, "none", reason, "-", "-", path};
    int rc = tl_outcome(outcomes, fields, 7);
    free(path);
    return rc;
}

/* The last TAIL_BYTES of a run's output, its trailing newlines left out. */
static char *output_tail(const char *output)
{
    char *all = tl_slurp(output, OUTPUT_MAX);
    size_t n = strlen(all), from = n > TAIL_BYTES ? n - TAIL_BYTES : 0;
    while (n > from && all[n - 1] == '\n')
        n--;
    char *tail = strndup(all + from, n - from);
    free(all);
    return tail;
}

/* The text after prefix on the last line of text that starts with it, or NULL. */
static char *last_line_after(const char *text, const char *prefix)
{
    char *found = NULL;
    size_t n = strlen(prefix);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, prefix, n))
            continue;
        const char *end = strchr(l, '\n');
        free(found);
        found = strndup(l + n, end ? (size_t)(end - l) - n : strlen(l + n));
    }
    return found;
}

/* The first line of text that starts with one of prefixes, from its byte skip on, or NULL. */
static char *first_line(const char *text, const char *const *prefixes, int n, size_t skip)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        for (int i = 0; i < n; i++)
            if (!strncmp(l, prefixes[i], strlen(prefixes[i]))) {
                const char *end = strchr(l, '\n');
                return strndup(l + skip, end ? (size_t)(end - l) - skip : strlen(l + skip));
            }
    return NULL;
}

/* Why a failed run of the cache simulation measured nothing, from what it said. */
static char *callgrind_failure(const tl_measured_run *r, const char **reason)
{
    char *out = tl_slurp(r->output, OUTPUT_MAX), *why;
    /* grade-confine's word for a system call the measured process may not make (SIGSYS) */
    static const char *const killed[] = {"tilelab: killed by signal 31 "};
    /* grade_perf.c's own word for a hand-in it would not measure */
    static const char *const refused[] = {"not measured: your transpose ", "not measured: your code "};
    char *seen = first_line(out, killed, 1, 0);
    *reason = seen ? "forbidden-call" : "refused";
    if (seen)
        why = strdup("your code tried to start another process or program while it was measured (fork(), "
                     "system(), popen(), exec...), or to have the kernel move memory for it "
                     "(process_vm_readv(), vmsplice(), asynchronous I/O...): the cache simulation follows one "
                     "process's own loads and stores, so the grader stops it there, and nothing was measured");
    else
        why = first_line(out, refused, 2, strlen("not measured: "));
    free(seen);
    if (!why) {
        char *tail = output_tail(r->output);
        *reason = "run-failed";
        if (asprintf(&why, "the %s run of the cache simulation failed (a crash, a wrong result, or the time limit): %s",
                     r->name, tail) < 0)
            why = NULL;
        free(tail);
    }
    free(out);
    return why;
}

/* The digest of the output the run printed last (grade_perf.c), or "". */
static char *digest(const tl_measured_run *r)
{
    char *out = tl_slurp(r->output, OUTPUT_MAX), *d = last_line_after(out, "transposed: ");
    free(out);
    return d ? d : strdup("");
}

static const tl_measured_run *named(const tl_measured_run *runs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(runs[i].name, name))
            return &runs[i];
    return NULL;
}

static int record_callgrind(const char *outcomes, const char *outputs, const char *lab, const char *dir,
                            const char *size, const tl_measured_run *runs, int n)
{
    char *why = NULL;
    const char *reason = NULL;
    for (int i = 0; i < n && !why; i++)
        if (strcmp(runs[i].status, "ok"))
            why = callgrind_failure(&runs[i], &reason);
    const tl_measured_run *student = named(runs, n, "student"), *reference = named(runs, n, "reference");
    if (!why && (!student || !reference)) {
        fprintf(stderr, "grade-lab: the student's and the reference's runs are both needed\n");
        return 2;
    }
    if (!why) {
        char *mine = digest(student), *theirs = digest(reference);
        reason = *mine ? "wrong-result" : "ended-early";
        if (!*mine)
            why = strdup("your code ended the measured run before its output could be checked (exit() in the lab "
                         "code?), so nothing was measured");
        else if (strcmp(mine, theirs) &&
                 asprintf(&why, "your transpose of the %s x %s matrix the grader measures was wrong (its digest is "
                                "not the reference's): measured only when right",
                          size, size) < 0)
            why = NULL;
        free(mine);
        free(theirs);
    }
    if (why) {
        int rc = tl_measured_none(outcomes, outputs, lab, reason, why);
        free(why);
        return rc;
    }
    char files[TL_CALLGRIND_RUNS][4096];
    for (int i = 0; i < TL_CALLGRIND_RUNS; i++)
        snprintf(files[i], sizeof files[i], "%s/%s/callgrind.out", dir,
                 (const char *[]){"student", "reference", "baseline"}[i]);
    const char *fields[] = {"perf", lab, "callgrind", files[0], files[1], files[2], student->output};
    return tl_outcome(outcomes, fields, 7);
}

/* The emulator's profile (emu) and the bench's record (gpu): one run, one file. */
static int record_one(const char *outcomes, const char *outputs, const char *lab, const char *method,
                      const char *dir, const tl_measured_run *r)
{
    int gpu = !strcmp(method, "gpu");
    if (strcmp(r->status, "ok")) {
        char *tail = output_tail(r->output), *why;
        int rc = 1;
        if (asprintf(&why, "%s failed (a crash, a wrong result, or the time limit): %s",
                     gpu ? "the bench" : "the emulator's profile", tail) >= 0) {
            rc = tl_measured_none(outcomes, outputs, lab, "run-failed", why);
            free(why);
        }
        free(tail);
        return rc;
    }
    char file[4096];
    snprintf(file, sizeof file, "%s/%s", dir, gpu ? "bench.tsv" : "profile.csv");
    const char *fields[] = {"perf", lab, method, file, "-", "-", r->output};
    return tl_outcome(outcomes, fields, 7);
}

int tl_measured_record(const char *outcomes, const char *outputs, const char *lab, const char *method,
                       const char *dir, const char *size, const tl_measured_run *runs, int n)
{
    if (!strcmp(method, "callgrind"))
        return record_callgrind(outcomes, outputs, lab, dir, size, runs, n);
    if (n != 1 || (strcmp(method, "emu") && strcmp(method, "gpu"))) {
        fprintf(stderr, "grade-lab: %s measures in one run, not %d\n", method, n);
        return 2;
    }
    return record_one(outcomes, outputs, lab, method, dir, &runs[0]);
}
