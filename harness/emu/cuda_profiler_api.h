/* cuda_profiler_api.h for the emulator: a profiler's start and stop, which do nothing here. */
#ifndef TILELAB_EMU_CUDA_PROFILER_API_H
#define TILELAB_EMU_CUDA_PROFILER_API_H

#include "cuda_runtime.h"

static inline cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
static inline cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

#endif
