/*
 * The CPU time of everything a command of the grader started (grade-run):
 * what its time limits count, so that a busy machine, which slows a command
 * down on the clock, never stops one that a quiet machine would have let
 * finish. A command that waits (a sleep, a read that never comes) uses no
 * CPU: grade-run's limit on the clock, far beyond the CPU's, ends those.
 *
 * The caller is a child subreaper (PR_SET_CHILD_SUBREAPER): a process
 * whose parent ends comes to it, not to init, and stays counted. A process
 * counts its own time and that of the children it waited for (utime,
 * stime, cutime, cstime of /proc/PID/stat); those the caller waited for
 * are in its own RUSAGE_CHILDREN. A process the kernel reaps itself (its
 * parent ignores SIGCHLD) leaves its time to no one once it has ended: a
 * command that burns the CPU in such short-lived processes is stopped by
 * grade-run's limit on the clock, not by this count.
 */
#ifndef TILELAB_GRADE_CPU_H
#define TILELAB_GRADE_CPU_H

#include <sys/types.h>

/* The CPU seconds (user and system) of every process below the calling one,
 * live, ended or waited for; with kill_them, each live one is sent SIGKILL
 * as it is found. */
double tl_descendants_cpu(int kill_them);

#endif
