// expect: fail atomicAdd
// gpu-expect: fail holds exactly the sum of one block's elements
// emulator-says: a race between blocks
// Each block stores its sum where it should add it: the last to store wins.
// On a GPU the checker finds one block's sum in *d_out; the emulator, which
// runs the blocks one after another, names the race between them on d_out,
// a small allocation it checks as a __device__ variable (block_race.c).
// Both name atomicAdd.
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
        *out = s[0];
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n)
        sum_blocks<<<(unsigned)((n + 255) / 256), 256>>>(d_out, d_in, n);
}
