/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: lab 4's unpadded tile, its
 * tile a __shared__ array at namespace scope, whose 32-way conflicted column
 * reads are each made at a constant offset: a switch over the thread's index,
 * a case an element of the tile.
 * gcc leaves out the check of an access to a static at an offset it can prove
 * in bounds, and the emulator reached only a function's __shared__ variables
 * through a reference: it saw none of these reads, so its cost counted the
 * tile's conflict-free stores alone, 2 of 2 performance points (7.00 of 10)
 * where the honest unpadded tile scored 0.90 (5.90; found by a cheating
 * helper, 2026-11-28). Once they were seen, each lane's read was an access of
 * its own (a branch of its own), one pass, so the padded-tile check, which
 * judged passes an access, passed: 8.90. On a GPU the switch is a chain of
 * branches, a lane's read each: 32 passes a column as the honest kernel's.
 * control: unpadded-tile.cu
 */
#include "lab.h"

#define TILE 32

__shared__ float tile[TILE * TILE];

#define CASE1(i) case (i): v = tile[(i)]; break;
#define CASE4(i) CASE1(i) CASE1((i) + 1) CASE1((i) + 2) CASE1((i) + 3)
#define CASE16(i) CASE4(i) CASE4((i) + 4) CASE4((i) + 8) CASE4((i) + 12)
#define CASE64(i) CASE16(i) CASE16((i) + 16) CASE16((i) + 32) CASE16((i) + 48)
#define CASE256(i) CASE64(i) CASE64((i) + 64) CASE64((i) + 128) CASE64((i) + 192)

__device__ float read_tile(int idx)
{
    float v = 0.0f;
    switch (idx) {
        CASE256(0) CASE256(256) CASE256(512) CASE256(768)
    }
    return v;
}

__global__ void tiled(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y * TILE + threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = read_tile(threadIdx.x * TILE + threadIdx.y);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    tiled<<<grid, block>>>(out, in, rows, cols);
}
