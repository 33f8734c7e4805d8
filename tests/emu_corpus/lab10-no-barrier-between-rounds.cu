// expect: fail __syncthreads()
// gpu-expect: fail __syncthreads() missing between two rounds
// emulator-says: in different passes
// The tree's rounds without a barrier between them: a thread reads its
// partner's slot before the partner stored that round's sum. A GPU gives
// wrong sums, and the checker's hint names the barrier; the emulator names
// the race (the store of s[t] += ..., which gcc leaves unchecked, seen by
// the bytes it changed), the two threads and the passes of the loop.
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
