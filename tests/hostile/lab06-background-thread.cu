/*
 * Hostile hand-in (tests/hostile_test.sh), lab 6: work left to a background
 * thread after the call returns, where no timer looks.
 * control: naive-transpose.cu
 *
 * The call starts a thread that launches the naive transpose a little later
 * and returns at once. On a GPU the kit keeps only what the call itself
 * launched (its plan, recorded before the call returned); on the emulator
 * the lab process refuses threads: the output is wrong, nothing is timed.
 */
#include "lab.h"
#include <pthread.h>
#include <unistd.h>

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

struct job { float *out; const float *in; int rows, cols; };

static void *later(void *p)
{
    struct job *j = (struct job *)p;
    usleep(1000);
    dim3 block(32, 8), grid((j->cols + 31) / 32, (j->rows + 7) / 8);
    naive<<<grid, block>>>(j->out, j->in, j->rows, j->cols);
    cudaDeviceSynchronize();
    return NULL;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    static struct job j;
    pthread_t t;
    j.out = out, j.in = in, j.rows = rows, j.cols = cols;
    if (pthread_create(&t, NULL, later, &j) == 0)
        pthread_detach(t);
}
