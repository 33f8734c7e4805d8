/* The loop every GPU back end runs over its variants: see bench_gpu_run.h. */
#include "bench_gpu_run.h"
#include "check_reduce.h"
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

int tl_bench_gpu_measure(const tl_bench_gpu *g, void *size, const tl_bench_opts *o, tl_result *results,
                         char *why, size_t why_len)
{
    const tl_variant *table;
    int n = tl_bench_variants(&table);
    void *ctx = malloc(g->ctx_bytes), *rehearsal = malloc(g->ctx_bytes);
    if (!ctx || !rehearsal) {
        snprintf(why, why_len, "out of host memory");
        free(ctx), free(rehearsal);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        tl_result *r = &results[k];
        if (!tl_bench_selected(o, &table[k]))
            continue;
        r->variant = &table[k];
        g->context(ctx, size, &table[k], k);
        if (g->ready && !g->ready(ctx, o, r))
            continue;
        tl_gpu_op op = {g->launch, g->prepare, g->verify, ctx};
        const tl_bench_draws *draws = ctx;
        /* The student's plans, made before anything is timed, from copies of the pools: the
         * same offsets, in the same order, as the timing will draw. Where every call gets the
         * same matrices, the warm-up makes the one plan there is. */
        if (!strcmp(table[k].role, "student") && draws->ins) {
            tl_fresh ins_again = *draws->ins, outs_again = *draws->outs;
            memcpy(rehearsal, ctx, g->ctx_bytes);
            ((tl_bench_draws *)rehearsal)->ins = &ins_again;
            ((tl_bench_draws *)rehearsal)->outs = &outs_again;
            tl_fresh_plan_ahead(&op, rehearsal, o->reps);
        }
        if (tl_gpu_time(&op, o->warmup, o->reps, 2 * g->info->l2_bytes, &r->stats, r->note,
                        sizeof r->note) == 0)
            r->measured = 1;
    }
    free(ctx);
    free(rehearsal);
    return 0;
}

int tl_bench_gpu_buffers(float **d, const size_t *floats, int count, int inputs, int contents,
                         char *why, size_t why_len)
{
    size_t filled = 0;
    for (int i = 0; i < count; i++)
        d[i] = NULL;
    for (int i = 0; i < inputs; i++)
        filled += floats[i];
    float *h = malloc(filled ? filled * sizeof *h : 1);
    cudaError_t err = cudaSuccess;
    if (!h) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    if (contents == TL_FRESH_SUMS)
        tl_reduce_fill(h, filled, TL_DEFAULT_SEED, NULL);
    else
        tl_fill_random(h, filled, TL_DEFAULT_SEED);
    for (int i = 0; i < count && !err; i++)
        err = cudaMalloc((void **)&d[i], floats[i] * sizeof(float));
    filled = 0;
    for (int i = 0; i < inputs && !err; filled += floats[i], i++)
        err = cudaMemcpy(d[i], h + filled, floats[i] * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
    if (err) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    return 0;
}

void tl_bench_gpu_free(float **d, int count)
{
    for (int i = 0; i < count; i++) {
        cudaFree(d[i]);
        d[i] = NULL;
    }
}

int tl_bench_gpu_once(const tl_bench_gpu *g, void *ctx, const tl_variant *v, char *why, size_t why_len)
{
    tl_gpu_op op = {g->launch, g->poison, NULL, ctx};
    return tl_gpu_once(&op, v->name, why, why_len);
}
