// expect: fail __syncwarp()
// gpu-expect: pass
// emulator-says: a race on shared memory
// NVIDIA's 2007 unrolled last warp, volatile and nothing else: since Volta
// the lanes of a warp need not run in step, and a lane may read its
// partner's slot before the partner stored it. A converged warp gets it
// right on a GPU (racecheck reports it); the emulator runs a warp's lanes
// one after another and names the race between two lanes of the warp, with
// __syncwarp() as the fix.
#include "lab.h"

__device__ void warp_reduce(volatile float *s, unsigned t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

__global__ void sum_blocks(float *out, const float *in, size_t n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned k = 128; k > 32; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32)
        warp_reduce(s, t);
    if (t == 0)
        atomicAdd(out, s[0]);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    if (n)
        sum_blocks<<<(unsigned)((n + 255) / 256), 256>>>(d_out, d_in, n);
}
