/*
 * The GPU the emulator stands in for, where a GPU grades (TILELAB_EMU_DEVICE: the
 * grader's probe of it, harness/grade/grade_gpu_probe.c). A GPU grading judges
 * technique from the emulator's build and speed from the GPU's: where the runtime
 * answered the emulator's own name, an SM count of its model and no clocks, a
 * file could tell the two apart and launch a tiled kernel where it is counted and
 * a naive one where it is timed. So with a GPU's record, cudaGetDeviceProperties,
 * cudaDeviceGetAttribute, cudaMemGetInfo, the versions and the device count answer
 * as that GPU did, and an honest file that sizes its grid by the SMs launches the
 * same grid in both builds. (What it launched is compared anyway: tests/
 * gpu_technique.h.) Without one, the emulator's own answers (runtime.c).
 */
#include "cuda_runtime.h"
#include "emulator.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ATTRS 256

static struct {
    int loaded, known;
    char name[256];
    unsigned char uuid[16];
    size_t total, free_bytes;
    int driver, runtime, devices;
    int has[ATTRS], value[ATTRS];
} gpu;

/* TILELAB_EMU_DEVICE holds the probe's lines themselves, each ended by ';' (a lab process
 * opens no file: confine.c). */
static void load(void)
{
    const char *text = getenv("TILELAB_EMU_DEVICE");
    char line[512];
    if (gpu.loaded)
        return;
    gpu.loaded = 1;
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, ";");
        int a, v;
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
        p += n + (p[n] == ';');
        if (!strncmp(line, "name ", 5)) {
            snprintf(gpu.name, sizeof gpu.name, "%.255s", line + 5);
            gpu.known = 1;
        } else if (!strncmp(line, "uuid ", 5)) {
            for (int i = 0; i < 16 && line[5 + 2 * i] && line[6 + 2 * i]; i++) {
                unsigned byte;
                if (sscanf(line + 5 + 2 * i, "%2x", &byte) == 1)
                    gpu.uuid[i] = (unsigned char)byte;
            }
        } else if (sscanf(line, "memory %zu %zu", &gpu.total, &gpu.free_bytes) == 2 ||
                   sscanf(line, "versions %d %d", &gpu.driver, &gpu.runtime) == 2 ||
                   sscanf(line, "devices %d", &gpu.devices) == 1) {
            continue;
        } else if (sscanf(line, "attr %d %d", &a, &v) == 2 && a > 0 && a < ATTRS) {
            gpu.has[a] = 1, gpu.value[a] = v;
        }
    }
}

int tl_emu_device_known(void)
{
    load();
    return gpu.known;
}

int tl_emu_device_attr(int attr, int *value)
{
    load();
    if (!gpu.known || attr <= 0 || attr >= ATTRS || !gpu.has[attr])
        return 0;
    *value = gpu.value[attr];
    return 1;
}

/* The GPU's answers over the emulator's, field by field (the attribute each field is). */
void tl_emu_device_properties(struct cudaDeviceProp *p)
{
    static const struct {
        int attr;
        size_t offset, size;
    } fields[] = {
#define F(a, field) {a, offsetof(struct cudaDeviceProp, field), sizeof(((struct cudaDeviceProp *)0)->field)}
        F(cudaDevAttrMaxThreadsPerBlock, maxThreadsPerBlock), F(cudaDevAttrMaxBlockDimX, maxThreadsDim[0]),
        F(cudaDevAttrMaxBlockDimY, maxThreadsDim[1]), F(cudaDevAttrMaxBlockDimZ, maxThreadsDim[2]),
        F(cudaDevAttrMaxGridDimX, maxGridSize[0]), F(cudaDevAttrMaxGridDimY, maxGridSize[1]),
        F(cudaDevAttrMaxGridDimZ, maxGridSize[2]), F(cudaDevAttrMaxSharedMemoryPerBlock, sharedMemPerBlock),
        F(cudaDevAttrTotalConstantMemory, totalConstMem), F(cudaDevAttrWarpSize, warpSize),
        F(cudaDevAttrMaxRegistersPerBlock, regsPerBlock), F(cudaDevAttrClockRate, clockRate),
        F(cudaDevAttrMultiProcessorCount, multiProcessorCount), F(cudaDevAttrComputeCapabilityMajor, major),
        F(cudaDevAttrComputeCapabilityMinor, minor), F(cudaDevAttrPciBusId, pciBusID),
        F(cudaDevAttrPciDeviceId, pciDeviceID), F(cudaDevAttrPciDomainId, pciDomainID),
        F(cudaDevAttrMemoryClockRate, memoryClockRate), F(cudaDevAttrGlobalMemoryBusWidth, memoryBusWidth),
        F(cudaDevAttrL2CacheSize, l2CacheSize), F(cudaDevAttrMaxThreadsPerMultiProcessor, maxThreadsPerMultiProcessor),
        F(cudaDevAttrEccEnabled, ECCEnabled), F(cudaDevAttrAsyncEngineCount, asyncEngineCount),
        F(cudaDevAttrMaxSharedMemoryPerMultiprocessor, sharedMemPerMultiprocessor),
        F(cudaDevAttrMaxRegistersPerMultiprocessor, regsPerMultiprocessor),
        F(cudaDevAttrMaxSharedMemoryPerBlockOptin, sharedMemPerBlockOptin),
        F(cudaDevAttrMaxBlocksPerMultiprocessor, maxBlocksPerMultiProcessor),
        F(cudaDevAttrReservedSharedMemoryPerBlock, reservedSharedMemPerBlock),
#undef F
    };
    int v;
    if (!tl_emu_device_known())
        return;
    snprintf(p->name, sizeof p->name, "%s", gpu.name);
    memcpy(p->uuid.bytes, gpu.uuid, sizeof gpu.uuid);
    if (gpu.total)
        p->totalGlobalMem = gpu.total;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        if (!tl_emu_device_attr(fields[i].attr, &v))
            continue;
        if (fields[i].size == sizeof(int))
            memcpy((char *)p + fields[i].offset, &v, sizeof v);
        else {
            size_t wide = (size_t)(unsigned)v;
            memcpy((char *)p + fields[i].offset, &wide, sizeof wide);
        }
    }
}

int tl_emu_device_meminfo(size_t *free_bytes, size_t *total)
{
    if (!tl_emu_device_known() || !gpu.total)
        return 0;
    *free_bytes = gpu.free_bytes, *total = gpu.total;
    return 1;
}

int tl_emu_device_versions(int *driver, int *runtime, int *devices)
{
    if (!tl_emu_device_known())
        return 0;
    *driver = gpu.driver, *runtime = gpu.runtime, *devices = gpu.devices > 0 ? gpu.devices : 1;
    return 1;
}

/* Read before any code of the lab's runs (a constructor of its own may ask too). */
__attribute__((constructor(101))) static void read_early(void)
{
    load();
}
