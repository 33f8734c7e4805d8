/*
 * Sees every <<<grid, block>>> launch. nvcc turns the launch syntax into a
 * call of __cudaPushCallConfiguration (CUDA 9 to 13 alike); defining it here
 * interposes the shared runtime's, records the configuration and passes the
 * call on. Test binaries link libcudart dynamically for this to work.
 */
#define _GNU_SOURCE
#include "gpu.h"

#include <dlfcn.h>

#define TL_MAX_LAUNCHES 64

static tl_launch launches[TL_MAX_LAUNCHES];
static int count;

typedef unsigned (*push_fn)(dim3, dim3, size_t, struct CUstream_st *);

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                     struct CUstream_st *stream);

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                     struct CUstream_st *stream)
{
    static push_fn real;
    if (count < TL_MAX_LAUNCHES) {
        tl_launch *l = &launches[count];
        l->grid[0] = grid.x, l->grid[1] = grid.y, l->grid[2] = grid.z;
        l->block[0] = block.x, l->block[1] = block.y, l->block[2] = block.z;
        l->shared_bytes = shared_bytes;
    }
    count++;
    if (!real)
        real = (push_fn)dlsym(RTLD_NEXT, "__cudaPushCallConfiguration");
    return real ? real(grid, block, shared_bytes, stream) : 1;
}

int tl_launch_count(void)
{
    return count;
}

const tl_launch *tl_launch_get(int i)
{
    return i >= 0 && i < count && i < TL_MAX_LAUNCHES ? &launches[i] : NULL;
}

void tl_launch_reset(void)
{
    count = 0;
}
