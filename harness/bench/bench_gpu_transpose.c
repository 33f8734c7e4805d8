#include "bench_gpu_transpose.h"
#include "sysinfo.h"

#include <stdio.h>
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
