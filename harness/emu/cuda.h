/*
 * <cuda.h> for the emulator: what a program that uses the runtime API takes
 * from it (CUDA_VERSION, the driver API's basic types). The driver API
 * itself (cuInit, cuModuleLoad, cuLaunchKernel, ...) is not supported: a
 * call to one fails to build, saying so.
 */
#ifndef TILELAB_EMU_CUDA_H
#define TILELAB_EMU_CUDA_H

#include "cuda_runtime.h"

#define CUDA_VERSION 13000

typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1,
                              CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_NOT_INITIALIZED = 3,
                              CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;

#ifdef __cplusplus
#define TL_EMU_DRIVER(name) \
    template <class... A> CUresult name(A...) TL_EMU_UNSUPPORTED(#name " (the CUDA driver API)");
TL_EMU_DRIVER(cuInit)
TL_EMU_DRIVER(cuDeviceGet)
TL_EMU_DRIVER(cuDeviceGetCount)
TL_EMU_DRIVER(cuDeviceGetName)
TL_EMU_DRIVER(cuDeviceGetAttribute)
TL_EMU_DRIVER(cuCtxCreate)
TL_EMU_DRIVER(cuCtxGetCurrent)
TL_EMU_DRIVER(cuCtxSynchronize)
TL_EMU_DRIVER(cuCtxDestroy)
TL_EMU_DRIVER(cuModuleLoad)
TL_EMU_DRIVER(cuModuleLoadData)
TL_EMU_DRIVER(cuModuleGetFunction)
TL_EMU_DRIVER(cuLaunchKernel)
TL_EMU_DRIVER(cuMemAlloc)
TL_EMU_DRIVER(cuMemFree)
TL_EMU_DRIVER(cuMemcpyHtoD)
TL_EMU_DRIVER(cuMemcpyDtoH)
TL_EMU_DRIVER(cuGetErrorName)
TL_EMU_DRIVER(cuGetErrorString)
TL_EMU_DRIVER(cuDriverGetVersion)
#undef TL_EMU_DRIVER
#endif

#endif
