// expect: fail atomicAdd
// emulator: fail saw no block of your kernels store into *d_out
// *d_out += sum from every block at once, no atomic: two blocks read the same
// old value and one's write is lost. The emulator runs blocks one after
// another, and does not check cudaMalloc'd memory for races between blocks
// (harness/emu/block_race.c): its sums are right. Nor does it see the store
// of a read-modify-write of global memory (gcc checks it as a read), so the
// technique check "a warp-level last step" finds no block's work in *d_out
// and fails, saying so and naming atomicAdd; the GPU's sums are wrong.
#include "lab.h"

__global__ void sum_blocks(float *out, const float *in, size_t n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        *out += s[0];
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n)
        sum_blocks<<<(unsigned)((n + 255) / 256), 256>>>(d_out, d_in, n);
}
