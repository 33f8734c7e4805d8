/*
 * cuda_pipeline_primitives.h for the emulator: a thread's asynchronous
 * copies of 4, 8 or 16 bytes from global into shared memory, in batches
 * (__pipeline_commit) it waits for (__pipeline_wait_prior). The copies land
 * when the thread waits for them (emulator.c), not before: a read of the
 * destination before the wait reads what was there.
 */
#ifndef TILELAB_EMU_CUDA_PIPELINE_PRIMITIVES_H
#define TILELAB_EMU_CUDA_PIPELINE_PRIMITIVES_H

#include "cuda_runtime.h"

#ifdef __cplusplus
static inline void __pipeline_memcpy_async(void *dst_shared, const void *src_global,
                                           size_t size_and_align, size_t zfill = 0)
{
    tl_emu_cuda_pipeline_copy(dst_shared, src_global, size_and_align, zfill);
}
static inline void __pipeline_commit(void) { tl_emu_cuda_pipeline_commit(); }
static inline void __pipeline_wait_prior(size_t prior) { tl_emu_cuda_pipeline_wait(prior); }
#endif

#endif
