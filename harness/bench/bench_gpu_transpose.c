#include "bench_gpu_transpose.h"
#include "sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_bench_gpu_start(tl_gpu_info *info, char *why, size_t why_len)
{
    if (!tl_gpu_available(why, why_len)) {
        size_t used = strlen(why);
        snprintf(why + used, why_len - used,
                 ".\nThe GPU bench times real hardware and needs an NVIDIA GPU; "
                 "`make labN test` still checks your code here.");
        return -1;
    }
    return tl_gpu_query(info, why, why_len);
}

void tl_bench_gpu_describe(FILE *f, const tl_gpu_info *info)
{
    char cpu[256];
    tl_cpu_model(cpu, sizeof cpu);
    tl_gpu_describe(f, info);
    fprintf(f, "# host: %s\n", cpu);
}

int tl_bench_gpu_fits(tl_shape s, const tl_gpu_info *info, int copies, char *why, size_t why_len)
{
    size_t bytes = tl_shape_elements(s) * sizeof(float), free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    if (copies * bytes + 2 * info->l2_bytes + (64u << 20) > free_bytes) {
        snprintf(why, why_len, "%dx%d needs %.1f GiB on the GPU and %s has %.1f GiB free: choose a "
                 "smaller size", s.rows, s.cols, (double)copies * bytes / (1 << 30), info->name,
                 (double)free_bytes / (1 << 30));
        return -1;
    }
    size_t host = tl_host_memory_available();
    if (host && 3 * bytes > host) {
        snprintf(why, why_len, "%dx%d needs %.1f GiB of host memory to check the result: choose a "
                 "smaller size", s.rows, s.cols, 3.0 * bytes / (1 << 30));
        return -1;
    }
    return 0;
}

int tl_bench_gpu_verify(const tl_gpu_output *o, int rep, int last, char *why, size_t why_len)
{
    size_t n = tl_shape_elements(o->s);
    cudaError_t err;
    if (last && (err = cudaMemcpy(o->h_out, o->d_out, n * sizeof(float), cudaMemcpyDeviceToHost))) {
        tl_gpu_explain(err, why, why_len);
        return -1;
    }
    for (size_t i = 0, count = last ? n : TL_BENCH_SAMPLES; i < count; i++) {
        size_t at = last ? i : tl_bench_sample(o->samples, n);
        float got;
        if (last)
            got = o->h_out[at];
        else if ((err = cudaMemcpy(&got, o->d_out + at, sizeof got, cudaMemcpyDeviceToHost))) {
            tl_gpu_explain(err, why, why_len);
            return -1;
        }
        float want = o->h_in[o->transposed ? tl_bench_transposed_from(o->s, at) : at];
        if (!tl_bench_same(got, want, o->nan_any)) {
            tl_bench_note_skipped(why, why_len, rep, at, o->transposed ? o->s.rows : o->s.cols);
            return -1;
        }
    }
    return 0;
}

double tl_bench_gpu_copy_bound(const tl_gpu_info *info, tl_shape s, const tl_result *r, int n, char *how,
                               size_t how_len)
{
    const char *unit;
    if (n > 0 && r[0].variant && !strcmp(r[0].variant->role, "ceiling") && r[0].measured) {
        double copy = tl_bench_work(s, &unit) / r[0].stats.median / 1e9;
        snprintf(how, how_len, "125 %% of the device-to-device copy's %.0f %s in this run", copy, unit);
        return 1.25 * copy;
    }
    snprintf(how, how_len, "the memory's theoretical %.0f GB/s", info->peak_gbps);
    return info->peak_gbps;
}

int tl_bench_gpu_transpose_size(const tl_bench_gpu *g, tl_shape s, const tl_bench_opts *o, tl_result *results,
                                char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    tl_gpu_transposes at = {.h_out = malloc(n * sizeof(float)), .s = s};
    int rc = -1;
    if (!at.h_out)
        snprintf(why, why_len, "out of host memory");
    else if (!tl_fresh_make(&at.ins, n, TL_FRESH_RANDOM, why, why_len) &&
             !tl_fresh_make(&at.outs, n, TL_FRESH_EMPTY, why, why_len))
        rc = tl_bench_gpu_measure(g, &at, o, results, why, why_len);
    tl_fresh_free(&at.ins);
    tl_fresh_free(&at.outs);
    free(at.h_out);
    return rc;
}

int tl_bench_gpu_transpose_once(const tl_bench_gpu *g, tl_shape s, const tl_variant *v, char *why,
                                size_t why_len)
{
    size_t n = tl_shape_elements(s);
    float *d[2] = {NULL, NULL};
    void *ctx = malloc(g->ctx_bytes);
    int rc = -1;
    if (!ctx)
        snprintf(why, why_len, "out of host memory");
    else if (tl_bench_gpu_buffers(d, (const size_t[]){n, n}, 2, 1, TL_FRESH_RANDOM, why, why_len) == 0) {
        tl_gpu_transposes at = {.s = s};
        at.ins.d = d[0], at.outs.d = d[1];
        g->context(ctx, &at, v, 0);
        ((tl_bench_draws *)ctx)->ins = ((tl_bench_draws *)ctx)->outs = NULL;
        rc = tl_bench_gpu_once(g, ctx, v, why, why_len);
    }
    tl_bench_gpu_free(d, 2);
    free(ctx);
    return rc;
}
