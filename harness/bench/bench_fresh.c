/* Fresh inputs for every timed repetition: see bench_fresh.h. */
#include "bench_fresh.h"
#include "check_reduce.h"
#include "gpu.h"
#include "matrix.h"
#include "shapes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define ALIGN 64            /* floats: 256 bytes */
#define OFFSETS 1024        /* distinct offsets a pool gives */

uint64_t tl_fresh_seed(void)
{
    static uint64_t seed;
    static int drawn;
    char why[256];
    if (!drawn && (getenv("TILELAB_SEED") ? tl_seed(&seed, why, sizeof why)
                                          : getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed))
        seed = TL_DEFAULT_SEED ^ (uint64_t)(tl_now() * 1e9);
    drawn = 1;
    return seed;
}

int tl_fresh_make(tl_fresh *f, size_t elements, int contents, char *why, size_t why_len)
{
    memset(f, 0, sizeof *f);
    f->elements = elements;
    f->slack = (size_t)ALIGN * OFFSETS;
    f->last = (size_t)-1;
    f->state = tl_fresh_seed() ^ (uint64_t)elements * 0x9e3779b97f4a7c15u ^ (uint64_t)contents;
    size_t total = elements + f->slack, bytes = total * sizeof(float);
    cudaError_t err = cudaMalloc((void **)&f->d, bytes);
    if (!err && contents != TL_FRESH_EMPTY) {
        if (!(f->h = malloc(bytes))) {
            snprintf(why, why_len, "out of host memory");
            return -1;
        }
        if (contents == TL_FRESH_SUMS)
            tl_reduce_fill(f->h, total, f->state, NULL);
        else
            tl_fill_random(f->h, total, f->state);
        for (size_t i = 0; contents == TL_FRESH_FINITE && i < total; i++)
            if (f->h[i] != f->h[i] || f->h[i] - f->h[i] != 0) /* NaN or inf */
                f->h[i] = 1.0f;
        err = cudaMemcpy(f->d, f->h, bytes, cudaMemcpyHostToDevice);
    }
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    return 0;
}

size_t tl_fresh_next(tl_fresh *f)
{
    size_t at;
    do
        at = (size_t)(tl_rand_next(&f->state) % OFFSETS) * ALIGN;
    while (at == f->last);
    return f->last = at;
}

void tl_fresh_free(tl_fresh *f)
{
    cudaFree(f->d);
    free(f->h);
    memset(f, 0, sizeof *f);
}

void tl_fresh_plan_ahead(const tl_gpu_op *op, void *rehearsal, int reps)
{
    if (!tl_gpu_lab_plans_ahead(1))
        return;
    op->launch(rehearsal); /* the warm-up's arguments */
    for (int i = 0; i < reps; i++)
        if (!op->prepare || op->prepare(rehearsal) == cudaSuccess)
            op->launch(rehearsal);
    tl_gpu_lab_plans_ahead(0);
}
