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

tl_launch_fault tl_launch_fault_of(dim3 grid, dim3 block)
{
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        return TL_LAUNCH_BAD_BLOCK;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
        grid.z > 65535)
        return TL_LAUNCH_BAD_GRID;
    return TL_LAUNCH_RUNS;
}

cudaError_t tl_launch_refusal(dim3 grid, dim3 block)
{
    if (tl_launch_fault_of(grid, block) == TL_LAUNCH_RUNS)
        return cudaSuccess;
    return CUDART_VERSION >= 13000 ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
}
