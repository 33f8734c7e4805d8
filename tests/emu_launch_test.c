/*
 * The emulator's launch rules, with the errors CUDA 13 gives on the H100
 * (tests/probes/launch_limits.cu, plots/data/launch-limits-h100.txt):
 * dynamic shared memory and its opt-in above 48 KiB, __launch_bounds__,
 * registers a block, and launches from pointers to the arguments.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu.h"
#include "gpu.h"
#include "matrix.h"

cudaError_t launch_dynamic_tile(float *out, int threads, size_t bytes, int read_past);
cudaError_t launch_two_names(float *out);
cudaError_t launch_half_written(float *out);
cudaError_t launch_static_and_dynamic(float *out, size_t bytes);
cudaError_t opt_in(size_t bytes);
cudaError_t launch_bounded(float *out, dim3 block);
cudaError_t launch_bounded_template(float *out, int threads);
cudaError_t launch_register_hungry(float *out, int threads);
cudaError_t attributes_of(int which, struct cudaFuncAttributes *a);
cudaError_t launch_by_pointers(int form, float *out, int n, double scale, char c, unsigned threads);
cudaError_t launch_ex(int form, float *out, int n, float scale, int c, unsigned threads, int attribute);
cudaError_t best_block(int which, int *grid, int *block, int limit);
cudaError_t launch_template_tiles(float *out, int big);

static float *device_zeros(size_t n)
{
    float *d = NULL;
    cr_assert_eq(cudaMalloc((void **)&d, n * sizeof *d), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, n * sizeof *d), cudaSuccess);
    return d;
}

static void fetch(float *h, const float *d, size_t n)
{
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost), cudaSuccess);
}

/* A launch CUDA refuses: its error at once, not sticky, and nothing of the kernel ran. */
static void refused(cudaError_t got, cudaError_t want, const char *why, const float *out)
{
    float h[4];
    cr_assert_eq(got, want, "the launch gave %s where CUDA gives %s", cudaGetErrorName(got),
                 cudaGetErrorName(want));
    cr_assert(strstr(tl_emu_error_detail(), why), "%s", tl_emu_error_detail());
    cudaGetLastError(); /* as after any call that failed, the last error is this one */
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "a refused launch is not a sticky error");
    fetch(h, out, 4);
    cr_assert_eq(h[0], 0.0f, "a refused launch must not run: out[0] = %g", h[0]);
}

Test(emulator_launch, dynamic_shared_memory_is_the_launchs_third_argument)
{
    float *out = device_zeros(64), h[64];
    cr_assert_eq(launch_dynamic_tile(out, 32, 32 * sizeof(float), 0), cudaSuccess);
    fetch(h, out, 32);
    for (int i = 0; i < 32; i++)
        cr_expect_eq(h[i], (float)((i + 1) % 32), "thread %d read %g", i, h[i]);
}

Test(emulator_launch, dynamic_shared_memory_is_checked_poisoned_and_counted)
{
    float *out = device_zeros(64), h[32];
    tl_emu_stats_reset();
    tl_emu_profile(1);
    cr_assert_eq(launch_half_written(out), cudaSuccess);
    tl_emu_profile(0);
    fetch(h, out, 32);
    cr_expect_eq(h[0], 1.0f);
    cr_expect_eq(tl_float_bits(h[1]), TL_SHARED_POISON_BITS, "a word no thread wrote: %g", h[1]);
    const tl_emu_stats *s = tl_emu_stats_get(0);
    cr_expect_eq(s->shared_store_requests, 1, "%llu", s->shared_store_requests);
    cr_expect_eq(s->shared_load_requests, 1, "%llu", s->shared_load_requests);
    cr_assert_eq(launch_dynamic_tile(out, 32, 32 * sizeof(float), 32), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(strstr(tl_emu_error_detail(), "of the dynamic shared memory (extern __shared__), past "
                     "its end: the launch gave the block 128 bytes"), "%s", tl_emu_error_detail());
}

Test(emulator_launch, every_extern_shared_array_is_the_same_memory)
{
    float *out = device_zeros(32), h[32];
    cr_assert_eq(launch_two_names(out), cudaSuccess);
    fetch(h, out, 32);
    cr_assert_eq(h[31], 62.0f, "%g", h[31]);
}

Test(emulator_launch, more_than_48_kib_of_dynamic_shared_memory_needs_the_opt_in)
{
    float *out = device_zeros(64);
    cr_assert_eq(launch_dynamic_tile(out, 32, 48 << 10, 0), cudaSuccess, "48 KiB, as on the H100");
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    refused(launch_dynamic_tile(out, 32, (48 << 10) + 1, 0), cudaErrorInvalidValue,
            "cudaFuncAttributeMaxDynamicSharedMemorySize", out);
    cr_assert_eq(opt_in(100 << 10), cudaSuccess);
    cr_assert_eq(launch_dynamic_tile(out, 32, 100 << 10, 0), cudaSuccess, "opted in to 100 KiB");
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    refused(launch_dynamic_tile(out, 32, (100 << 10) + 4, 0), cudaErrorInvalidValue,
            "more than the 102400 that cudaFuncSetAttribute", out);
    cr_assert_eq(opt_in(227 << 10), cudaSuccess, "the H100's sharedMemPerBlockOptin");
    cr_assert_eq(opt_in((227 << 10) + 4), cudaErrorInvalidValue);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "the last error, until it is read");
    cr_assert_eq(launch_dynamic_tile(out, 32, 227 << 10, 0), cudaSuccess, "%s", tl_emu_error_detail());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
}

Test(emulator_launch, static_shared_memory_counts_against_the_48_kib)
{
    struct cudaFuncAttributes a;
    cr_assert_eq(attributes_of(2, &a), cudaSuccess);
    if (a.sharedSizeBytes == 0)
        cr_skip_test("nvcc is not installed: without ptxas's report the emulator does not know a "
                     "kernel's static shared memory (a known limit, harness/emu/README.md)");
    cr_assert_eq(a.sharedSizeBytes, 16384);
    cr_assert_eq(a.maxDynamicSharedSizeBytes, 32768, "48 KiB less the static 16: %d", a.maxDynamicSharedSizeBytes);
    float *out = device_zeros(64);
    cr_assert_eq(launch_static_and_dynamic(out, 32 << 10), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    refused(launch_static_and_dynamic(out, (32 << 10) + 4), cudaErrorInvalidValue,
            "beside the kernel's static __shared__ arrays", out);
}

Test(emulator_launch, launch_bounds_refuse_a_larger_block)
{
    float *out = device_zeros(1024);
    cr_assert_eq(launch_bounded(out, (dim3){256, 1, 1}), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0, 1024 * sizeof(float)), cudaSuccess);
    refused(launch_bounded(out, (dim3){257, 1, 1}), cudaErrorInvalidValue,
            "257 threads per block, more than the kernel's __launch_bounds__(256) allows", out);
    refused(launch_bounded(out, (dim3){16, 17, 1}), cudaErrorInvalidValue, "__launch_bounds__(256)", out);
    refused(launch_bounded_template(out, 128), cudaErrorInvalidValue, "__launch_bounds__(64)", out);
    cr_assert_eq(launch_bounded_template(out, 64), cudaSuccess, "a template's bounds, from its argument");
}

Test(emulator_launch, too_many_registers_a_block_is_out_of_resources)
{
    struct cudaFuncAttributes a;
    cr_assert_eq(attributes_of(1, &a), cudaSuccess);
    if (a.numRegs == 0)
        cr_skip_test("nvcc is not installed: without ptxas's report the emulator does not know a "
                     "kernel's registers (a known limit, harness/emu/README.md)");
    cr_assert_gt(a.numRegs, 64, "ptxas gives it %d registers", a.numRegs);
    int fits = 65536 / ((a.numRegs + 7) / 8 * 8 * 32) * 32;
    cr_assert_eq(a.maxThreadsPerBlock, fits, "%d registers a thread: %d threads a block, not %d",
                 a.numRegs, fits, a.maxThreadsPerBlock);
    float *out = device_zeros(1024);
    cr_assert_eq(launch_register_hungry(out, fits), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0, 1024 * sizeof(float)), cudaSuccess);
    refused(launch_register_hungry(out, fits + 32), cudaErrorLaunchOutOfResources,
            "too many resources requested for launch", out);
}

Test(emulator_launch, func_attributes_say_the_bounds)
{
    struct cudaFuncAttributes a;
    cr_assert_eq(attributes_of(0, &a), cudaSuccess);
    cr_expect_eq(a.maxThreadsPerBlock, 256);
    cr_expect_eq(a.maxDynamicSharedSizeBytes, 48 << 10);
    cr_assert_eq(attributes_of(4, &a), cudaSuccess);
    cr_expect_eq(a.maxThreadsPerBlock, 1024);
    cr_assert_eq(opt_in(100 << 10), cudaSuccess);
    cr_assert_eq(attributes_of(3, &a), cudaSuccess);
    cr_expect_eq(a.maxDynamicSharedSizeBytes, 100 << 10);
    cr_assert_eq(cudaFuncGetAttributes(&a, (const void *)&a), cudaErrorInvalidResourceHandle,
                 "not a kernel, as on the H100");
}

Test(emulator_launch, cuda_launch_kernel_reads_the_arguments_through_their_pointers)
{
    float *out = device_zeros(64), h[64];
    cr_assert_eq(launch_by_pointers(0, out, 3, 2.5, 1, 32), cudaSuccess, "%s", tl_emu_error_detail());
    fetch(h, out, 32);
    cr_assert_eq(h[31], 8.5f, "3 * 2.5 + 1: %g", h[31]);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    cr_assert_eq(launch_by_pointers(1, out, 4, 0.5, 2, 32), cudaSuccess, "a pointer to a kernel "
                 "that is not a template: %s", tl_emu_error_detail());
    fetch(h, out, 32);
    cr_assert_eq(h[0], 4.0f, "%g", h[0]);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    refused(launch_by_pointers(2, out, 0, 0, 0, 512), cudaErrorInvalidValue, "__launch_bounds__(256)", out);
    cr_assert_eq(launch_by_pointers(3, out, 0, 0, 0, 32), cudaErrorNotSupported);
    cr_assert(strstr(tl_emu_error_detail(), "not supported") == NULL ||
              strstr(tl_emu_error_detail(), "run this lab on a GPU"), "%s", tl_emu_error_detail());
}

Test(emulator_launch, cuda_launch_kernel_ex_runs_what_blocks_one_after_another_can)
{
    float *out = device_zeros(64), h[64];
    cr_assert_eq(launch_ex(0, out, 3, 2.5f, 1, 32, 0), cudaSuccess, "%s", tl_emu_error_detail());
    fetch(h, out, 32);
    cr_assert_eq(h[31], 8.5f, "3 * 2.5 + 1: %g", h[31]);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    cr_assert_eq(launch_ex(1, out, 4, 0.5f, 2, 32, 1), cudaSuccess, "C's form, a priority: %s",
                 tl_emu_error_detail());
    fetch(h, out, 32);
    cr_assert_eq(h[0], 4.0f, "%g", h[0]);
    cr_assert_eq(cudaMemset(out, 0, 64 * sizeof(float)), cudaSuccess);
    refused(launch_ex(0, out, 0, 0, 0, 2048, 0), cudaErrorInvalidValue, "threads per block", out);
    cr_assert_eq(launch_ex(0, out, 0, 0, 0, 32, 2), cudaErrorNotSupported);
    cr_assert(strstr(tl_emu_error_detail(), "clusters") && strstr(tl_emu_error_detail(), "run this lab on a GPU"),
              "%s", tl_emu_error_detail());
}

/* The H100's answers (plots/data/launch-limits-h100.txt), its 132 SMs included. */
Test(emulator_launch, the_best_block_size_is_cudas)
{
    int grid = -1, block = -1;
    cr_assert_eq(best_block(0, &grid, &block, 0), cudaSuccess);
    cr_expect(grid == 264 && block == 1024, "plain: grid %d block %d, the H100 says 264 (2 a SM) and 1024", grid, block);
    cr_assert_eq(best_block(1, &grid, &block, 0), cudaSuccess);
    cr_expect(grid == 1056 && block == 256, "bounded: grid %d block %d, the H100 says 1056 (8 a SM) and 256", grid, block);
    cr_assert_eq(best_block(0, &grid, &block, 100), cudaSuccess);
    cr_expect(grid == 4224 && block == 64, "at most 100: grid %d block %d, the H100 says 4224 (32 a SM) and 64", grid, block);
}

/* ---- known limits (harness/emu/README.md) */

/* A template kernel's instances share one count of static shared memory (and of registers):
 * the most of any instance's, as rewrite reads ptxas's report by the kernel's name. */
Test(emulator_limits, template_instances_share_the_most_static_shared_memory_of_any)
{
    struct cudaFuncAttributes a;
    cr_assert_eq(attributes_of(2, &a), cudaSuccess);
    if (a.sharedSizeBytes == 0)
        cr_skip_test("nvcc is not installed: no instance's static shared memory is known");
    float *out = device_zeros(32);
    cr_assert_eq(launch_template_tiles(out, 1), cudaSuccess, "32 + 8 KiB fit: %s", tl_emu_error_detail());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    /* On a GPU, 4 KiB static + 40 dynamic fit the 48; here the instance counts as 32 KiB. */
    cr_assert_eq(launch_template_tiles(out, 0), cudaErrorInvalidValue, "a fix of the limit shows here");
}

/* Builds source as a lab file is built, without nvcc (the quickest way), in a new folder
 * under /tmp as file.cu, with the environment env (VAR=value ...): whether it built, and what
 * the build said, in log. */
static int build_as_a_lab_file_with(const char *env, const char *source, char *log, size_t len)
{
    char dir[] = "/tmp/tl-emu-build-XXXXXX", cmd[1024];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s/file.cu", dir);
    FILE *f = fopen(cmd, "w");
    cr_assert_not_null(f);
    fputs(source, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s TL_EMU_NVCC=none harness/emu/emu-compile.sh %s %s/file.cu %s/file.o "
             "%s/file.txt >%s/file.log 2>&1", env, TL_EMU_REWRITE, dir, dir, dir, dir);
    int built = system(cmd) == 0;
    snprintf(cmd, sizeof cmd, "%s/file.log", dir);
    f = fopen(cmd, "r");
    cr_assert_not_null(f);
    log[fread(log, 1, len - 1, f)] = '\0';
    fclose(f);
    return built;
}

static int build_as_a_lab_file(const char *source, char *log, size_t len)
{
    return build_as_a_lab_file_with("", source, log, len);
}

/* libcu++'s cuda/std/ headers, written for host compilers too, are the toolkit's where one is
 * installed; without one the build says that is why it stops, and that a GPU runs it. */
static const char cuda_std_file[] = "#include <cuda/std/limits>\n#include <cuda/std/cstdint>\n"
                                    "__global__ void k(cuda::std::int32_t *o) { o[threadIdx.x] = "
                                    "cuda::std::numeric_limits<cuda::std::int32_t>::max(); }\n";

Test(emulator_limits, without_a_toolkit_libcudacxx_is_named_missing, .timeout = 120)
{
    char log[8192];
    cr_assert_not(build_as_a_lab_file_with("TL_EMU_LIBCUDACXX=none", cuda_std_file, log, sizeof log),
                  "it builds:\n%s", log);
    cr_expect(strstr(log, "file.cu:1: <cuda/std/limits>: libcu++ comes with the CUDA toolkit, which is not "
                     "installed here") && strstr(log, "file.cu:2: <cuda/std/cstdint>") &&
              strstr(log, "A GPU runs it"), "%s", log);
    cr_expect(!strstr(log, "No such file"), "the compiler's message reads as the student's mistake:\n%s", log);
}

Test(emulator_cuda_headers, libcudacxx_is_the_toolkits, .timeout = 120)
{
    if (access("/usr/local/cuda/include/cccl/cuda/std/version", R_OK) != 0 &&
        access("/usr/local/cuda/include/cuda/std/version", R_OK) != 0)
        cr_skip_test("no CUDA toolkit in /usr/local/cuda: its libcu++ cannot be tried here");
    char log[8192];
    cr_expect(build_as_a_lab_file(cuda_std_file, log, sizeof log), "it does not build:\n%s", log);
}

/* Inline PTX other than the read of a special register is refused, once for each line that
 * has some, and the refusal does not claim the register reads that run are refused. */
Test(emulator_limits, inline_ptx_it_cannot_run_is_named_once_a_line, .timeout = 120)
{
    char log[8192];
    cr_assert_not(build_as_a_lab_file("__global__ void k(unsigned *o) { unsigned a, b;\n"
                                      "    asm(\"mov.u32 %0, %%tid.x;\" : \"=r\"(a) : \"r\"(o[0]));\n"
                                      "    asm(\"add.u32 %0, %1, 1;\" : \"=r\"(b) : \"r\"(a));\n"
                                      "    asm(\"mov.u32 %0, %%ctaid.x;\" : \"=r\"(a));\n"
                                      "    o[0] = a + b; }\n", log, sizeof log), "it builds:\n%s", log);
    const char *second = strstr(log, "file.cu:2: inline assembly"), *third = strstr(log, "file.cu:3: inline assembly");
    cr_expect(second && !strstr(second + 1, "file.cu:2: inline assembly"), "line 2 once:\n%s", log);
    cr_expect(third && !strstr(third + 1, "file.cu:3: inline assembly"), "line 3 once:\n%s", log);
    cr_expect(!strstr(log, "file.cu:4:"), "line 4 reads %%ctaid.x alone, which the emulator runs:\n%s", log);
    cr_expect(strstr(log, "only moves one special register into one variable"), "%s", log);
}

/* What the emulator cannot run fails to build, saying it is the emulator's limit: a small
 * file of each, built as a lab file is built. */
Test(emulator_limits, what_it_cannot_run_fails_to_build_saying_so, .timeout = 120)
{
    static const struct {
        const char *source, *says;
    } files[] = {
        {"#include <cooperative_groups.h>\n__global__ void k(float *o) { o[0] = 1; }\n"
         "void f(float *o) { void *a[] = {&o}; cudaLaunchCooperativeKernel((void *)k, 1, 1, a, 0, 0); }\n",
         "cudaLaunchCooperativeKernel (a grid whose blocks all run at once) is not supported by the "
         "tilelab CPU emulator"},
        {"void f(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }\n",
         "cudaStreamBeginCapture (CUDA graphs) is not supported by the tilelab CPU emulator"},
        {"__managed__ float x;\n__global__ void k(float *o) { o[0] = x; }\n",
         "a __managed__ variable: memory that kernels and the host share is not supported by the "
         "tilelab CPU emulator"},
        {"#include <mma.h>\n__global__ void k(float *o) { o[0] = 1; }\n",
         "mma.h is a header of the CUDA toolkit that the tilelab CPU emulator does not provide"},
        {"#include <cuda/std/barrier>\n__global__ void k(float *o) { o[0] = 1; }\n",
         "<cuda/std/barrier>: threads that wait for each other through libcu++ (barrier, latch, semaphore, "
         "atomic) are not supported by the tilelab CPU emulator"},
        {"__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex1Dfetch<float>(t, 0); }\n",
         "cudaTextureObject_t, tex1Dfetch: the tilelab CPU emulator does not provide texture and "
         "surface objects, so the errors above about them are its limit, not mistakes in your file"},
        {"#include <cuda/pipeline>\n__global__ void k(float *o) { o[0] = 1; }\n",
         "<cuda/pipeline>: libcu++'s headers outside cuda/std/ (pipelines, barriers, memory resources, ...) "
         "are not supported by the tilelab CPU emulator"},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char log[8192];
        cr_expect_not(build_as_a_lab_file(files[i].source, log, sizeof log), "%s builds", files[i].source);
        cr_expect(strstr(log, files[i].says) != NULL, "building %s does not say \"%s\":\n%s",
                  files[i].source, files[i].says, log);
    }
}
