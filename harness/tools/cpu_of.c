/*
 * cpu-of FILE COMMAND [ARG...]: runs COMMAND and writes to FILE the seconds
 * of CPU (user and system) that it and every process it started used, as
 * a whole number; exits with COMMAND's status (128 + the signal that ended
 * it). make check's suites are timed by it (harness/tools/check-suites.sh).
 *
 * A shell's `times` counts only the children it waited for, and theirs: a
 * process whose parent ended first (a sandbox's command, a lab process, a
 * daemon a grader stops) went to init uncounted, so the grader's suites
 * showed a sixth of what they ran. Here every orphan of COMMAND comes to
 * this process (a subreaper), which waits for it, so its time is counted.
 * Once COMMAND has ended, the orphans that have ended are counted and those
 * still running are not waited for: a suite that leaves a process behind
 * ends when its command does, as it did before.
 */
#define _GNU_SOURCE
#include "timer.h"

#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int status_of(int st)
{
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: cpu-of FILE COMMAND [ARG...]\n");
        return 2;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        perror("cpu-of: prctl (orphans go uncounted)");
    pid_t child = fork();
    if (child < 0) {
        perror("cpu-of: fork");
        return 2;
    }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "cpu-of: %s: cannot run it\n", argv[2]);
        _exit(127);
    }
    int st, rc = 127;
    for (;;) {
        pid_t w = waitpid(-1, &st, 0);
        if (w == child) {
            rc = status_of(st);
            break;
        }
        if (w < 0 && errno != EINTR)
            break;
    }
    while (waitpid(-1, &st, WNOHANG) > 0) /* the orphans that have ended, counted */
        ;
    double seconds = tl_children_cpu();
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%.0f\n", seconds) < 0 || fclose(f) != 0)
        perror(argv[1]);
    return rc;
}
