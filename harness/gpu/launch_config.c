/*
 * A <<<grid, block>>> as CUDA sees it, for the GPU glue: into the launch log
 * and what a GPU refuses of it (launch.h's rule), with dim3s. On a GPU,
 * cuda_launch_hook.c records each launch; the emulator, below this glue,
 * applies the same rule itself.
 */
#include "gpu.h"

void tl_launch_record(dim3 grid, dim3 block, size_t shared, const char *kernel)
{
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    tl_launch_note(g, b, (unsigned long)shared, kernel);
}

cudaError_t tl_launch_refusal(dim3 grid, dim3 block)
{
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    if (tl_launch_fault_of(g, b) == TL_LAUNCH_RUNS)
        return cudaSuccess;
    return CUDART_VERSION >= 13000 ? cudaErrorInvalidValue : cudaErrorInvalidConfiguration;
}
