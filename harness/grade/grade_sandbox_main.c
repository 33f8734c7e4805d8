/*
 * grade-sandbox: prints the command line that starts one of the grader's
 * commands in its sandbox (grade_sandbox.h), each argument ended by a NUL;
 * the command follows it (what grade-lab runs: grade_command.c).
 *
 * usage: grade-sandbox --kind bwrap|setpriv|none --root KIT --out DIR --work DIR
 *                      --records DIR --tmp-limit BYTES [--gpu]
 *                      [--uid UID --tmp DIR --namespaces private|net|none]
 *                      build|link|run|perf [DIR]
 *        grade-sandbox --root KIT --out DIR --closed SUBMISSION
 *
 * With --closed, the paths setpriv's grader closes to every user but root
 * instead (tl_sandbox_closed: what bubblewrap's view would leave out), each
 * ended by a NUL.
 *
 * The rest is the grader's environment, as the Makefile gives it to grade.sh:
 * TOOLS, PREBUILT, SUBMISSIONS, HIDDEN, PATH, the search paths (CPATH,
 * LIBRARY_PATH, LD_LIBRARY_PATH, VALGRIND_LIB), and CC, NVCC and VALGRIND,
 * whose installations the sandbox shows.
 *
 * Exit status: 0; 2 for usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_sandbox.h"

static int usage(const char *why)
{
    fprintf(stderr,
            "grade-sandbox: %s\nusage: grade-sandbox --kind bwrap|setpriv|none --root KIT --out DIR --work DIR\n"
            "                     --records DIR --tmp-limit BYTES [--gpu] [--uid UID --tmp DIR\n"
            "                     --namespaces private|net|none] build|link|run|perf [DIR]\n",
            why);
    return 2;
}

int main(int argc, char **argv)
{
    tl_sandbox sb = {0};
    const char *closed_of = NULL;
    int i = 1;
    for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "--gpu")) {
            sb.gpu = 1;
            continue;
        }
        if (!val)
            return usage("an option without its value");
        i++;
        if (!strcmp(opt, "--kind"))
            sb.kind = val;
        else if (!strcmp(opt, "--root"))
            sb.root = val;
        else if (!strcmp(opt, "--out"))
            sb.out = val;
        else if (!strcmp(opt, "--work"))
            sb.work = val;
        else if (!strcmp(opt, "--records"))
            sb.records = val;
        else if (!strcmp(opt, "--tmp-limit"))
            sb.tmp_limit = atol(val);
        else if (!strcmp(opt, "--uid"))
            sb.uid = atoi(val);
        else if (!strcmp(opt, "--tmp"))
            sb.private_tmp = val;
        else if (!strcmp(opt, "--namespaces"))
            sb.namespaces = val;
        else if (!strcmp(opt, "--closed"))
            closed_of = val;
        else
            return usage("no such option");
    }
    if (!sb.root || !sb.out || (!closed_of && (!sb.kind || !sb.work || !sb.records || sb.tmp_limit <= 0 || i >= argc)))
        return usage("a required option is missing");
    const char *mode = i < argc ? argv[i] : NULL, *dir = i + 1 < argc ? argv[i + 1] : NULL;
    if (tl_sandbox_environment(&sb))
        return usage("TOOLS and PREBUILT must be set");
    tl_argv a = {0};
    if (closed_of ? tl_sandbox_closed(&sb, closed_of, getenv("HOME"), &a) : tl_sandbox_argv(&sb, mode, dir, &a))
        return 2;
    for (size_t k = 0; k < a.n; k++)
        fwrite(a.v[k], 1, strlen(a.v[k]) + 1, stdout);
    tl_argv_free(&a);
    return fflush(stdout) == 0 ? 0 : 1;
}
