// expect: fail __syncthreads() missing between two rounds
// The tree's rounds without a barrier between them: a thread reads its
// partner's slot before the partner stored that round's sum. The emulator
// sees s[t] += ... as a read only (harness/emu/README.md, its limits), so
// it names no race: the checker's hint names the barrier.
#include "lab.h"

__global__ void sum_blocks(float *out, const float *in, size_t n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1)
        if (t < k)
            s[t] += s[t + k];
    if (t == 0)
        atomicAdd(out, s[0]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n)
        sum_blocks<<<(unsigned)((n + 255) / 256), 256>>>(d_out, d_in, n);
}
