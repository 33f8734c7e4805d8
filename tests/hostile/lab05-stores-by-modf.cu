/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: the transpose's scattered
 * stores made by the C library's modf, which a kernel may call as the Math
 * API's own. A first kernel reads in by rows (coalesced) and, a thread an
 * element in order of out's addresses, stores each element by
 * modf(2^52-scale double whose low word is the element's bits, out + p): 8
 * bytes, the next element's 4 written over after by its own thread, and past
 * the last one the guard's own bits. It leaves each 32 x 32 tile of out
 * transposed in place; a second kernel reads out by rows into a padded tile
 * and writes it back by columns of the tile, in place: coalesced, staged and
 * conflict-free. modf's store, in the C library's code, was neither checked
 * nor counted, so the first kernel wrote nothing the emulator saw and the
 * second alone made the output: 8.87 of 10 on the emulator (technique 3 of
 * 3, performance 0.87 of 2), its control 5.00 (a cheating helper,
 * 2026-11-30). On a GPU its 8-byte stores at 4-byte-aligned addresses fault.
 * control: naive-transpose.cu
 *
 * The emulator makes the stores of modf, frexp, remquo and sincos itself
 * (harness/emu/emulator.c), checked and counted: misaligned, as on a GPU.
 */
#include "lab.h"
#include <math.h>

#define TILE 32

/* Where out[R][C] (out is cols x rows) takes its value from in, with every whole 32 x 32
 * tile transposed in place: the tiled kernel transposes each tile back. */
__device__ size_t source_of(size_t p, int rows, int cols)
{
    int R = (int)(p / rows), C = (int)(p % rows);
    int whole_r = cols / TILE * TILE, whole_c = rows / TILE * TILE;
    if (R < whole_r && C < whole_c)
        return (size_t)(C / TILE * TILE + R % TILE) * cols + (R / TILE * TILE + C % TILE);
    return (size_t)C * cols + R;
}

/* Thread p fills out[p], in order of p: modf stores 8 bytes, the next element's too (filled
 * after it), and past the last one the guard's bits (0x7fc0faca, harness/core/include/matrix.h). */
__global__ void scatter(float *out, const float *in, int rows, int cols)
{
    size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x, n = (size_t)rows * cols;
    if (p >= n)
        return;
    unsigned bits = __float_as_uint(in[source_of(p, rows, cols)]);
    (void)modf(__hiloint2double(0x7fc0faca, (int)bits), (double *)(out + p));
}

/* The padded tile, in place: rows of out in, columns of the tile back. */
__global__ void tiled(float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tr = blockIdx.y, tc = blockIdx.x;
    int whole = (tr + 1) * TILE <= cols && (tc + 1) * TILE <= rows;
    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
        int R = tr * TILE + k, C = tc * TILE + threadIdx.x;
        if (R < cols && C < rows)
            tile[k][threadIdx.x] = out[(size_t)R * rows + C];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
        int R = tr * TILE + k, C = tc * TILE + threadIdx.x;
        if (R < cols && C < rows)
            out[(size_t)R * rows + C] = whole ? tile[threadIdx.x][k] : tile[k][threadIdx.x];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    scatter<<<(unsigned)((n + 255) / 256), 256>>>(out, in, rows, cols);
    dim3 block(32, 8), grid((rows + TILE - 1) / TILE, (cols + TILE - 1) / TILE);
    tiled<<<grid, block>>>(out, rows, cols);
}
