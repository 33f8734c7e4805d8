/*
 * Lab 10's lines beside a reduction (bench_reduce.cu, built by nvcc),
 * each launched on the default stream without waiting, each reading the n
 * floats at d_in once: what the bench's GPU back end times them as.
 * Work: n * 4 bytes read; unit GB/s.
 */
#ifndef TILELAB_BENCH_REDUCE_H
#define TILELAB_BENCH_REDUCE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The ceiling: every float of d_in (cudaMalloc'd: float4-aligned) read
 * once, folded so that no load can be dropped, on a grid of the blocks
 * sms SMs hold at once; d_sink (one word) is written only where the fold
 * equals sentinel, which the compiler cannot know: any word will do (a
 * chance match is one 4-byte store).
 */
cudaError_t tl_stream_read(const float *d_in, size_t n, unsigned *d_sink, unsigned sentinel,
                           int sms);

/* The library: CUB's DeviceReduce::Sum into *d_out, with its scratch of tl_cub_sum_bytes(n)
 * bytes allocated outside the timing; tl_cub_sum_fits(n): whether this CUB counts n items. */
int tl_cub_sum_fits(size_t n);
cudaError_t tl_cub_sum_bytes(size_t n, size_t *temp_bytes);
cudaError_t tl_cub_sum(void *d_temp, size_t temp_bytes, const float *d_in, float *d_out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
