/*
 * grade-gpu-probe: can a CUDA program use the GPU here? The grader runs it
 * inside its sandbox before grading the GPU labs on the GPU. Exits 0 when
 * it can, printing the GPU as the CUDA runtime describes it (the grader keeps
 * it as WORK/gpu-device: the emulator's run of the technique checks answers
 * with it, and its SMs size the grids the launches' comparison allows,
 * grade_lab.c); otherwise prints why and exits 1.
 *
 * What it prints, a line each: "name NAME", "uuid HEX", "memory TOTAL FREE",
 * "versions DRIVER RUNTIME", "devices N", and "attr N VALUE" for every
 * cudaDeviceAttr the runtime answers (harness/emu/device.c reads them).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"

static void describe(void)
{
    struct cudaDeviceProp p;
    size_t free_bytes = 0, total = 0;
    int driver = 0, runtime = 0, devices = 0, value;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
        return;
    printf("name %s\nuuid ", p.name);
    for (int i = 0; i < 16; i++)
        printf("%02x", (unsigned char)p.uuid.bytes[i]);
    cudaMemGetInfo(&free_bytes, &total);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    cudaGetDeviceCount(&devices);
    printf("\nmemory %zu %zu\nversions %d %d\ndevices %d\n", total, free_bytes, driver, runtime, devices);
    for (int a = 1; a < 256; a++)
        if (cudaDeviceGetAttribute(&value, (enum cudaDeviceAttr)a, 0) == cudaSuccess)
            printf("attr %d %d\n", a, value);
    cudaGetLastError();
}

int main(void)
{
    char why[512];
    if (getenv("TILELAB_GRADE_NO_GPU")) { /* the grader's tests: a sandbox without the GPU */
        printf("TILELAB_GRADE_NO_GPU is set\n");
        return 1;
    }
    if (!tl_gpu_available(why, sizeof why)) {
        printf("%s\n", why);
        return 1;
    }
    describe();
    return 0;
}
