// expect: pass
// C++ in device code: a kernel template over a function object, whose
// operator() is a __device__ member, passed by value as a launch argument;
// the indices come from a small struct with a constexpr constructor.
#include "lab.h"

struct Identity {
    __device__ float operator()(float v) const { return v; }
};

struct Coord {
    int r, c;
    __host__ __device__ constexpr Coord(int row, int col) : r(row), c(col) {}
    __device__ bool within(int rows, int cols) const { return r < rows && c < cols; }
};

template <class Op>
__global__ void map_transposed(float *out, const float *in, int rows, int cols, Op op)
{
    const Coord at(blockIdx.y * blockDim.y + threadIdx.y, blockIdx.x * blockDim.x + threadIdx.x);
    if (at.within(rows, cols))
        out[(size_t)at.c * rows + at.r] = op(in[(size_t)at.r * cols + at.c]);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    map_transposed<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols, Identity{});
}
