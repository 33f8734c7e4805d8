// expect: fail 0 where in holds a subnormal
// expect-not: equal as numbers but not bit for bit
// expect-not: not square
// The student zeroes out and atomicAdds each element onto it. -0.0f comes
// out +0.0f on every machine, and a GPU's float atomicAdd in global memory
// (atom/red.global.add.f32) flushes subnormal inputs and results to
// sign-preserving zero (PTX ISA, atom: on shared memory it keeps them), so
// every subnormal of in comes out 0 too. An H200 fails it without the
// "equal as numbers" hint (2026-11-28); the emulator's atomicAdd, which
// kept subnormals, said that hint alone, and then, with them flushed,
// "this matrix is not square" of a kernel right for every shape.
#include "lab.h"

__global__ void add_copy(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        atomicAdd(&out[(size_t)c * rows + r], in[(size_t)r * cols + c]);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    cudaMemset(out, 0, (size_t)rows * cols * sizeof(float));
    add_copy<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
