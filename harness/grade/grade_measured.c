/*
 * grade-measured: what the runs of one lab's measurement are, and what they
 * came to, as the line of outcomes.tsv that grade-report scores (its "perf"
 * line: grade_report.c). grade.sh runs the commands, in their sandbox; the
 * decisions are here.
 *
 * usage: grade-measured runs callgrind
 *        grade-measured record OUTCOMES OUTPUTS LAB METHOD DIR [SIZE] [NAME=STATUS=OUTPUT]...
 *        grade-measured none OUTCOMES OUTPUTS LAB REASON TEXT
 *
 * runs: the runs a method takes, in their order, one a line: the run's name
 * (its folder under the measurement's), the build it runs (student or
 * reference) and what it does (call, or skip: all but the call, whose counts
 * are subtracted). Only callgrind (the CPU labs) takes more than one.
 *
 * record: the runs of METHOD (callgrind, emu or gpu) made in DIR, each with
 * how grade-run said it ended (ok or fail) and its output, in the order they
 * ran; the first that failed is the last given. SIZE: the side of the matrix
 * callgrind's runs transposed. Appends the perf line to OUTCOMES: the raw
 * files grade-report reads, or, where nothing can be read, "none", the reason
 * as a word (results.json gives it) and why, for the student, in a file of its
 * own made in OUTPUTS:
 *   forbidden-call  the measured process made a system call it may not
 *                   (another process, the kernel moving memory: grade-confine)
 *   refused         the measuring program would not measure it (grade_perf.c)
 *   run-failed      a run crashed, was wrong, or ran out of time
 *   ended-early     the student's run printed no digest of its output
 *   wrong-result    its digest is not the reference's
 *
 * none: the lab's performance not measured, its REASON (build: the measuring
 * program did not build; disk-quota) and why (TEXT).
 *
 * Exit status: 0 once the line is written; 1 where it could not be; 2 for usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade_text.h"

#define OUTPUT_MAX (1L << 20) /* a run's output, as grade-run kept it */
#define TAIL_BYTES 1500       /* of a failed run's output, told the student */

/* The CPU labs' runs: the reference's build without its call (the baseline, whose
 * counts every run has), the reference, the student's (grade_perf.c). */
static const char *const callgrind_runs[][3] = {
    {"baseline", "reference", "skip"},
    {"reference", "reference", "call"},
    {"student", "student", "call"},
};
#define CALLGRIND_RUNS 3

typedef struct {
    const char *name, *status, *output;
} run;

static int usage(void)
{
    fprintf(stderr, "usage: grade-measured runs callgrind\n"
                    "       grade-measured record OUTCOMES OUTPUTS LAB METHOD DIR [SIZE] [NAME=STATUS=OUTPUT]...\n"
                    "       grade-measured none OUTCOMES OUTPUTS LAB REASON TEXT\n");
    return 2;
}

/* One line of OUTCOMES, its fields tab-separated, in one write: labs graded side by
 * side append to their own, but grade-all's second pass appends beside the first's. */
static int append(const char *outcomes, const char *const *fields, int n)
{
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    for (int i = 0; i < n; i++)
        fprintf(m, "%s%s", i ? "\t" : "", fields[i]);
    fputc('\n', m);
    fclose(m);
    int fd = open(outcomes, O_WRONLY | O_APPEND | O_CREAT, 0644);
    int ok = fd >= 0 && write(fd, line, len) == (ssize_t)len;
    if (fd >= 0)
        close(fd);
    free(line);
    if (!ok)
        perror(outcomes);
    return ok ? 0 : 1;
}

/* Not measured, and why: the why in a fresh file of OUTPUTS. */
static int none(const char *outcomes, const char *outputs, const char *lab, const char *reason, const char *why)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/out-XXXXXX", outputs);
    int fd = mkstemp(path);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n", why);
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    const char *fields[] = {"perf", lab, "none", reason, "-", "-", path};
    return append(outcomes, fields, 7);
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
static char *callgrind_failure(const run *r, const char **reason)
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
static char *digest(const run *r)
{
    char *out = tl_slurp(r->output, OUTPUT_MAX), *d = last_line_after(out, "transposed: ");
    free(out);
    return d ? d : strdup("");
}

static const run *named(const run *runs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(runs[i].name, name))
            return &runs[i];
    return NULL;
}

static int record_callgrind(const char *outcomes, const char *outputs, const char *lab, const char *dir,
                            const char *size, const run *runs, int n)
{
    char *why = NULL;
    const char *reason = NULL;
    for (int i = 0; i < n && !why; i++)
        if (strcmp(runs[i].status, "ok"))
            why = callgrind_failure(&runs[i], &reason);
    const run *student = named(runs, n, "student"), *reference = named(runs, n, "reference");
    if (!why && (!student || !reference)) {
        fprintf(stderr, "grade-measured: the student's and the reference's runs are both needed\n");
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
        int rc = none(outcomes, outputs, lab, reason, why);
        free(why);
        return rc;
    }
    char files[CALLGRIND_RUNS][4096];
    for (int i = 0; i < CALLGRIND_RUNS; i++)
        snprintf(files[i], sizeof files[i], "%s/%s/callgrind.out", dir,
                 (const char *[]){"student", "reference", "baseline"}[i]);
    const char *fields[] = {"perf", lab, "callgrind", files[0], files[1], files[2], student->output};
    return append(outcomes, fields, 7);
}

/* The emulator's profile (emu) and the bench's record (gpu): one run, one file. */
static int record_one(const char *outcomes, const char *outputs, const char *lab, const char *method,
                      const char *dir, const run *r)
{
    int gpu = !strcmp(method, "gpu");
    if (strcmp(r->status, "ok")) {
        char *tail = output_tail(r->output), *why;
        int rc = 1;
        if (asprintf(&why, "%s failed (a crash, a wrong result, or the time limit): %s",
                     gpu ? "the bench" : "the emulator's profile", tail) >= 0) {
            rc = none(outcomes, outputs, lab, "run-failed", why);
            free(why);
        }
        free(tail);
        return rc;
    }
    char file[4096];
    snprintf(file, sizeof file, "%s/%s", dir, gpu ? "bench.tsv" : "profile.csv");
    const char *fields[] = {"perf", lab, method, file, "-", "-", r->output};
    return append(outcomes, fields, 7);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "runs") && !strcmp(argv[2], "callgrind")) {
        for (int i = 0; i < CALLGRIND_RUNS; i++)
            printf("%s\t%s\t%s\n", callgrind_runs[i][0], callgrind_runs[i][1], callgrind_runs[i][2]);
        return 0;
    }
    if (argc == 7 && !strcmp(argv[1], "none"))
        return none(argv[2], argv[3], argv[4], argv[5], argv[6]);
    if (argc < 7 || strcmp(argv[1], "record"))
        return usage();
    const char *outcomes = argv[2], *outputs = argv[3], *lab = argv[4], *method = argv[5], *dir = argv[6];
    int callgrind = !strcmp(method, "callgrind"), first = callgrind ? 8 : 7;
    if (!callgrind && strcmp(method, "emu") && strcmp(method, "gpu"))
        return usage();
    if (argc <= first)
        return usage();
    run runs[CALLGRIND_RUNS];
    int n = 0;
    for (int i = first; i < argc; i++) {
        char *a = argv[i], *s1 = strchr(a, '='), *s2 = s1 ? strchr(s1 + 1, '=') : NULL;
        if (!s2 || n == CALLGRIND_RUNS || (!callgrind && n == 1))
            return usage();
        *s1 = *s2 = '\0';
        runs[n++] = (run){a, s1 + 1, s2 + 1};
    }
    if (callgrind)
        return record_callgrind(outcomes, outputs, lab, dir, argv[7], runs, n);
    return record_one(outcomes, outputs, lab, method, dir, &runs[0]);
}
