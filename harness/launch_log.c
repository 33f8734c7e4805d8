/*
 * The record of kernel launches that the technique checks read: the grid
 * and block of each <<<grid, block>>> since the last reset. On a GPU,
 * cuda_launch_hook.c feeds it; in the emulator, the emulator does.
 */
#include "gpu.h"

#define TL_MAX_LAUNCHES 64

static tl_launch launches[TL_MAX_LAUNCHES];
static int count;

void tl_launch_record(dim3 grid, dim3 block)
{
    if (count < TL_MAX_LAUNCHES) {
        tl_launch *l = &launches[count];
        l->grid[0] = grid.x, l->grid[1] = grid.y, l->grid[2] = grid.z;
        l->block[0] = block.x, l->block[1] = block.y, l->block[2] = block.z;
    }
    count++;
}

cudaError_t tl_launch_refusal(dim3 grid, dim3 block)
{
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        return cudaErrorInvalidValue;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
        grid.z > 65535)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
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
