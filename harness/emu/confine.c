/*
 * The emulator's lab process, confined (lab_runner.c calls tl_emu_confine
 * before any code of the lab file runs).
 *
 * On a GPU the lab's code only records what it launches, and the suite
 * runs and times that plan itself (plan.h). On the emulator the kernels
 * are counted where they run: in the lab process, beside the lab file's
 * own code, and the counts go back to the suite through the process's
 * socket and memfd (the channels: descriptors 3 and 4, lab_process.h). A
 * lab file that left a thread running, or a signal handler, a timer,
 * another process, a descriptor or a mapping of its own, could rewrite the
 * counts after the call it was measured in, or answer the suite itself.
 *
 * So the emulator first does what needs the system's files (it reads the
 * program's symbol table and sets up device memory and its fault handler)
 * and a seccomp filter then lets the process do only this:
 *   - anything from one call site, tl_emu_kit_syscall, which the kit's own
 *     code uses for the channels;
 *   - memory: anonymous mappings, never executable nor at an address of
 *     its choosing; brk; munmap and madvise away from the pages the
 *     emulator keeps its counts in (kit_pages.c), which the lab's code may
 *     read and never write: it may mprotect only to take access away;
 *   - read, write, lseek, close and fstat on descriptors other than the
 *     channels (printf), and the terminal's size and mode;
 *   - clocks, sleeps, futex, random bytes, its own signal mask, a signal to
 *     itself (abort), its ids, exit.
 * A thread, another process or another program kills it with SIGSYS
 * (lab_client.c says so to the student); any other call fails with EPERM:
 * no file opens (/proc/self/exe, /proc/self/mem), no new descriptors, no
 * signal handlers, timers or remapping. Nothing of the lab's runs after
 * its call returns, and what runs during it cannot reach the channels.
 *
 * The counts themselves live in pages the lab's code cannot write (a lab
 * once found them in the program's data and rewrote them: kit_pages.c).
 * What this does not stop: code that finds the kit's own system call site
 * in the program's code and calls it, with every call open to it. Only a
 * process where no code of the lab's host side runs, as on a GPU, where
 * the suite replays the lab's plan itself, is out of that reach.
 */
#define _GNU_SOURCE
#include "emu.h"
#include "emulator.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp_program.h"

#if TL_SYSCALL_SITES

TL_SYSCALL_SITE(kit_site)

long tl_emu_kit_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
    long ret = kit_site(nr, a, b, c, d, e, f);
    if (ret < 0 && ret > -4096) {
        errno = (int)-ret;
        return -1;
    }
    return ret;
}

/* ---------------------------------------------------------------- the filter */

#define ALLOW TL_BPF_RETURN(SECCOMP_RET_ALLOW)
#define REFUSE TL_BPF_RETURN(SECCOMP_RET_ERRNO | EPERM)

/* nr on any descriptor but the kit's two */
static void allow_off_channels(tl_bpf_program *p, unsigned nr, const int channel[2])
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 5), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(0)),
               TL_BPF_SKIP_IF_EQUAL((unsigned)channel[0], 2), TL_BPF_SKIP_IF_EQUAL((unsigned)channel[1], 1),
               ALLOW, REFUSE);
}

/*
 * mprotect: never executable, and never on device memory or the kit's pages, which open
 * only through the kit's site: a range shorter than 4 GiB whose address's high 32 bits lie
 * outside both reservations and the 4 GiB below each (so that it cannot reach into them).
 * Elsewhere it is the C library's (a thread's stack, before its clone is refused and the
 * student told why). mmap: anonymous (no descriptor, -1), never executable, never at an
 * address of the caller's choosing (MAP_FIXED would map over the kit's pages).
 */
static void allow_memory(tl_bpf_program *p)
{
    uintptr_t arena;
    size_t bytes;
    tl_emu_arena_range(&arena, &bytes);
    unsigned arena_lo = (unsigned)(arena >> 32) - 1, arena_hi = (unsigned)((arena + bytes) >> 32),
             kit_lo = TL_EMU_KIT_WINDOW_HI - 1, kit_hi = TL_EMU_KIT_WINDOW_HI;
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(SYS_mprotect, 11), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(2)),
               BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 8, 0), TL_BPF_LOAD_AT(TL_BPF_ARG_HI(1)),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 6), TL_BPF_LOAD_AT(TL_BPF_ARG_HI(0)),
               BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, arena_lo, 0, 1),
               BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, arena_hi, 0, 3),
               BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kit_lo, 0, 1),
               BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, kit_hi, 0, 1), ALLOW, REFUSE);
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(SYS_mmap, 8), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(4)),
               TL_BPF_UNLESS_EQUAL(0xffffffffu, 5), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(2)),
               TL_BPF_UNLESS_CLEAR(PROT_EXEC, 3), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(3)),
               TL_BPF_UNLESS_CLEAR(MAP_FIXED | MAP_FIXED_NOREPLACE, 1), ALLOW, REFUSE);
}

/* nr (munmap, madvise) on a range that cannot reach the kit's pages: shorter than 4 GiB and
 * starting outside the 8 GiB window reserved around them (emulator.h, kit_pages.c). */
static void allow_off_kit_pages(tl_bpf_program *p, unsigned nr)
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 7), TL_BPF_LOAD_AT(TL_BPF_ARG_HI(1)), TL_BPF_UNLESS_EQUAL(0, 4),
               TL_BPF_LOAD_AT(TL_BPF_ARG_HI(0)), TL_BPF_SKIP_IF_EQUAL(TL_EMU_KIT_WINDOW_HI - 1, 2),
               TL_BPF_SKIP_IF_EQUAL(TL_EMU_KIT_WINDOW_HI, 1), ALLOW, REFUSE);
}

static int install(const int channel[2])
{
    static tl_bpf_program p;
    TL_BPF_PUT(&p, TL_BPF_NATIVE_CALLS_ONLY, TL_BPF_ALLOW_FROM(kit_site_end), TL_BPF_LOAD(nr));
    /* threads, processes, programs */
    static const unsigned deadly[] = {SYS_clone, SYS_clone3, SYS_fork, SYS_vfork, SYS_execve, SYS_execveat};
    for (size_t i = 0; i < sizeof deadly / sizeof *deadly; i++)
        tl_bpf_on(&p, deadly[i], SECCOMP_RET_KILL_PROCESS);
    static const unsigned plain[] = {
        SYS_brk, SYS_fstat, SYS_newfstatat, SYS_futex, SYS_rt_sigprocmask,
        SYS_rt_sigreturn, SYS_restart_syscall, SYS_clock_gettime, SYS_clock_getres, SYS_gettimeofday,
        SYS_time, SYS_nanosleep, SYS_clock_nanosleep, SYS_sched_yield, SYS_getrandom, SYS_getpid,
        SYS_gettid, SYS_getppid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_uname,
        SYS_exit, SYS_exit_group,
    };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        tl_bpf_on(&p, plain[i], SECCOMP_RET_ALLOW);
    static const unsigned on_descriptors[] = {SYS_read,  SYS_write, SYS_pread64, SYS_pwrite64,
                                              SYS_readv, SYS_writev, SYS_lseek,  SYS_close};
    for (size_t i = 0; i < sizeof on_descriptors / sizeof *on_descriptors; i++)
        allow_off_channels(&p, on_descriptors[i], channel);
    tl_bpf_allow_where(&p, SYS_ioctl, 1, TCGETS, TIOCGWINSZ, SECCOMP_RET_ERRNO | EPERM);
    tl_bpf_allow_where(&p, SYS_fcntl, 1, F_GETFD, F_GETFL, SECCOMP_RET_ERRNO | EPERM);
    /* a signal to itself: abort() */
    unsigned self = (unsigned)getpid();
    tl_bpf_allow_where(&p, SYS_tgkill, 0, self, self, SECCOMP_RET_ERRNO | EPERM);
    allow_memory(&p);
    allow_off_kit_pages(&p, SYS_munmap);
    allow_off_kit_pages(&p, SYS_madvise);
    TL_BPF_PUT(&p, REFUSE);
    return tl_bpf_install(&p);
}

#else

long tl_emu_kit_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
    return syscall(nr, a, b, c, d, e, f);
}

static int install(const int channel[2])
{
    (void)channel;
    errno = ENOSYS;
    return -1;
}

#endif

void tl_emu_confine(int socket_fd, int memfd)
{
    tl_emu_load_statics();
    if (tl_emu_open_arena() != 0) {
        static const char say[] = "tilelab: the emulator cannot reserve its device memory\n";
        (void)!write(2, say, sizeof say - 1);
        _exit(127);
    }
    tl_emu_kit_pages_map(); /* at its fixed address, which the filter refuses the lab's code */
    if (install((const int[2]){socket_fd, memfd}) != 0) {
        /* Not confined: everything still runs, but what is counted here can be rewritten. */
        char say[200];
        int n = snprintf(say, sizeof say, "tilelab: note: the emulator's lab process runs unconfined here (%s%s)\n",
                         errno == ENOSYS ? "written for x86-64 Linux: " : "seccomp: ", strerror(errno));
        (void)!write(2, say, (size_t)n);
    }
}
