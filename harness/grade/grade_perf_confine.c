/*
 * What the measured CPU run may ask of the kernel once the lab file's code
 * can run: an allow-list, installed by grade-perf before any of that code
 * (its .preinit_array, ahead of every constructor), and kept by every
 * thread the process starts.
 *
 * The cache simulation counts the loads and stores of one process's code.
 * The kernel moves memory for a process in more ways than anyone lists: a
 * pipe, a socket's sendmsg and recvmsg (which /proc/self/io does not count
 * either), a message queue, splice, sendfile, copy_file_range, another
 * process's memory, asynchronous I/O... A transpose needs none of them, and
 * a list of what is refused is one such call away from a hand-in that
 * transposes unseen (one did, by socket, and scored 10 of 10 against its
 * honest control's 6). So this names what is allowed, and any other call
 * fails (EPERM; an open, EACCES, as for a file not there): nothing moves,
 * and code that tries is left with what it did itself. (grade-confine's
 * filter, installed from valgrind's start, still kills the process at the
 * calls it names, processes, programs and the kernel's copies, and the
 * grader says so.)
 *
 * The process is valgrind (the lab's code runs translated, and valgrind
 * makes every system call itself, its own and the lab's), so the list is
 * what valgrind's callgrind needs from here on beside what a transpose
 * needs, found by tracing the references and the kit's own lab files
 * under the grader's measured command:
 *   - memory: anonymous mappings (valgrind's translations are executable),
 *     mprotect, munmap, mremap, madvise, brk;
 *   - the descriptors already open: read, write, lseek, fstat, close (no
 *     call here makes one: no open but valgrind's own of its output,
 *     which it made at its start, to write it, no pipe, socket, dup...);
 *   - threads (clone with CLONE_THREAD: valgrind counts every thread;
 *     clone3, whose flags a filter cannot read, fails with ENOSYS and the C
 *     library then uses clone), futex, the signal calls valgrind makes
 *     around every blocking call, a signal to the process itself;
 *   - clocks, sleeps, random bytes, ids, limits read, exit.
 */
#define _GNU_SOURCE
#include "grade_perf_confine.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp_program.h"

#if TL_SYSCALL_SITES

#define REFUSE (SECCOMP_RET_ERRNO | EPERM)

/* nr where the low word of argument arg has bit set */
static void allow_with_bit(tl_bpf_program *p, unsigned nr, int arg, unsigned bit)
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 4), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(arg)),
               BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, bit, 0, 1), TL_BPF_RETURN(SECCOMP_RET_ALLOW),
               TL_BPF_RETURN(REFUSE));
}

/* nr where its pointer argument arg is NULL: a limit read, never set */
static void allow_where_null(tl_bpf_program *p, unsigned nr, int arg)
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 6), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(arg)), TL_BPF_UNLESS_EQUAL(0, 3),
               TL_BPF_LOAD_AT(TL_BPF_ARG_HI(arg)), TL_BPF_UNLESS_EQUAL(0, 1),
               TL_BPF_RETURN(SECCOMP_RET_ALLOW), TL_BPF_RETURN(REFUSE));
}

int tl_perf_confine(void)
{
    static tl_bpf_program p;
    TL_BPF_PUT(&p, TL_BPF_NATIVE_CALLS_ONLY);
    static const unsigned plain[] = {
        /* memory */
        SYS_brk, SYS_munmap, SYS_mprotect, SYS_mremap, SYS_madvise,
        /* the descriptors already open */
        SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_pwrite64, SYS_lseek, SYS_fstat,
        SYS_newfstatat, SYS_close,
        /* threads and signals */
        SYS_futex, SYS_set_robust_list, SYS_set_tid_address, SYS_sched_yield, SYS_sched_getaffinity,
        SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigtimedwait, SYS_rt_sigpending,
        SYS_sigaltstack, SYS_restart_syscall,
        /* clocks, random bytes, ids, limits, exit */
        SYS_clock_gettime, SYS_clock_getres, SYS_gettimeofday, SYS_time, SYS_nanosleep,
        SYS_clock_nanosleep, SYS_getrandom, SYS_getpid, SYS_gettid, SYS_getppid, SYS_getuid,
        SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getrlimit, SYS_exit, SYS_exit_group,
    };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        tl_bpf_on(&p, plain[i], SECCOMP_RET_ALLOW);
    allow_with_bit(&p, SYS_mmap, 3, MAP_ANONYMOUS);
    allow_with_bit(&p, SYS_clone, 0, CLONE_THREAD);
    tl_bpf_on(&p, SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);
    allow_where_null(&p, SYS_prlimit64, 2);
    /* callgrind's output, written at the end into the file it made at its start; any other
     * open fails, as for a file not there (the C library looks for some: how many cores) */
    tl_bpf_allow_where(&p, SYS_open, 1, O_WRONLY | O_TRUNC, O_WRONLY | O_TRUNC, SECCOMP_RET_ERRNO | EACCES);
    tl_bpf_on(&p, SYS_openat, SECCOMP_RET_ERRNO | EACCES);
    tl_bpf_on(&p, SYS_openat2, SECCOMP_RET_ERRNO | EACCES);
    tl_bpf_allow_where(&p, SYS_ioctl, 1, TCGETS, TIOCGWINSZ, REFUSE); /* isatty() */
    tl_bpf_allow_where(&p, SYS_fcntl, 1, F_GETFD, F_GETFL, REFUSE);
    /* abort(), valgrind's signals to its own threads, and the fatal signal it raises again
     * once it has written its output, so that the process ends as it would have alone */
    unsigned self = (unsigned)getpid();
    tl_bpf_allow_where(&p, SYS_tgkill, 0, self, self, REFUSE);
    tl_bpf_allow_where(&p, SYS_kill, 0, self, self, REFUSE);
    TL_BPF_PUT(&p, TL_BPF_RETURN(REFUSE));
    return tl_bpf_install(&p);
}

#else

int tl_perf_confine(void)
{
    errno = ENOSYS;
    return -1;
}

#endif
