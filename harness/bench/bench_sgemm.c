/* SGEMM (lab 8) is benched as lab 7's product: the same back end, its own kernels (op.h). */
#include "bench_matmul.c"
