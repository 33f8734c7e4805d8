#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usual_cause(cudaError_t err)
{
    switch (err) {
    case cudaErrorInvalidConfiguration:
        return "more than 1024 threads per block, a block dimension over its limit "
               "(x, y <= 1024, z <= 64), a grid of 0 blocks, or gridDim.y/z over 65535?";
    case cudaErrorIllegalAddress:
        return "a thread read or wrote outside an allocation: check the bounds test "
               "(x < cols && y < rows) and the index (row * width + col)";
    case cudaErrorLaunchOutOfResources:
        return "too many resources requested: too many registers per thread for this block "
               "size, or too much shared memory per block";
    case cudaErrorMisalignedAddress:
        return "a wide load or store (float2/float4) from an address that is not a multiple "
               "of its size";
    case cudaErrorInvalidValue:
        return "an argument out of range: a NULL or host pointer, or a size of 0";
    case cudaErrorInvalidDevicePointer:
        return "a host pointer where a device pointer was expected";
    case cudaErrorNoKernelImageForDevice:
        return "the program was built for another GPU: rebuild with CUDA_ARCH set to this one "
               "(e.g. make clean; make ... CUDA_ARCH=native)";
    case cudaErrorNoDevice:
        return "no NVIDIA GPU is visible to this process";
    case cudaErrorInsufficientDriver:
        return "the NVIDIA driver is older than this CUDA toolkit";
    case cudaErrorMemoryAllocation:
        return "the GPU does not have that much free memory";
    case cudaErrorLaunchTimeout:
        return "the kernel ran too long (an endless loop?)";
    case cudaErrorAssert:
        return "an assert() in device code failed";
    default:
        return "see the CUDA Runtime API documentation for this error";
    }
}

void tl_gpu_explain(cudaError_t err, char *buf, size_t len)
{
    snprintf(buf, len, "CUDA error %s (%s): %s", cudaGetErrorName(err), cudaGetErrorString(err),
             usual_cause(err));
#ifdef TILELAB_EMULATOR
    /* The emulator knows which thread did it, and where. */
    const char *detail = tl_emu_error_detail();
    if (detail)
        tl_appendf(buf, len, "\n  the emulator saw: %s", detail);
#endif
}

int tl_gpu_available(char *why, size_t why_len)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        if (access("/dev/nvidiactl", F_OK) != 0)
            snprintf(why, why_len, "no NVIDIA GPU or driver found: cudaGetDeviceCount says %s",
                     cudaGetErrorName(err));
        else
            tl_gpu_explain(err, why, why_len);
        cudaGetLastError();
        return 0;
    }
    if (n == 0) {
        snprintf(why, why_len, "no CUDA device found");
        return 0;
    }
    return 1;
}

int tl_gpu_query(tl_gpu_info *info, char *why, size_t why_len)
{
    struct cudaDeviceProp prop;
    int dev = 0, l2 = 0;
    cudaError_t err;
    memset(info, 0, sizeof *info);
    if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&info->mem_clock_khz, cudaDevAttrMemoryClockRate, dev)) ||
        (err = cudaDeviceGetAttribute(&info->bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev)) ||
        (err = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev))) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->sms = prop.multiProcessorCount;
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->l2_bytes = (size_t)l2;
    info->global_bytes = prop.totalGlobalMem;
    info->peak_gbps = 2.0 * info->mem_clock_khz * 1e3 * (info->bus_bits / 8) / 1e9;
    return 0;
}

static int fail(cudaError_t err, const char *doing, char *why, size_t why_len)
{
    char explained[512];
    tl_gpu_explain(err, explained, sizeof explained);
    snprintf(why, why_len, "%s: %s", doing, explained);
    return -1;
}

static int run_on_gpu(tl_transpose_fn fn, tl_matrix *out, tl_matrix *in, tl_shape s, char *why,
                      size_t why_len)
{
    size_t in_bytes = tl_matrix_total(in) * sizeof(float);
    size_t out_bytes = tl_matrix_total(out) * sizeof(float);
    float *d_in = NULL, *d_out = NULL;
    cudaError_t err;
    int rc = -1;

    if ((err = cudaMalloc((void **)&d_in, in_bytes)) != cudaSuccess ||
        (err = cudaMalloc((void **)&d_out, out_bytes)) != cudaSuccess) {
        fail(err, "allocating the matrices on the GPU", why, why_len);
        goto done;
    }
    if ((err = cudaMemcpy(d_in, in->base, in_bytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (err = cudaMemcpy(d_out, out->base, out_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
        fail(err, "copying the matrices to the GPU", why, why_len);
        goto done;
    }
    tl_launch_reset();
    fn(d_out + TL_MARGIN, d_in + TL_MARGIN, s.rows, s.cols);
    if ((err = cudaGetLastError()) != cudaSuccess) {
        fail(err, "launching your kernel", why, why_len);
        goto done;
    }
    if ((err = cudaDeviceSynchronize()) != cudaSuccess) {
        fail(err, "running your kernel", why, why_len);
        goto done;
    }
    if ((err = cudaMemcpy(in->base, d_in, in_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess ||
        (err = cudaMemcpy(out->base, d_out, out_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess) {
        fail(err, "copying the result back from the GPU", why, why_len);
        goto done;
    }
    rc = 0;
done:
    cudaFree(d_in);
    cudaFree(d_out);
    return rc;
}

#ifdef TILELAB_EMULATOR
const tl_backend tl_gpu_backend = {"CPU emulator of a GPU", run_on_gpu};
#else
const tl_backend tl_gpu_backend = {"GPU", run_on_gpu};
#endif

int tl_gpu_time(tl_gpu_launch_fn launch, void *ctx, int warmup, int reps, size_t flush_bytes,
                tl_stats *stats, char *why, size_t why_len)
{
    cudaEvent_t start = NULL, stop = NULL;
    void *flush = NULL;
    double *t = calloc((size_t)reps, sizeof *t);
    cudaError_t err = cudaSuccess;
    int rc = -1;

    if (!t) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    if ((err = cudaEventCreate(&start)) || (err = cudaEventCreate(&stop)) ||
        (flush_bytes && (err = cudaMalloc(&flush, flush_bytes)))) {
        fail(err, "preparing the timer", why, why_len);
        goto done;
    }
    for (int i = 0; i < warmup; i++)
        if ((err = launch(ctx)) != cudaSuccess) {
            fail(err, "warm-up run", why, why_len);
            goto done;
        }
    for (int i = 0; i < reps; i++) {
        float ms = 0;
        if (flush && (err = cudaMemsetAsync(flush, i & 0xff, flush_bytes, 0))) {
            fail(err, "flushing L2", why, why_len);
            goto done;
        }
        if ((err = cudaEventRecord(start, 0)) || (err = launch(ctx)) ||
            (err = cudaEventRecord(stop, 0)) || (err = cudaEventSynchronize(stop)) ||
            (err = cudaEventElapsedTime(&ms, start, stop))) {
            fail(err, "timed run", why, why_len);
            goto done;
        }
        t[i] = ms * 1e-3;
    }
    *stats = tl_stats_of(t, reps);
    rc = 0;
done:
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(flush);
    free(t);
    return rc;
}
