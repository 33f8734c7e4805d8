#include "gpu.h"
#include "op.h"
#include "timing_lock.h"
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
#include "emu.h"
#endif

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
    case cudaErrorInvalidAddressSpace: /* a wild address that lands in the shared or local window */
        return "a thread read or wrote outside an allocation: an index past the end of an array, "
               "or an access that its bounds test does not guard";
    case cudaErrorLaunchOutOfResources:
        return "too many resources requested: too many registers per thread for this block "
               "size, or too much shared memory per block";
    case cudaErrorMisalignedAddress:
        return "a wide load or store (float2/float4) from an address that is not a multiple "
               "of its size";
    case cudaErrorInvalidValue:
        return "an argument out of range: at a launch, a block of more than 1024 threads or of "
               "more than the kernel's __launch_bounds__ allow, a grid with a side of 0 or a y "
               "or z past 65535, or more dynamic shared memory than the kernel may have (48 KiB "
               "unless cudaFuncSetAttribute raised it); elsewhere a NULL or host pointer, or a "
               "size of 0";
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

/* What the runtime underneath adds to its errors: the emulator says what it saw (emu.h), a
 * GPU's runtime nothing. */
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
const char tl_gpu_runtime_name[32] = TL_EMU_RUNTIME_NAME;
#else
const char tl_gpu_runtime_name[32] = "GPU";
#endif

static const char *error_detail(void)
{
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
    return tl_emu_error_detail();
#else
    return NULL;
#endif
}

static int error_is_the_emulators(void)
{
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
    return tl_emu_error_is_its_own();
#else
    return 0; /* every error is CUDA's */
#endif
}

static const char *lab_refusal(void)
{
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
    return tl_emu_lab_refusal();
#else
    return NULL;
#endif
}

__attribute__((weak)) cudaError_t tl_gpu_lab_error(const char **said)
{
    if (said)
        *said = lab_refusal();
    return cudaGetLastError();
}

__attribute__((weak)) int tl_gpu_lab_plans_ahead(int on)
{
    (void)on; /* a lab's function called directly: nothing to make */
    return 0;
}

/* The error by name and its cause: `cause`, or the usual one when NULL; what the emulator
 * saw alone and first where no GPU gives that error. */
static void explain_as(cudaError_t err, const char *cause, char *buf, size_t len)
{
    const char *detail = error_detail();
    if (detail && error_is_the_emulators()) {
        snprintf(buf, len, "%s\n  (the emulator stops the kernel there, with %s, an error no GPU gives "
                 "for this)", detail, cudaGetErrorName(err));
        return;
    }
    snprintf(buf, len, "CUDA error %s (%s): %s", cudaGetErrorName(err), cudaGetErrorString(err),
             cause ? cause : usual_cause(err));
    if (detail)
        tl_appendf(buf, len, "\n  the emulator saw: %s", detail);
}

void tl_gpu_explain(cudaError_t err, char *buf, size_t len)
{
    explain_as(err, NULL, buf, len);
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

void tl_gpu_describe(FILE *f, const tl_gpu_info *info)
{
    fprintf(f, "# machine: %s, %d SMs, compute capability %d.%d, L2 %zu MiB, %.0f GiB\n",
            info->name, info->sms, info->cc_major, info->cc_minor, info->l2_bytes >> 20,
            (double)info->global_bytes / (1 << 30));
    fprintf(f, "# peak: %.0f GB/s theoretical (2 x %d MHz memory clock x %d-bit bus)\n",
            info->peak_gbps, info->mem_clock_khz / 1000, info->bus_bits);
}

static int fail(cudaError_t err, const char *doing, char *why, size_t why_len)
{
    char explained[512];
    tl_gpu_explain(err, explained, sizeof explained);
    snprintf(why, why_len, "%s: %s", doing, explained);
    return -1;
}

/* The device copies of a lab's matrices, margins included, and their names in lab.h. */
typedef struct {
    tl_matrix *host;
    float *device;
    const char *name;
} device_copy;

static cudaError_t to_device(device_copy *d, int n)
{
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < n && !err; i++) {
        size_t bytes = tl_matrix_total(d[i].host) * sizeof(float);
        if (!(err = cudaMalloc((void **)&d[i].device, bytes)))
            err = cudaMemcpy(d[i].device, d[i].host->base, bytes, cudaMemcpyHostToDevice);
#ifdef TILELAB_EMU_CUDA_RUNTIME_H /* the emulator: an access past a matrix names it */
        if (!err)
            tl_emu_name_allocation(d[i].device, d[i].name, TL_MARGIN * sizeof(float),
                                   d[i].host->count * sizeof(float));
#endif
    }
    return err;
}

static cudaError_t to_host(device_copy *d, int n)
{
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < n && !err; i++)
        err = cudaMemcpy(d[i].host->base, d[i].device,
                         tl_matrix_total(d[i].host) * sizeof(float), cudaMemcpyDeviceToHost);
    return err;
}

static void free_device(device_copy *d, int n)
{
    for (int i = 0; i < n; i++)
        cudaFree(d[i].device);
}


/* An access at a wild address: which error it gives depends on what lies there (nothing, or
 * the window of shared or local memory), so a kernel's one mistake gets one explanation. */
static int wild(cudaError_t err)
{
    return err == cudaErrorIllegalAddress || err == cudaErrorInvalidAddressSpace;
}

/*
 * An error of the student's kernel, with its cause in the lab's own terms
 * where the launch log or the lab says more than the usual list of causes.
 */
static int fail_kernel(cudaError_t err, const char *doing, tl_entry_fn fn, char *why, size_t why_len)
{
    char cause[768] = "", explained[4096];
    /* The lab's operation says what its launches and bounds are (op.h). */
    const tl_op *op = tl_op_of_fn(fn);
    const tl_op_hints *h = op ? &op->hints : NULL;
    /* A refused launch: the runtime says invalid value (CUDA 13, a block or
     * a grid out of range) or invalid configuration (before); the launch log
     * says which of the student's launches it was, and what was wrong with it. */
    int refused = err == cudaErrorInvalidConfiguration || err == cudaErrorInvalidValue;
    for (int i = 0; i < tl_launch_count() && refused && !cause[0]; i++) {
        const tl_launch *l = tl_launch_get(i);
        dim3 block = {l->block[0], l->block[1], l->block[2]};
        tl_launch_fault refusal = tl_launch_fault_of(l->grid, l->block);
        unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
        /* What to change, from the block's own shape: a square one is a tile's side squared. */
        const char *side = h ? h->side : NULL;
        if (refusal == TL_LAUNCH_BAD_BLOCK && threads && block.z == 1 && block.x == block.y && side)
            snprintf(cause, sizeof cause,
                     "your launch asked for blocks of (%u, %u, %u) threads, %llu in all, and a block "
                     "holds at most 1024 threads (x and y at most 1024, z at most 64). A %s x %s "
                     "block needs %s <= 32.",
                     l->block[0], l->block[1], l->block[2], threads, side, side, side);
        else if (refusal == TL_LAUNCH_BAD_BLOCK && threads)
            snprintf(cause, sizeof cause,
                     "your launch asked for blocks of (%u, %u, %u) threads, %llu in all, and a block "
                     "holds at most 1024 threads (x and y at most 1024, z at most 64): x times y "
                     "times z may be 1024 at most, as in 32 x 32 or 64 x 16.",
                     l->block[0], l->block[1], l->block[2], threads);
        else if (!(l->grid[0] && l->grid[1] && l->grid[2]) && h && h->grid_x && h->grid_y) {
            /* The rounding of the side that came out 0: x is the columns, y the rows. */
            const char *x = h->grid_x,
                       *y = l->block[1] != l->block[0] && h->grid_y_steps ? h->grid_y_steps : h->grid_y;
            snprintf(cause, sizeof cause,
                     "your launch asked for a grid of (%u, %u, %u) blocks, and a dimension of 0 "
                     "launches nothing. An integer division rounds down, to 0 when %s smaller than "
                     "a block: round up, %s%s%s, and let the threads past the edge do nothing.",
                     l->grid[0], l->grid[1], l->grid[2], h->small ? h->small : "the matrix is",
                     l->grid[0] ? "" : x,
                     !l->grid[0] && !l->grid[1] ? " and " : "", l->grid[1] ? "" : y);
        }
        else if (refusal == TL_LAUNCH_BAD_GRID)
            snprintf(cause, sizeof cause,
                     "your launch asked for a grid of (%u, %u, %u) blocks, and a grid's y and z hold "
                     "at most 65535 blocks (x up to 2^31 - 1): put the long side of the matrix on x.",
                     l->grid[0], l->grid[1], l->grid[2]);
    }
    /* Outside an array: the lab's matrices, with the bounds and indices of its operation, or
     * a __shared__ one, which a GPU's error does not tell apart (the emulator's detail does). */
    static const char tile[] = "; a __shared__ tile's indices are the thread's place in the tile "
                               "(threadIdx), each below the side the tile was declared with";
    if (!cause[0] && h && h->outside && wild(err))
        snprintf(cause, sizeof cause, "%s%s", h->outside, tile);
    explain_as(err, cause[0] ? cause : NULL, explained, sizeof explained);
    snprintf(why, why_len, "%s: %s", doing, explained);
    return -1;
}


/*
 * Whether the GPU's context was lost in an earlier call of this process: a kernel that
 * faulted (a GPU's sticky errors, and every error the emulator stops a kernel with) leaves
 * every later call failing with its error before anything of it runs, its first copy
 * included, which is then no fault of the copy's.
 */
static int context_lost;

static void note_kernel_failed(void)
{
    context_lost = context_lost || cudaDeviceSynchronize() != cudaSuccess;
}

/* Copies the matrices over, calls the lab, waits, and copies them back. */
static int run_copied(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s, char *why,
                      size_t why_len)
{
    cudaError_t err;
    int rc = -1, n = call->matrices;
    device_copy d[TL_CALL_MATRICES];
    for (int i = 0; i < n; i++)
        d[i] = (device_copy){m[i], NULL, call->device_name[i]};
    if ((err = to_device(d, n)) && context_lost) {
        snprintf(why, why_len, "nothing of this call ran: an earlier call failed and left the GPU's "
                 "context lost (after a kernel fails, every later call fails with its error, %s, "
                 "here at the first copy of the matrices to the GPU)", cudaGetErrorName(err));
        goto done;
    }
    if (err) {
        fail(err, "copying the matrices to the GPU", why, why_len);
        goto done;
    }
    tl_launch_reset();
#ifdef TILELAB_EMU_CUDA_RUNTIME_H /* the emulator refuses what a GPU's plan would (emu.h) */
    tl_emu_lab_running(1);
#endif
    float *data[TL_CALL_MATRICES] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++)
        data[i] = d[i].device + TL_MARGIN;
    tl_call_invoke(call, fn, data, s);
#ifdef TILELAB_EMU_CUDA_RUNTIME_H
    tl_emu_lab_running(0);
#endif
    const char *said;
    if ((err = tl_gpu_lab_error(&said))) {
        if (said)
            snprintf(why, why_len, "launching your kernel: %s", said);
        else
            fail_kernel(err, "launching your kernel", fn, why, why_len);
        note_kernel_failed();
        goto done;
    }
    if ((err = cudaDeviceSynchronize())) {
        fail_kernel(err, "running your kernel", fn, why, why_len);
        note_kernel_failed();
        goto done;
    }
#ifdef TILELAB_EMU_CUDA_RUNTIME_H /* while counting: which work made the output, d[0] (emu.h) */
    tl_emu_output(d[0].device + TL_MARGIN, d[0].host->count * sizeof(float));
#endif
    if ((err = to_host(d, n))) {
        fail(err, "copying the result back from the GPU", why, why_len);
        goto done;
    }
    rc = 0;
done:
    free_device(d, n);
    return rc;
}

const tl_backend tl_gpu_backend = {tl_gpu_runtime_name, 1, run_copied};

int tl_gpu_once(const tl_gpu_op *op, const char *variant, char *why, size_t why_len)
{
    cudaError_t err = op->prepare ? op->prepare(op->ctx) : cudaSuccess;
    tl_todo_reset();
    if (!err && !(err = op->launch(op->ctx)))
        err = cudaDeviceSynchronize();
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    if (tl_todo_message())
        printf("%s: not implemented yet (%s)\n", variant, tl_todo_message());
    return 0;
}

/* Untimed runs until both `runs` and TL_GPU_WARMUP_SECONDS have passed. */
static cudaError_t warm_up(const tl_gpu_op *op, int runs)
{
    cudaError_t err = cudaSuccess;
    double start = tl_now();
    for (int i = 0; !err && (i < runs || tl_now() - start < TL_GPU_WARMUP_SECONDS); i++)
        if (!(err = op->launch(op->ctx)))
            err = cudaDeviceSynchronize();
    return err;
}

int tl_gpu_time(const tl_gpu_op *op, int warmup, int reps, size_t flush_bytes, tl_stats *stats,
                char *why, size_t why_len)
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
    tl_timing_alone(1); /* the GPU to this timing alone, warm-up and all (timing_lock.h) */
    if (warmup > 0 && (err = warm_up(op, warmup))) {
        fail(err, "warm-up run", why, why_len);
        goto done;
    }
    for (int i = 0; i < reps; i++) {
        float ms = 0;
        if (op->prepare && (err = op->prepare(op->ctx))) {
            fail(err, "preparing a repetition", why, why_len);
            goto done;
        }
        if (flush && (err = cudaMemsetAsync(flush, i & 0xff, flush_bytes, 0))) {
            fail(err, "flushing L2", why, why_len);
            goto done;
        }
        if ((err = cudaEventRecord(start, 0)) || (err = op->launch(op->ctx)) ||
            (err = cudaEventRecord(stop, 0)) || (err = cudaEventSynchronize(stop)) ||
            (err = cudaEventElapsedTime(&ms, start, stop))) {
            fail(err, "timed run", why, why_len);
            goto done;
        }
        t[i] = ms * 1e-3;
        if (op->verify && op->verify(op->ctx, i, i == reps - 1, why, why_len) != 0)
            goto done;
    }
    *stats = tl_stats_of(t, reps);
    rc = 0;
done:
    tl_timing_alone(0);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(flush);
    free(t);
    return rc;
}
