/*
 * Sees every <<<grid, block>>> launch on a real GPU. nvcc turns the launch
 * syntax into a call of __cudaPushCallConfiguration (CUDA 9 to 13 alike);
 * defining it here interposes the shared runtime's: the configuration is
 * recorded, then the call goes on. Test binaries link libcudart
 * dynamically for this to work.
 */
#define _GNU_SOURCE
#include "gpu.h"

#include <dlfcn.h>

typedef unsigned (*push_fn)(dim3, dim3, size_t, struct CUstream_st *);

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                     struct CUstream_st *stream);

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                     struct CUstream_st *stream)
{
    static push_fn real;
    tl_launch_record(grid, block, shared_bytes, NULL); /* the kernel comes with the launch after this */
    if (!real)
        real = (push_fn)dlsym(RTLD_NEXT, "__cudaPushCallConfiguration");
    return real ? real(grid, block, shared_bytes, stream) : 1;
}
