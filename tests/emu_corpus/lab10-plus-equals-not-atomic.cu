// expect: fail atomicAdd
// emulator-says: a race between blocks
// *d_out += sum from every block at once, no atomic: two blocks read the same
// old value and one's write is lost. The emulator runs blocks one after
// another, so its sums come out right; it now checks a small cudaMalloc
// allocation such as *d_out for races between blocks, as it does a __device__
// variable (harness/emu/block_race.c), and sees the store of the read-modify-
// write by the bytes it changed (gcc checks it once, as a read): block 1's
// store over block 0's is a race, and the message names atomicAdd. (It was a
// known limit, in limits/: the emulator saw no store at all, and only a
// technique check, finding no block's work in *d_out, named atomicAdd.)
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
