/*
 * lab-runner: the lab process (lab_process.h). Linked with one lab file and
 * the backend its lab runs on; a suite starts it (lab_client.c) with the
 * socket and the matrices' memfd as descriptors 3 and 4, and it answers
 * each request until the socket closes. Built with TL_LAB_GPU for a GPU
 * lab, on the GPU or the emulator; without, on the CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "lab.h"
#include "lab_process.h"
#include "seccomp_program.h"
#ifdef TL_LAB_GPU
#include "gpu.h"
#define TL_BACKEND tl_gpu_backend
#ifndef TL_EMU
/* Built for a GPU: the lab's launches can be recorded as a plan (plan.h). */
#define TL_LAB_PLANS 1
#include "plan_record.h"
#endif
#else
#define TL_BACKEND tl_cpu_backend
#endif

/*
 * A lab's code signals nothing but its own process. The suite's processes,
 * the server and Criterion's own share the lab process's user (and, in the
 * grader's sandbox, its PID namespace): one kill(-1, SIGKILL) or
 * kill(getppid(), ...) in a lab file once ended the test processes and the
 * runner that collects results, and the whole lab scored 0 or 7.27 of 10 by
 * which died first, each test's message false. So every call that sends a
 * signal to another process, or arranges one (seccomp_program.h), is
 * refused here, before any code of the lab file runs (.preinit_array, ahead
 * of every constructor; a lab file with one of its own is refused,
 * isolate-symbols.sh), and inherited by any process it starts: the call
 * does nothing, and this process ends with TL_LAB_SIGNAL_REFUSED, which
 * lab_client.c explains for the test that made it. (A lab file that catches
 * SIGSYS itself, where it may, only loses the explanation: the signal was
 * never sent.)
 */
static void on_refused_signal(int sig, siginfo_t *info, void *context)
{
    (void)sig, (void)info, (void)context;
    _exit(TL_LAB_SIGNAL_REFUSED);
}

static void signals_to_self_only(void)
{
#if TL_SYSCALL_SITES
    static tl_bpf_program p;
    struct sigaction sa = {.sa_sigaction = on_refused_signal, .sa_flags = SA_SIGINFO};
    sigemptyset(&sa.sa_mask);
    TL_BPF_PUT(&p, TL_BPF_NATIVE_CALLS_ONLY);
    tl_bpf_signals_to_self(&p, (unsigned)getpid(), SECCOMP_RET_TRAP);
    TL_BPF_PUT(&p, TL_BPF_RETURN(SECCOMP_RET_ALLOW));
    if (sigaction(SIGSYS, &sa, NULL) == 0 && tl_bpf_install(&p) == 0)
        return;
    char say[200];
    int n = snprintf(say, sizeof say, "tilelab: note: the lab process can signal other processes here (seccomp: %s)\n",
                     strerror(errno));
    (void)!write(2, say, (size_t)n);
#endif
}

/*
 * On the emulator the kernels are counted in this process, beside the lab
 * file's code: it is confined (harness/emu/confine.c) before any of that
 * code runs, from .preinit_array, as above. Its channels to the suite are
 * then the kit's alone, through one call site.
 */
static void confine(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    signals_to_self_only();
#ifdef TL_EMU
    tl_emu_confine(TL_LAB_SOCKET_FD, TL_LAB_MATRICES_FD);
#endif
}
__attribute__((section(".preinit_array"), used)) static void (*const confine_first)(int, char **, char **) = confine;

#ifdef TL_EMU
#define KIT_SYSCALL tl_emu_kit_syscall
/* The launches as the emulator recorded them in its own pages, which the lab's code cannot
 * rewrite (the launch log it can: emu.h) */
#define LAUNCHES_RESET tl_emu_launches_reset
#define LAUNCH_COUNT tl_emu_launch_count
#define LAUNCH_GET tl_emu_launch_get
#else
#define KIT_SYSCALL syscall
#define LAUNCHES_RESET() ((void)0)
#define LAUNCH_COUNT tl_launch_count
#define LAUNCH_GET tl_launch_get
#endif

/* The channels, used through KIT_SYSCALL alone. */
static void *map_channel(size_t bytes)
{
    return (void *)KIT_SYSCALL(SYS_mmap, 0, (long)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, TL_LAB_MATRICES_FD, 0);
}

static ssize_t receive(void *buf, size_t len)
{
    return KIT_SYSCALL(SYS_recvfrom, TL_LAB_SOCKET_FD, (long)buf, (long)len, 0, 0, 0);
}

static ssize_t reply(const void *buf, size_t len)
{
    return KIT_SYSCALL(SYS_sendto, TL_LAB_SOCKET_FD, (long)buf, (long)len, MSG_NOSIGNAL, 0, 0);
}

typedef void (*entry_fn)(void);

static void run(const tl_lab_request *rq, entry_fn fn, tl_lab_reply *rp)
{
    tl_matrix m[3];
    size_t bytes = rq->floats * sizeof(float);
    float *base = map_channel(bytes ? bytes : 1);
    if (base == MAP_FAILED || tl_lab_request_views(rq, base, m) != 0) {
        snprintf(rp->why, sizeof rp->why, "tilelab: the lab process could not map the matrices (%s)",
                 base == MAP_FAILED ? strerror(errno) : "a request it cannot read");
        rp->rc = -1;
    } else {
        rp->rc = tl_lab_request_run(&TL_BACKEND, rq, fn, m, rp->why, sizeof rp->why);
    }
    if (base != MAP_FAILED)
        munmap(base, bytes ? bytes : 1);
}

#ifdef TL_LAB_PLANS
/*
 * The entry point called on the device addresses the request names, with
 * every launch, memset and copy written into the plan in the memfd instead
 * of done: the GPU is never touched here (plan_record.c).
 */
static void plan_of(const tl_lab_request *rq, entry_fn fn, const tl_call *call, tl_lab_reply *rp)
{
    size_t bytes = TL_LAB_PLAN_BYTES;
    unsigned char *base = map_channel(bytes);
    if (base == MAP_FAILED || rq->floats * sizeof(float) < bytes) {
        snprintf(rp->why, sizeof rp->why, "tilelab: the lab process could not map the plan (%s)",
                 base == MAP_FAILED ? strerror(errno) : "a request it cannot read");
        rp->rc = -1;
        if (base != MAP_FAILED)
            munmap(base, bytes);
        return;
    }
    static tl_plan_table table; /* a copy: the table the suite wrote stays as it wrote it */
    memcpy(&table, base, sizeof table);
    tl_plan *plan = (tl_plan *)(base + TL_LAB_PLAN_OFFSET);
    tl_shape s = rq->shape;
    float *d[3] = {(float *)(uintptr_t)rq->device[0], (float *)(uintptr_t)rq->device[1],
                   (float *)(uintptr_t)rq->device[2]};
    tl_plan_record_begin(&table, plan);
    call->invoke(fn, d, s);
    tl_plan_record_end();
    rp->rc = 0;
    munmap(base, bytes);
}
#endif

#ifdef TL_EMU
static void copy_counts(tl_lab_counted *to, const tl_emu_stats *k)
{
    to->stats = *k;
    snprintf(to->name, sizeof to->name, "%s", k->kernel);
    to->stats.kernel = NULL;
}

/* TL_ASK_RUN with the emulator counting, and its counts written where the request says. */
static void profile_of(const tl_lab_request *rq, entry_fn fn, tl_lab_reply *rp)
{
    size_t bytes = rq->floats * sizeof(float);
    if (!tl_lab_request_counts_fit(rq)) {
        snprintf(rp->why, sizeof rp->why, "tilelab: the lab process got a profile request it cannot read");
        rp->rc = -1;
        return;
    }
    tl_emu_stats_reset();
    tl_emu_profile(1);
    run(rq, fn, rp);
    tl_emu_profile(0);
    /* Output the lab's code left buffered goes now, before the counts are
     * written: a stream of its own (fopencookie) runs its code when flushed. */
    fflush(stdout);
    fflush(stderr);
    /* Every launch that ran, counted: the launch log and the counts are kept
     * apart, and a lab file that switched the counting off for a kernel
     * would have to forge both. (Through its own symbol table it once could;
     * confined, it cannot open it.) */
    long counted = tl_emu_profiled_launches();
    if (rp->rc == 0 && counted != tl_emu_launch_count()) {
        snprintf(rp->why, sizeof rp->why, "the emulator counted %ld of the %d launches your code made: "
                 "something in the lab process switched its counting off, so nothing was measured",
                 counted, tl_emu_launch_count());
        rp->rc = -1;
        return;
    }
    unsigned char *base = map_channel(bytes);
    if (base == MAP_FAILED) {
        snprintf(rp->why, sizeof rp->why, "tilelab: the lab process could not map the counts (%s)",
                 strerror(errno));
        rp->rc = -1;
        return;
    }
    tl_lab_profile *p = (tl_lab_profile *)(base + rq->profile_at);
    memset(p, 0, sizeof *p);
    p->kernels = tl_emu_stats_count();
    for (int i = 0; i < p->kernels && i < TL_LAB_PROFILE_KERNELS; i++)
        copy_counts(&p->kernel[i], tl_emu_stats_get(i));
    p->made = tl_emu_made_count();
    for (int i = 0; i < p->made && i < TL_LAB_PROFILE_MADE; i++)
        copy_counts(&p->made_by[i], tl_emu_made_get(i));
    munmap(base, bytes);
}
#endif

#ifdef TL_LAB_GPU
/*
 * An in-place call in the matrix's own memory alone (lab.h): a file whose own
 * variables could hold a copy of the matrix (a __device__ float scratch[N],
 * copied into and transposed back out of) is refused before its code runs, as
 * cudaMalloc is, on the emulator and on a GPU alike.
 */
static int own_memory_refused(const tl_call *call, tl_lab_reply *rp)
{
#ifdef TL_EMU
    size_t bytes = tl_emu_lab_variable_bytes();
#else
    size_t bytes = tl_plan_variable_bytes();
#endif
    if (!call || call->kind != TL_CALL_INPLACE || bytes <= TL_INPLACE_OWN_BYTES)
        return 0;
    snprintf(rp->why, sizeof rp->why,
             "your file's own variables (__device__ and __constant__ ones) hold %zu bytes, and an "
             "in-place transpose keeps at most %d there (a counter, a few flags): it works in the "
             "matrix's own memory, with its tiles in __shared__ memory, and a copy of the matrix "
             "in a variable of its own is the second matrix lab 9 does without (lab.h)",
             bytes, TL_INPLACE_OWN_BYTES);
    rp->rc = -1;
    return 1;
}
#endif

static void answer(const tl_lab_request *rq, tl_lab_reply *rp)
{
    const tl_backend *b = &TL_BACKEND;
    memset(rp, 0, sizeof *rp);
    snprintf(rp->backend, sizeof rp->backend, "%s", b->name);
    rp->on_gpu = b->on_gpu;
    if (rq->ask == TL_ASK_BACKEND) {
#ifdef TL_LAB_GPU
        rp->available = tl_gpu_available(rp->why, sizeof rp->why);
#ifdef TL_LAB_PLANS
        rp->plans = 1;
#endif
#else
        rp->available = 1;
#endif
        return;
    }
    /* A lab file defines only its own entry points: the others are NULL here (op.h). */
    entry_fn fn = tl_entry_at(rq->entry) ? tl_entry_at(rq->entry)->student : NULL;
    if (!fn) {
        snprintf(rp->why, sizeof rp->why, "the lab file defines no %s()",
                 tl_entry_at(rq->entry) ? tl_lab_entry_name(rq->entry) : "such function");
        rp->rc = -1;
        return;
    }
#ifdef TL_LAB_GPU
    if (own_memory_refused(tl_lab_entry_call(rq->entry), rp))
        return;
#endif
#ifdef TL_EMU
    {
        /* what the file's variables leave of an in-place call's own memory, for the heap */
        const tl_call *call = tl_lab_entry_call(rq->entry);
        int inplace = call && call->kind == TL_CALL_INPLACE;
        tl_emu_device_heap_cap(inplace, inplace ? TL_INPLACE_OWN_BYTES - tl_emu_lab_variable_bytes() : 0);
    }
#endif
    tl_todo_reset();
    tl_launch_reset();
    LAUNCHES_RESET();
    if (rq->ask == TL_ASK_RUN) {
        run(rq, fn, rp);
#ifdef TL_EMU
    } else if (rq->ask == TL_ASK_PROFILE) {
        profile_of(rq, fn, rp);
#endif
#ifdef TL_LAB_PLANS
    } else if (rq->ask == TL_ASK_PLAN) {
        plan_of(rq, fn, tl_lab_entry_call(rq->entry), rp);
#endif
    } else {
        snprintf(rp->why, sizeof rp->why, "lab-runner: request %d is not one it answers here", (int)rq->ask);
        rp->rc = -1;
    }
    if (tl_todo_message())
        snprintf(rp->todo, sizeof rp->todo, "%s", tl_todo_message());
    rp->launches = LAUNCH_COUNT();
    for (int i = 0; i < rp->launches && i < TL_MAX_LAUNCHES; i++)
        rp->launch[i] = *LAUNCH_GET(i);
}

#ifndef TL_LAB_GPU
/*
 * A CPU lab's stack overflow (a large local array: float buf[BLOCK][BLOCK]
 * is 16 MiB at BLOCK = 2048, where the stack holds 8): a SIGSEGV, as an
 * index out of bounds is, which the suite could only call that. Where the
 * fault's stack pointer or address lies past the lowest address the stack
 * may grow to (RLIMIT_STACK below its top), the handler, on a stack of its
 * own, ends the process with TL_LAB_STACK_OVERFLOW instead (lab_client.c
 * says what it means). Any other fault meets the default action again.
 */
static uintptr_t stack_lowest;

static void on_segv(int sig, siginfo_t *info, void *context)
{
    uintptr_t at = (uintptr_t)info->si_addr, sp = 0;
    ucontext_t *uc = context;
#if defined(__x86_64__)
    sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    sp = (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
#endif
    /* The kernel leaves a gap of 256 pages below the stack's lowest address, so that nothing
     * lies right under it: a fault there is the stack's too. */
    if (sp && sp < stack_lowest + 4096)
        _exit(TL_LAB_STACK_OVERFLOW);
    if (at < stack_lowest + 4096 && at + ((uintptr_t)1 << 20) + 4096 >= stack_lowest)
        _exit(TL_LAB_STACK_OVERFLOW);
    (void)sig; /* SA_RESETHAND: the default action, once the fault comes again */
}

static void watch_the_stack(void)
{
    struct rlimit limit;
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    uintptr_t top = 0;
    while (maps && !top && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
            top = hi;
    }
    if (maps)
        fclose(maps);
    if (!top || getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
        limit.rlim_cur >= top)
        return;
    stack_lowest = top - limit.rlim_cur;
    static char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    if (sigaltstack(&ss, NULL) == 0)
        sigaction(SIGSEGV, &sa, NULL);
}
#endif

int main(void)
{
    static tl_lab_request rq;
    static tl_lab_reply rp;
#ifndef TL_LAB_GPU
    watch_the_stack();
#endif
    for (;;) {
        ssize_t n = receive(&rq, sizeof rq);
        if (n == 0 || (n < 0 && errno != EBADF && errno != ENOTSOCK))
            return n == 0 ? 0 : 1; /* the suite went away (killed, maybe by the lab's own code) */
        if (n != (ssize_t)sizeof rq) {
            fprintf(stderr, "lab-runner: a suite starts this program, with its socket as descriptor 3 "
                            "(see harness/lab/lab_process.h)\n");
            return 2;
        }
        answer(&rq, &rp);
        fflush(stdout);
        fflush(stderr);
        if (reply(&rp, sizeof rp) != (ssize_t)sizeof rp)
            return 1;
    }
}
