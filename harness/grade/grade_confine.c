/*
 * grade-confine PROGRAM [ARG...]: runs PROGRAM (an absolute path) as one
 * process that can start no other, nor run another program.
 *
 * The grader measures a CPU lab with valgrind's cache simulation, which
 * follows one process. A hand-in that forked, or ran a program of its own
 * without valgrind, could transpose there, where no miss is counted, and
 * hand the result back through a pipe: the kernel's writes into the output
 * are not counted either. So the measured process may make threads (clone
 * with CLONE_THREAD: valgrind counts every thread) but not processes, and
 * may run no program but the one it was started as.
 *
 * The kernel can move memory for a process too, where valgrind sees no
 * access: process_vm_readv on itself copies in to out in one call. Those
 * calls, vmsplice's, process_madvise's and the two kinds of asynchronous
 * I/O (io_setup's, io_uring's) are refused the same way.
 * This filter holds from valgrind's start. Once valgrind has loaded the
 * measuring program, and before any line of the lab's runs, grade-perf
 * installs an allow-list beside it (grade_perf_confine.c): from then on no
 * pipe, socket or file can be made, nor any call a transpose does not need,
 * and grade_perf.c refuses to measure a call that moved more than a little
 * of the matrix through the descriptors it was given (/proc/self/io).
 *
 * A seccomp filter, installed here just before PROGRAM runs, kills the
 * process at its first fork, vfork, clone without CLONE_THREAD, execve or
 * execveat, or a call of the memory-moving kind above, with SIGSYS. The one execve let through is this program's own,
 * of PROGRAM: the filter knows it by the address of its system call
 * instruction. Nothing makes a system call from that address after it:
 * valgrind runs the client's code translated, never as it is, and makes
 * every system call itself, from its own code (a program of fixed
 * addresses, far from a randomized executable like this one). clone3,
 * whose flags a filter cannot read, fails with ENOSYS; the C library then
 * makes its threads with clone.
 *
 * Exit status: PROGRAM's; 126 where the filter could not be installed or
 * PROGRAM could not run (why, on stderr); 2 for usage. `grade-confine
 * /bin/true` succeeds where confinement works.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "seccomp_site.h"

extern char **environ;

#if TL_SYSCALL_SITES

/* execve(2) made here and nowhere else (seccomp_site.h). */
TL_SYSCALL_SITE(exec_site)

static long exec_from_site(const char *path, char *const argv[], char *const envp[])
{
    return exec_site(SYS_execve, (long)path, (long)argv, (long)envp, 0, 0, 0);
}

static int install_filter(void)
{
    struct sock_filter filter[] = {
        TL_BPF_NATIVE_CALLS_ONLY,
        /* processes */
        TL_BPF_UNLESS_EQUAL(SYS_fork, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_vfork, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_clone3, 1),
        TL_BPF_RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        TL_BPF_UNLESS_EQUAL(SYS_clone, 4),
        TL_BPF_LOAD_AT(TL_BPF_ARG_LO(0)),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        TL_BPF_RETURN(SECCOMP_RET_ALLOW),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        /* memory moved by the kernel, where valgrind sees no access: another process's
         * pages read or written (itself included), pages spliced into a pipe */
        TL_BPF_UNLESS_EQUAL(SYS_process_vm_readv, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_process_vm_writev, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_vmsplice, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_process_madvise, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        /* the kernel's asynchronous I/O, which reads into and writes from memory as a
         * read() would, where neither valgrind nor /proc/self/io counts it (a column of
         * out filled by one preadv per row, an iovec per element): a context is never
         * made, so no other call of either kind can follow */
        TL_BPF_UNLESS_EQUAL(SYS_io_setup, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_io_uring_setup, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        /* a pipe's bytes duplicated into another without being read: the seed grade-perf
         * reads on its standard input, taken by the lab's code and left there */
        TL_BPF_UNLESS_EQUAL(SYS_tee, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_splice, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        /* programs: this program's own execve alone */
        TL_BPF_UNLESS_EQUAL(SYS_execveat, 1),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_UNLESS_EQUAL(SYS_execve, 6),
        TL_BPF_ALLOW_FROM(exec_site_end),
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS),
        TL_BPF_RETURN(SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {.len = sizeof filter / sizeof *filter, .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}

#else

#include <unistd.h>

static int install_filter(void)
{
    errno = ENOSYS;
    return -1;
}

static long exec_from_site(const char *path, char *const argv[], char *const envp[])
{
    return execve(path, argv, envp);
}

#endif

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] != '/') {
        fprintf(stderr, "usage: grade-confine /ABSOLUTE/PROGRAM [ARG...]\n");
        return 2;
    }
    if (install_filter() != 0) {
        fprintf(stderr, "grade-confine: cannot confine a process to itself here (%s%s)\n",
                errno == ENOSYS ? "written for x86-64 Linux only: " : "seccomp: ", strerror(errno));
        return 126;
    }
    long ret = exec_from_site(argv[1], argv + 1, environ);
    fprintf(stderr, "grade-confine: cannot run %s: %s\n", argv[1], strerror((int)-ret));
    return 126;
}
