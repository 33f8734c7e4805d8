// expect: pass
// C++ structs in device code: a matrix view passed by value with an
// accessor, a tile type with operator() returning a reference, and the
// element moved through references.
#include "lab.h"

#define TILE 32

struct ConstView {
    const float *p;
    int rows, cols;
    __device__ bool has(int r, int c) const { return r < rows && c < cols; }
    __device__ const float &at(int r, int c) const { return p[(size_t)r * cols + c]; }
};

struct View {
    float *p;
    int rows, cols;
    __device__ bool has(int r, int c) const { return r < rows && c < cols; }
    __device__ float &at(int r, int c) const { return p[(size_t)r * cols + c]; }
};

struct Tile {
    float v[TILE][TILE + 1];
    __device__ float &operator()(int r, int c) { return v[r][c]; }
};

__global__ void bank_free(View out, ConstView in)
{
    __shared__ Tile tile;
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (in.has(r, c)) {
        float &slot = tile(threadIdx.y, threadIdx.x);
        slot = in.at(r, c);
    }
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (out.has(r, c))
        out.at(r, c) = tile(threadIdx.x, threadIdx.y);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    View o = {out, cols, rows};
    ConstView i = {in, rows, cols};
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(o, i);
}
