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
 * A seccomp filter, installed here just before PROGRAM runs, kills the
 * process at its first fork, vfork, clone without CLONE_THREAD, execve or
 * execveat, with SIGSYS. The one execve let through is this program's own,
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
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

extern char **environ;

#if defined(__x86_64__)

#define ARCH AUDIT_ARCH_X86_64
#define X32_BIT 0x40000000u /* x32 system calls: never valgrind's, refused */

/* execve(2) made here and nowhere else; exec_site is the address just past
 * the syscall instruction, which is what seccomp reports as the caller's. */
extern const char exec_site[] __attribute__((visibility("hidden")));

__attribute__((noinline)) static long exec_from_site(const char *path, char *const argv[],
                                                     char *const envp[])
{
    long ret;
    __asm__ volatile("syscall\n"
                     ".globl exec_site\n"
                     ".hidden exec_site\n"
                     "exec_site:"
                     : "=a"(ret)
                     : "0"((long)SYS_execve), "D"(path), "S"(argv), "d"(envp)
                     : "rcx", "r11", "memory");
    return ret;
}

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, field))
#define LOAD_AT(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)(offset))
#define RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))
/* go on where A == k, else skip the next `skip` instructions */
#define UNLESS_EQUAL(k, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, (skip))

static int install_filter(void)
{
    const unsigned long long site = (unsigned long long)(size_t)exec_site;
    const unsigned ip = offsetof(struct seccomp_data, instruction_pointer);
    const unsigned arg0 = offsetof(struct seccomp_data, args); /* little-endian: low word first */
    struct sock_filter filter[] = {
        LOAD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        LOAD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        /* processes */
        UNLESS_EQUAL(SYS_fork, 1),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        UNLESS_EQUAL(SYS_vfork, 1),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        UNLESS_EQUAL(SYS_clone3, 1),
        RETURN(SECCOMP_RET_ERRNO | ENOSYS),
        UNLESS_EQUAL(SYS_clone, 4),
        LOAD_AT(arg0),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        RETURN(SECCOMP_RET_ALLOW),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        /* programs: this program's own execve alone */
        UNLESS_EQUAL(SYS_execveat, 1),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        UNLESS_EQUAL(SYS_execve, 6),
        LOAD_AT(ip),
        UNLESS_EQUAL((unsigned)site, 3),
        LOAD_AT(ip + 4),
        UNLESS_EQUAL((unsigned)(site >> 32), 1),
        RETURN(SECCOMP_RET_ALLOW),
        RETURN(SECCOMP_RET_KILL_PROCESS),
        RETURN(SECCOMP_RET_ALLOW),
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
