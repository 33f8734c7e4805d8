/*
 * The lines lab 10's bench draws beside a reduction (bench_reduce.h): the
 * ceiling, a read-only stream of the same bytes, and the library, CUB's
 * DeviceReduce::Sum. Built by nvcc for a GPU only: the emulator times
 * nothing.
 *
 * The stream reads every float once, as a sum must, and does the least
 * that keeps the compiler from dropping a load: each thread folds its
 * floats' bits into one word with XOR, reading as the reference reads (a
 * contiguous share of whole rows of float4s a block, eight loads in flight
 * a thread, the read-only data path), and stores that word only where it
 * equals a value the caller chose, which the compiler cannot know and the
 * data almost never give. So its time is the read's alone: no arithmetic
 * a sum needs, no tree, no atomic, no write to speak of.
 */
#include <cub/cub.cuh>
#include <stdint.h>

#include "bench_reduce.h"

#define STREAM_THREADS 512
#define STREAM_UNROLL 8

__global__ __launch_bounds__(STREAM_THREADS) void stream_read(const float4 *__restrict__ in,
                                                              size_t quads, const float *tail,
                                                              size_t tail_n, unsigned *sink,
                                                              unsigned sentinel)
{
    /* The block's share: rows [first, last) of STREAM_THREADS float4s (lab 10's reference). */
    size_t rows = quads / STREAM_THREADS, per = rows / gridDim.x, extra = rows % gridDim.x;
    size_t first = (blockIdx.x * per + (blockIdx.x < extra ? blockIdx.x : extra)) * STREAM_THREADS;
    size_t last = first + (per + (blockIdx.x < extra)) * STREAM_THREADS;
    unsigned acc = 0;
    size_t q = first + threadIdx.x;
    for (; q + (STREAM_UNROLL - 1) * STREAM_THREADS < last; q += STREAM_UNROLL * STREAM_THREADS) {
        float4 v[STREAM_UNROLL];
#pragma unroll
        for (int u = 0; u < STREAM_UNROLL; u++)
            v[u] = __ldg(&in[q + u * STREAM_THREADS]);
#pragma unroll
        for (int u = 0; u < STREAM_UNROLL; u++)
            acc ^= __float_as_uint(v[u].x) ^ __float_as_uint(v[u].y) ^ __float_as_uint(v[u].z) ^
                   __float_as_uint(v[u].w);
    }
    for (; q < last; q += STREAM_THREADS) {
        float4 v = __ldg(&in[q]);
        acc ^= __float_as_uint(v.x) ^ __float_as_uint(v.y) ^ __float_as_uint(v.z) ^ __float_as_uint(v.w);
    }
    size_t thread = (size_t)blockIdx.x * STREAM_THREADS + threadIdx.x;
    size_t stride = (size_t)gridDim.x * STREAM_THREADS;
    for (q = rows * STREAM_THREADS + thread; q < quads; q += stride) {
        float4 v = __ldg(&in[q]);
        acc ^= __float_as_uint(v.x) ^ __float_as_uint(v.y) ^ __float_as_uint(v.z) ^ __float_as_uint(v.w);
    }
    if (thread < tail_n)
        acc ^= __float_as_uint(tail[thread]);
    if (acc == sentinel)
        *sink = acc;
}

extern "C" cudaError_t tl_stream_read(const float *d_in, size_t n, unsigned *d_sink,
                                      unsigned sentinel, int sms)
{
    /* d_in from cudaMalloc (the bench's own buffers): 256-byte aligned, float4 from the start. */
    size_t quads = n / 4, per_block = (size_t)STREAM_THREADS * STREAM_UNROLL;
    size_t blocks = (quads + per_block - 1) / per_block, most = (size_t)sms * (2048 / STREAM_THREADS);
    if (blocks > most)
        blocks = most;
    if (blocks == 0)
        blocks = 1;
    stream_read<<<(unsigned)blocks, STREAM_THREADS>>>((const float4 *)d_in, quads, d_in + quads * 4,
                                                        n - quads * 4, d_sink, sentinel);
    return cudaGetLastError();
}

/* CUB takes the element count as a template type from CCCL 2 on (CUDA 12.3): n past 2^31 then. */
#if defined(CUB_VERSION) && CUB_VERSION >= 200200
typedef size_t cub_count;
#else
typedef int cub_count;
#endif

extern "C" int tl_cub_sum_fits(size_t n)
{
    /* an int count holds n below 2^31; a size_t one any n */
    return sizeof(cub_count) == sizeof(size_t) || n <= (size_t)INT32_MAX;
}

extern "C" cudaError_t tl_cub_sum_bytes(size_t n, size_t *temp_bytes)
{
    *temp_bytes = 0;
    return cub::DeviceReduce::Sum(NULL, *temp_bytes, (const float *)NULL, (float *)NULL,
                                  (cub_count)n);
}

extern "C" cudaError_t tl_cub_sum(void *d_temp, size_t temp_bytes, const float *d_in, float *d_out,
                                  size_t n)
{
    return cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, (cub_count)n);
}
