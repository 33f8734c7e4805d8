/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: a library call instead of a
 * kernel (KernelBench#57): cuBLAS's SGEMM, loaded at run time since the kit
 * links none, for both functions.
 * control: naive-matmul.cu
 *
 * The emulator's lab process may open no file (so no library); on a GPU the
 * call's plan holds what the lab's own code launched, and cuBLAS's launches
 * come from a runtime of its own that the kit does not run. Either way the
 * output is wrong: nothing is timed.
 */
#include "lab.h"
#include <dlfcn.h>

typedef int (*create_fn)(void **);
typedef int (*gemm_fn)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                       const float *, float *, int);

static void library(float *c, const float *a, const float *b, int m, int n, int k)
{
    static void *handle, *blas;
    static gemm_fn gemm;
    const float one = 1, zero = 0;
    if (!handle && (handle = dlopen("libcublas.so", RTLD_NOW)) == NULL)
        handle = dlopen("libcublas.so.13", RTLD_NOW);
    if (!handle)
        handle = dlopen("libcublas.so.12", RTLD_NOW);
    if (handle && !blas) {
        create_fn create = (create_fn)dlsym(handle, "cublasCreate_v2");
        gemm = (gemm_fn)dlsym(handle, "cublasSgemm_v2");
        if (create)
            create(&blas);
    }
    if (blas && gemm) /* row-major C = A B as column-major C^T = B^T A^T */
        gemm(blas, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { library(c, a, b, m, n, k); }
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k) { library(c, a, b, m, n, k); }
