// expect: pass
// Row bands launched on non-blocking streams, joined back to the default
// stream with events: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <stdio.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#define NSTREAMS 4

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) \
    printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); } while (0)

// transposes rows [row0, row0 + nrows) of in
__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols, int row0, int nrows)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int rend = row0 + nrows;
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = row0 + blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rend)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = row0 + blockIdx.y * TILE_DIM + threadIdx.x;   // column of out
    y = blockIdx.x * TILE_DIM + threadIdx.y;          // row of out
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rend && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    static cudaStream_t streams[NSTREAMS];
    static cudaEvent_t done[NSTREAMS], start;
    static bool ready = false;
    if (!ready) {
        for (int s = 0; s < NSTREAMS; ++s) {
            CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
            CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
        }
        CHECK(cudaEventCreateWithFlags(&start, cudaEventDisableTiming));
        ready = true;
    }
    // the bands must not start before earlier work on the default stream
    CHECK(cudaEventRecord(start, 0));

    int band = (rows + NSTREAMS - 1) / NSTREAMS;
    band = (band + TILE_DIM - 1) / TILE_DIM * TILE_DIM;   // whole tiles per band
    dim3 block(TILE_DIM, BLOCK_ROWS);
    for (int s = 0; s < NSTREAMS; ++s) {
        int row0 = s * band;
        if (row0 >= rows) break;
        int nrows = rows - row0 < band ? rows - row0 : band;
        dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (nrows + TILE_DIM - 1) / TILE_DIM);
        CHECK(cudaStreamWaitEvent(streams[s], start, 0));
        transpose_unrolled<<<grid, block, 0, streams[s]>>>(d_out, d_in, rows, cols, row0, nrows);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(done[s], streams[s]));
        CHECK(cudaStreamWaitEvent(0, done[s], 0));
    }
}
