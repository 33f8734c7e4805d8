/*
 * A hostile lab 6 (tests/grader_test.sh): a correct tiled transpose whose
 * host code, on every call, tries each way out of the emulator's lab
 * process that could let code of the lab rewrite its counts after the call
 * or answer the suite itself (harness/emu/confine.c): files (its own
 * program, its memory), the suite's socket and memfd (descriptors 3 and
 * 4), new descriptors, signal handlers and timers, remapping, executable
 * memory, other processes. Each must fail; where one does not, the lab
 * says which on stderr and spoils element 0, so a test fails.
 */
#include "lab.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE_DIM + threadIdx.x, r = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void spoil(float *out) { out[0] = 12345.0f; }

static void on_alarm(int) {}

/* How many ways out were open; each named on stderr. */
static int escapes(void)
{
    int open_ways = 0;
    char byte;
#define OPEN_IF(cond, what)                                                  \
    do {                                                                     \
        if (cond) {                                                          \
            fprintf(stderr, "escaped: %s\n", what);                          \
            open_ways++;                                                     \
        }                                                                    \
    } while (0)
    int fd = open("/proc/self/exe", O_RDONLY);
    OPEN_IF(fd >= 0, "read its own program (/proc/self/exe)");
    int mem = open("/proc/self/mem", O_RDWR);
    OPEN_IF(mem >= 0, "opened its memory (/proc/self/mem)");
    OPEN_IF(pread(4, &byte, 1, 0) == 1, "read the memfd");
    OPEN_IF(send(3, &byte, 0, MSG_DONTWAIT) >= 0, "used the suite's socket");
    void *shared = mmap(NULL, 4096, PROT_READ, MAP_SHARED, 4, 0);
    OPEN_IF(shared != MAP_FAILED, "mapped the memfd");
    int copy = dup(4), moved = fcntl(4, F_DUPFD, 20);
    OPEN_IF(copy >= 0 || moved >= 0, "copied the memfd's descriptor");
    int pipes[2];
    OPEN_IF(pipe(pipes) == 0, "made a pipe");
    OPEN_IF(socket(AF_UNIX, SOCK_STREAM, 0) >= 0, "made a socket");
    OPEN_IF(signal(SIGALRM, on_alarm) != SIG_ERR, "set a signal handler");
    struct itimerval later = {{0, 0}, {5, 0}};
    OPEN_IF(setitimer(ITIMER_REAL, &later, NULL) == 0, "set a timer");
    timer_t t;
    OPEN_IF(timer_create(CLOCK_MONOTONIC, NULL, &t) == 0, "made a POSIX timer");
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    OPEN_IF(page == MAP_FAILED, "(could not map an anonymous page, which it may)");
    OPEN_IF(syscall(SYS_io_uring_setup, 4, page) >= 0, "set up io_uring");
    OPEN_IF(mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0, "made memory executable");
    OPEN_IF(mremap(page, 4096, 8192, MREMAP_MAYMOVE) != MAP_FAILED, "remapped memory");
    OPEN_IF(syscall(SYS_process_vm_writev, getpid(), NULL, 0, NULL, 0, 0) >= 0, "wrote another process's memory");
    OPEN_IF(kill(getppid(), 0) == 0, "signalled the suite");
    return open_ways;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    int open_ways = escapes();
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
    if (open_ways)
        spoil<<<1, 1>>>(d_out);
}
