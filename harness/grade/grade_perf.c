/*
 * grade-perf ROWSxCOLS call|skip SEED|-: what the grader runs under cache
 * simulation to measure a CPU lab. It is linked with one lab file only (the
 * student's or the reference, never both), so a hand-in cannot reach the
 * reference's code.
 *
 * "call" transposes a matrix of random floats (SEED: a new one each time
 * the grader measures; "-": read from standard input, as the grader gives
 * it) once; "skip" does all the same but the call and what
 * follows it. The grader counts every thread of both runs and subtracts:
 * work moved to another thread is still counted, and work done before the
 * call (in a constructor) counts against the hand-in. No other process can
 * do it, nor the kernel: the grader runs this under grade-confine, and from
 * before the lab's first line this process may make only the system calls
 * a transpose and the simulation need (grade_perf_confine.c).
 *
 * After the call, one pass along out's rows prints its digest,
 *
 *     transposed: DIGEST
 *
 * and the grader takes the measure only where it is the reference's digest
 * of the same input: a hand-in that left early (exit() in the lab code)
 * prints none, and one that printed the line itself must have worked out
 * the transpose of this input to know it. The pass costs every hand-in the
 * same misses, a line's worth per 16 floats. An element-by-element check
 * against in, as the tests make, would read one of the two matrices across
 * its rows, as many misses as a naive transpose: added to every hand-in's,
 * they once made the lab 1 loop handed in as lab 2 measure half the
 * reference rather than a tenth of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "grade_perf_confine.h"
#include "lab.h"
#include "matrix.h"
#include "shapes.h"

/* FNV-1a over 32-bit words: order matters, so an element in the wrong place
 * changes it. */
#define DIGEST_START 0xcbf29ce484222325u
#define DIGEST_PRIME 0x100000001b3u

static uint64_t digest_step(uint64_t d, float x)
{
    return (d ^ tl_float_bits(x)) * DIGEST_PRIME;
}

static uint64_t digest_in_order(const float *p, size_t n)
{
    uint64_t d = DIGEST_START;
    for (size_t i = 0; i < n; i++)
        d = digest_step(d, p[i]);
    return d;
}

/*
 * The bytes this process has moved through the kernel so far, read and
 * written (/proc/self/io: rchar + wchar, every thread, pipes and files
 * alike). The cache simulation follows the process's own loads and stores
 * only: a copy made by write() to a file and read() back would measure as
 * no traffic at all. The allow-list (grade_perf_confine.c) leaves a lab no
 * call that makes a descriptor, so no pipe or socket; this counts what is
 * left, the descriptors it was given. Opened before the lab's code runs
 * (no open() is allowed after that) and read with pread: -1 where it could
 * not be opened (no such file here), -2 where the lab's code closed it.
 */
static int io_fd = -1;

static long long kernel_moved(void)
{
    char buf[512];
    if (io_fd < 0)
        return -1;
    long n = syscall(SYS_pread64, io_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -2;
    buf[n] = '\0';
    const char *r = strstr(buf, "rchar: "), *w = strstr(buf, "wchar: ");
    return r && w ? atoll(r + 7) + atoll(w + 7) : -2;
}

/*
 * First of all, before any constructor of the lab file's (a lab file with a
 * .preinit_array of its own is refused, isolate-symbols.sh): the counter
 * opened, and the allow-list installed. Where it cannot be, nothing of the
 * lab's runs, unless the grader measures unconfined and says so
 * (TILELAB_PERF_UNCONFINED: grade-confine cannot run on this machine).
 */
static void confine_first(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    io_fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/io", O_RDONLY | O_CLOEXEC);
    if (tl_perf_confine() != 0 && !getenv("TILELAB_PERF_UNCONFINED")) {
        char say[300];
        int n = snprintf(say, sizeof say, "not measured: the grader could not confine its measured "
                         "run here (seccomp: %s); this is the grading machine's fault, not your code's\n",
                         strerror(errno));
        (void)!write(1, say, (size_t)n);
        _exit(5);
    }
}
__attribute__((section(".preinit_array"), used)) static void (*const confine_at_start)(int, char **, char **) = confine_first;

/*
 * Where the stack lies moves with what lies above it, the program's path and
 * environment (the grader's paths, the hand-in's name): from one grading to
 * the next by a few hundred bytes, where valgrind puts everything else, the
 * matrices too, at the same addresses run after run. The simulated caches
 * place a line by its address, so the stack the call and the pass after it
 * use (a spilled loop counter, the frames they call) met other lines of the
 * matrices in each grading: the textbook lab 2 loop measured 0.8987 and then
 * 0.898 of the reference, by a threshold of 0.90 (an instructor's trial,
 * 2026-11-28). So what is measured runs on a stack moved down to the same
 * place modulo STACK_PHASE every run, whatever lies above it: a stride
 * larger than any simulated cache's way (the kit's last level: 8 MiB over 16
 * ways, 512 KiB), where a line's set repeats.
 *
 * What ran before, on the stack as it lay, was counted too: the loader (its
 * relocations and searches) and main, a few thousand misses, a few of them
 * more or fewer with where the stack began. The baseline, the reference's own
 * program, took the reference's away to the miss, never the student's, whose
 * program the loader walks otherwise: with an environment 72 bytes longer, the
 * loader's misses in the baseline and the reference's run fell by 5 and in the
 * student's by 1, and the textbook loop measured 0.966145 of the reference, not
 * 0.966164 (session 14, 2026-11-28). So the grader starts this program the same
 * way every grading (grade.sh, grade_measuring.c): from its own folder, as
 * ./grade-perf-NAME, in an environment of the machine's library paths alone;
 * valgrind then lays its stack at the same address every run, from the first
 * instruction. The phase holds what is measured in place wherever it is started.
 */
#define STACK_PHASE ((uintptr_t)1 << 20)

/*
 * The same for what the program touched before it came here, its start (the loader, the
 * environment, the stack above), at addresses that move alike: lines of it the last level
 * still held when the call began took ways the matrices' lines wanted, in other sets each
 * grading. A pass over more lines than any simulated cache holds leaves none of them: every
 * set holds the pass's lines alone, then the matrices' as they are filled, the same lines in
 * the same sets every run.
 *
 * The pass reads the program's own static array, mapped with the program before any code of
 * the lab file runs, never memory allocated here: a constructor that took every byte of
 * data the process may map (RLIMIT_DATA) left room for the matrices and none for the pass,
 * so that its million misses were the baseline's alone and came off the hand-in's count
 * (a blocked loop at BLOCK 4, 0.53 of the reference, measured above 1: session 15).
 */
#define EVICT_BYTES ((size_t)32 << 20)
static char evict_lines[EVICT_BYTES];

static void evict_what_came_before(void)
{
    volatile const char *p = evict_lines;
    for (size_t i = 0; i < EVICT_BYTES; i += 64)
        (void)p[i];
}

static int measure(tl_shape s, unsigned long long seed, int call);

/* Its arguments by value, never read from main's frame, whose place moves; measure() a
 * function of its own, whose frame (what the compiler keeps there while the call runs) lies
 * below the pad, never above it, where this one's does. */
static __attribute__((noinline, noreturn)) void measure_at_a_fixed_phase(tl_shape s, unsigned long long seed,
                                                                         int call)
{
    /* The frame's address is 16-byte aligned (the ABI), so the pad leaves the stack pointer
     * at the same place modulo STACK_PHASE. exit() from here: its flush of the output, and
     * what it calls, on the same stack. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    char *pad = __builtin_alloca(here % STACK_PHASE + 256);
    __asm__ volatile("" : : "r"(pad) : "memory");
    exit(measure(s, seed, call));
}

int main(int argc, char **argv)
{
    tl_shape s;
    char why[256], *end;
    if (argc != 4 || tl_parse_shape(argv[1], &s, why, sizeof why) ||
        (strcmp(argv[2], "call") && strcmp(argv[2], "skip"))) {
        fprintf(stderr, "usage: grade-perf ROWSxCOLS call|skip SEED|-\n");
        return 2;
    }
    /* The seed on the command line is the lab's to read (/proc/self/cmdline), before this
     * runs: it would make in's values itself (tl_fill_random is counter-based) and never
     * read in across its rows. The grader gives it on a pipe, read here, once the lab's
     * constructors have run: one that took it first leaves nothing to read. */
    char given[32] = "";
    const char *text = argv[3];
    if (!strcmp(text, "-")) {
        ssize_t got = read(0, given, sizeof given - 1);
        given[got > 0 ? got : 0] = '\0';
        text = given;
    }
    unsigned long long seed = strtoull(text, &end, 10);
    if (!*text || (*end && *end != '\n')) {
        printf("not measured: your code read the measuring program's standard input before it "
               "could (its seed for the input matrix): a lab's transpose reads in, rows and cols, and "
               "nothing else\n");
        return 4;
    }
    measure_at_a_fixed_phase(s, seed, !strcmp(argv[2], "call"));
}

static __attribute__((noinline)) int measure(tl_shape s, unsigned long long seed, int call)
{
    size_t n = (size_t)s.rows * (size_t)s.cols;
    tl_matrix in, out;
    if (tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n)) {
        fprintf(stderr, "grade-perf: out of memory\n");
        return 1;
    }
    evict_what_came_before();
    tl_fill_random(in.data, n, seed);
    tl_fill_bits(out.data, n, TL_POISON_BITS);
    if (!call)
        return 0;
    tl_todo_reset();
    long long before = kernel_moved();
    transpose(out.data, in.data, s.rows, s.cols);
    long long after = kernel_moved(), moved = after - before;
    if (before == -2 || after == -2) {
        printf("not measured: your code closed a descriptor the measuring program reads (its "
               "count of the bytes moved through the kernel): a lab's transpose reads in, rows and "
               "cols, and nothing else\n");
        return 4;
    }
    /* An eighth of the matrix: far more than a left-in debugging printf, far less than a copy. */
    if (before >= 0 && moved > (long long)(n * sizeof(float) / 8)) {
        printf("not measured: your transpose moved %lld bytes through the kernel (read() and "
               "write() on a pipe or a file, printf() and puts() included) while it ran: the cache "
               "simulation sees only the loads and stores of your own code, so such a copy would "
               "count as no traffic at all. This lab's transpose reads in and writes out with loads "
               "and stores; a debugging print left in its loops moves that much too: take it out.\n",
               moved);
        return 4;
    }
    if (tl_todo_message()) {
        printf("not implemented yet: %s\n", tl_todo_message());
        return 3;
    }
    printf("transposed: %016" PRIx64 "\n", digest_in_order(out.data, n));
    return 0;
}
