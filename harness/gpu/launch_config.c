/*
 * A <<<grid, block>>> as CUDA sees it: into the launch log (launch.h), and
 * what a GPU refuses of it. On a GPU, cuda_launch_hook.c records each
 * launch; in the emulator, the emulator does, and refuses by the same rule.
 */
#include "gpu.h"

void tl_launch_record(dim3 grid, dim3 block, size_t shared, const char *kernel)
{
    tl_launch l = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, (unsigned)shared, ""};
    snprintf(l.kernel, sizeof l.kernel, "%s", kernel ? kernel : "");
    tl_launch_add(&l);
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
