/* The CPU transpose's library row (labs 1-2): OpenBLAS's somatcopy, where the kit has OpenBLAS. */
#include "bench.h"

#ifdef TL_HAVE_OPENBLAS
#include <cblas.h>

static void openblas_transpose(float *out, const float *in, int rows, int cols)
{
    cblas_somatcopy(CblasRowMajor, CblasTrans, rows, cols, 1.0f, in, cols, out, rows);
}
#endif

/* bench_cpu.c's table ends with these rows. */
const tl_variant tl_bench_cpu_library[] = {TL_LIBRARY_TRANSPOSE_CPU(TL_VARIANT){0}};
