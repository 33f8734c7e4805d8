/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the input copied, a
 * chunk at a time, into a __constant__ array by cudaMemcpyToSymbol from the
 * device, and a kernel that reads it there at the transposed index and
 * writes a row of out at a time; a per-thread padded tile for "staged". The
 * emulator counted neither the symbol copies nor the constant reads, so the
 * work cost nothing: 10 of 10 and a ratio of 1.94 to the reference
 * (issue 36), its control 5.
 * control: naive-transpose.cu
 *
 * The constant cache hands a warp one address a pass: a warp whose lanes
 * read 32 addresses of it takes 32 passes, as lab 3's strided access takes
 * 32 sectors. The emulator counts those passes and the copies
 * (harness/emu/emulator.c, runtime.c), the grader's cost adds them, and
 * "coalesced" reads them: no technique points, and at most the control's.
 */
#include "lab.h"

#define CHUNK 16384
__constant__ float chunk[CHUNK];

/* Elements [first, first + n) of in are in chunk; threadIdx.x runs along a row of out. */
__global__ void from_constant(float *out, int rows, int cols, size_t first, int n, int r0)
{
    __shared__ float pad[32][33];
    int r = r0 + blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y * blockDim.y + threadIdx.y;
    size_t e = (size_t)r * cols + c;
    bool mine = r < rows && c < cols && e >= first && e < first + n;
    if (mine)
        pad[threadIdx.y][threadIdx.x] = chunk[e - first];
    __syncthreads();
    if (mine)
        out[(size_t)c * rows + r] = pad[threadIdx.y][threadIdx.x];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t total = (size_t)rows * cols;
    for (size_t first = 0; first < total; first += CHUNK) {
        int n = total - first < CHUNK ? (int)(total - first) : CHUNK;
        cudaMemcpyToSymbol(chunk, in + first, n * sizeof(float), 0, cudaMemcpyDeviceToDevice);
        int r0 = (int)(first / cols), r1 = (int)((first + n - 1) / cols), span = r1 - r0 + 1;
        int bx = span < 32 ? span : 32, by = 256 / bx > 32 ? 32 : 256 / bx;
        int last_col = r0 == r1 ? (int)((first + n - 1) % cols) : cols - 1;
        dim3 block(bx, by), grid((span + bx - 1) / bx, (last_col + by) / by);
        from_constant<<<grid, block>>>(out, rows, cols, first, n, r0);
    }
}
