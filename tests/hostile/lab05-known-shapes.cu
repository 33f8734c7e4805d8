/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: answers special-cased on the
 * known shapes: at the sizes the grader measures (256 x 256 on the emulator,
 * 4096 x 4096 on a GPU) it reads nothing, and writes, a row of out a warp,
 * the transpose of the matrix the kit's generator makes from its default
 * seed (the same splitmix64 and special values, element by element);
 * elsewhere lab 4's tile. A quarter of the tile's traffic, and no bank
 * conflict, if the measured input were that one.
 * control: unpadded-tile.cu
 *
 * What is measured comes from a seed drawn for each run (the emulator's
 * profile in the grader, every GPU bench): wrong, not measured. (With the
 * default seed, the emulator counted it at 2.06 times the reference's
 * ratio: all the performance points the control does not get.)
 */
#include "lab.h"
#include <stdint.h>

#define SEED 20261123ull /* TL_DEFAULT_SEED */

__device__ float generated(uint64_t seed, size_t i)
{
    uint64_t z = seed + (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    uint64_t r = z ^ (z >> 31);
    uint32_t bits;
    if ((r & 63) == 0) {
        uint64_t s = r >> 6;
        switch (s % 5) {
        case 0: bits = 0x80000000u; break;
        case 1: bits = 0x00000001u + (uint32_t)(s >> 40); break;
        case 2: bits = 0x7f800000u; break;
        case 3: bits = 0xff800000u; break;
        default: bits = 0x7fe00000u | (uint32_t)((s >> 20) & 0x1fffffu);
        }
    } else {
        bits = ((uint32_t)(r >> 63) << 31) | ((uint32_t)(124 + ((r >> 6) & 7)) << 23) | (uint32_t)((r >> 9) & 0x7fffffu);
    }
    return __int_as_float((int)bits);
}

#define TILE 32

__global__ void tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

__global__ void known(float *out, int rows, int cols, uint64_t seed)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)r * rows + c] = generated(seed, (size_t)c * cols + r); /* out(r, c) = in(c, r) */
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    if ((rows == 256 && cols == 256) || (rows == 4096 && cols == 4096))
        known<<<grid, block>>>(out, rows, cols, SEED ^ ((uint64_t)rows << 32) ^ (uint64_t)cols);
    else
        tiled<<<grid, block>>>(out, in, rows, cols);
}
