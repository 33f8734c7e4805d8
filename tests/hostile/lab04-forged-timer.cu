/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: timers and result channels
 * patched (pygpubench#23): the lab file defines the kit's clock, its timing
 * loop and its reports' ratio, so that a process that linked it would
 * report no time and full marks.
 * control: naive-transpose.cu
 *
 * Every symbol of a lab file but its entry points is made local
 * (isolate-symbols.sh), and the timing runs in a process that holds none of
 * the lab's host code (grade-bench, the emulator's profile): measured as the
 * naive kernel it is.
 */
#include "lab.h"

extern "C" double tl_now(void) { return 0; }

extern "C" int tl_gpu_time(void *op, int warmup, int reps, unsigned long flush, double *stats, char *why,
                           unsigned long why_len)
{
    (void)op, (void)warmup, (void)flush, (void)why, (void)why_len;
    for (int i = 0; i < 6; i++)
        stats[i] = 1e-9; /* median, min, max, q1, q3 */
    return reps > 0 ? 0 : -1;
}

extern "C" int tl_measured_ratio(const char *method, const char *student, const char *reference,
                                 const char *baseline, double *ratio, char *how, unsigned long how_len)
{
    (void)method, (void)student, (void)reference, (void)baseline, (void)how, (void)how_len;
    *ratio = 1;
    return 0;
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
}
