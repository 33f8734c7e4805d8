/*
 * TEMPORARY, until the one-table issue (39) registers lab 10's operation:
 * runs a lab 10 file's reduce() through tl_check_reduce on the GPU glue's
 * backend (the emulator's, or a GPU's), in this process, without the lab
 * process the suites use, and prints each verdict and, on the emulator,
 * the counts the technique checks would read. solutions/10-gpu-reduce/REGISTER.md
 * says how it is built; once the table exists tests/lab10_test.c replaces it.
 *
 *   reduce-emu-run N...    exit status: the number of sizes that failed
 */
#include <stdio.h>
#include <stdlib.h>

#include "check_reduce.h"
#include "gpu.h"
#include "lab.h"
#ifdef TL_EMU
#include "emu.h"
#endif

int main(int argc, char **argv)
{
    int failed = 0;
#ifdef TL_EMU
    /* REDUCE_RUN_COUNTS=0: no counting, as the suites' correctness tests run */
    int counts = !getenv("REDUCE_RUN_COUNTS") || atoi(getenv("REDUCE_RUN_COUNTS"));
#endif
    for (int i = 1; i < argc; i++) {
        size_t n = strtoull(argv[i], NULL, 0);
        tl_verdict v;
#ifdef TL_EMU
        tl_emu_stats_reset();
        tl_emu_profile(counts);
#endif
        tl_check_reduce(&v, reduce, &tl_gpu_backend, n, TL_DEFAULT_SEED);
        printf("n = %zu: %s\n%s", n, v.ok ? "right" : "WRONG", v.message);
#ifdef TL_EMU
        tl_emu_profile(0);
        /* the work that made *d_out, as the technique checks read it (gpu_technique.h) */
        for (int k = 0; k < tl_emu_made_count(); k++) {
            const tl_emu_stats *m = tl_emu_made_get(k), s = *m;
            printf("  %s:", m->kernel ? m->kernel : "?");
            printf("  counts: %llu launches, %llu blocks, %llu threads (%.2f elements a thread), "
               "%llu global atomics, %llu global stores, %llu shared loads, %llu shared stores, "
               "%llu global load bytes\n",
               s.launches, s.blocks, s.threads, s.threads ? (double)n / s.threads : 0.0,
               s.global_atomic_requests, s.global_store_requests, s.shared_load_requests,
               s.shared_store_requests, s.global_load_bytes);
        }
#endif
        failed += !v.ok;
    }
    return failed;
}
