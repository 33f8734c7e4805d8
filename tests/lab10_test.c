/*
 * Lab 10, the extension: a sum of n floats. Every n from 0 up: 1, around a
 * warp, a block and a block's several elements, primes, large, and past
 * 2^31 on a GPU; random n from TILELAB_SEED; held-back n for the grader.
 * Its operation is harness/core/ops/reduce.c, whose checker is
 * check_reduce.c: a count n rides in a shape as rows x cols of elements
 * (tl_count_shape).
 */
#define TL_SUITE lab10
#include <math.h>

#include "tl_test.h"
#include "gpu_technique.h"

/* The emulator runs every thread: its large n reads 16 MiB, a GPU's 1 GiB. */
#ifdef TL_EMU
#define LARGE_N (((size_t)1 << 22) + 3)
#define RANDOM_MAX ((size_t)1 << 20)
#else
#define LARGE_N (((size_t)1 << 28) + 3)
#define RANDOM_MAX ((size_t)1 << 26)
#endif

static void expect_sum(size_t n)
{
    tl_shape s;
    cr_assert(tl_count_shape(n, &s) == 0, "n = %zu is no count a shape of ints carries", n);
    tl_expect(TL_ENTRY(reduce), s);
}

static void expect_sums(const size_t *sizes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        expect_sum(sizes[i]);
}
#define EXPECT_SUMS(...)                                                                           \
    do {                                                                                           \
        static const size_t sizes[] = {__VA_ARGS__};                                               \
        expect_sums(sizes, sizeof sizes / sizeof *sizes);                                          \
    } while (0)

/* The sum of nothing is 0, and a grid of 0 blocks is refused: *d_out must still be written. */
TL_TEST(lab10, empty_array, 10)
{
    expect_sum(0);
}

TL_TEST(lab10, one_element, 10)
{
    expect_sum(1);
}

TL_TEST(lab10, tiny, 10)
{
    EXPECT_SUMS(2, 3, 4, 5, 7, 8);
}

/* Around a warp, a block of 64 to 1024 threads, and a block's two or four elements a thread. */
TL_TEST(lab10, around_blocks, 30)
{
    EXPECT_SUMS(31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024,
                1025, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 8193);
}

/* Tails of every length against a grid's rounds: primes, and one short of and past a power. */
TL_TEST(lab10, odd_and_prime, 30)
{
    EXPECT_SUMS(97, 1009, 65521, 65537, 100003, 1000003);
}

TL_TEST(lab10, large, 60)
{
    expect_sum(LARGE_N);
    expect_sum(LARGE_N - 4);
}

/*
 * Past 2^31 elements an int index overflows (NVIDIA's kernels index with
 * unsigned int). A sum reads every element: 8 GiB of floats a copy, which
 * on the emulator is the input, its device copy and minutes of threads,
 * more than a test may take; on a GPU a second or two. So it is a test of
 * a GPU's suite only: on the emulator it would only ever be skipped, and a
 * grade there would count that as a test failed (README.md says so).
 */
#ifndef TL_EMU
TL_TEST(lab10, large_past_int_index, 120)
{
    expect_sum(((size_t)1 << 31) + ((size_t)1 << 20) + 5);
}
#endif

/* n drawn log-uniformly from the seed, which the grader replaces with one held back. */
TL_RANDOM(lab10, random_sizes, 60)
{
    uint64_t state = tl_test_seed();
    for (int i = 0; i < 8; i++) {
        double u = (double)(tl_rand_next(&state) >> 11) / 9007199254740992.0;
        expect_sum((size_t)exp(u * log((double)RANDOM_MAX)));
    }
}

/* Held-back n, run by the grader: TILELAB_HIDDEN=n,n,... */
TL_HELD_BACK(lab10_hidden, held_back_sizes, 120)
{
    const char *list = getenv("TILELAB_HIDDEN");
    char copy[4096], *save = NULL;
    if (!list || !*list)
        cr_skip_test("no held-back sizes: the grader gives them in TILELAB_HIDDEN=n,n,...");
    snprintf(copy, sizeof copy, "%s", list);
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        long n;
        cr_assert(tl_parse_count(item, 1L << 40, &n) == 0, "TILELAB_HIDDEN: \"%s\" is not a size",
                  item);
        expect_sum((size_t)n);
    }
}

/* ------------------------------------------------------------ technique */

/* n drawn from the technique checks' seed (gpu_technique.h), never a public n: 2^16 and an
 * odd part of 2^16 more, so that no grid of whole blocks of whole elements a thread fits it. */
static size_t technique_n(void)
{
    uint64_t state = tl_technique_seed() ^ 0x6a09e667f3bcc909ull;
    return ((size_t)1 << 16) + (size_t)(tl_rand_next(&state) % ((uint64_t)1 << 16)) * 2 + 1;
}
#define TECHNIQUE_N technique_n()

/* Several elements a thread: each thread adds at least 4 before any tree or warp step. */
TL_TECHNIQUE(lab10_technique, several_elements_a_thread, 20)
{
    tl_emu_stats t = tl_counts_of(TL_ENTRY(reduce), 1, TECHNIQUE_N, 1);
    double each = (double)TECHNIQUE_N / (double)t.threads;
    cr_assert(each >= 4,
              "for n = %zu, %llu threads ran, %.2f elements each: a thread that adds only a "
              "few elements spends its time on the tree and the launch. Give each several (4 "
              "at least here), with a grid-stride loop over a grid of as many blocks as the "
              "GPU holds at once, or fewer where n is small: at most n / (4 x the threads of "
              "a block). README.md, step 7.",
              (size_t)TECHNIQUE_N, t.threads, each);
}

/*
 * A warp-level last step: a block's last rounds, from 32 values to 1, need
 * only one warp, and a warp's lanes can hand each other values by shuffles
 * (or, in shared memory, wait for each other at __syncwarp()) where a
 * __syncthreads() a round makes the whole block wait. From what ran: at
 * least five shuffles or __syncwarp()s a block (a warp's five rounds), in
 * the kernels whose work made *d_out, and in each of them no __syncthreads()
 * in those rounds (a tree of barriers down to 1 with idle shuffles beside it
 * earned this point: tests/emu_corpus/lab10-tree-to-one-beside-idle-shuffles.cu).
 */
/* Where *d_out holds what one cudaMemset (or copy) of the call set alone: a kernel of the call
 * that stored to global memory and first ran before that memset did (the kernels' and copies'
 * counts come in the order each first ran), its stores and atomics; NULL where none did. */
static const char *kernel_stored_before_the_memset(unsigned long long *stores, unsigned long long *atomics)
{
    const tl_lab_profile *p = &tl_technique_counts;
    const char *kernel = NULL;
    if (tl_made_count() != 1 || tl_made(0)->threads != 0)
        return NULL;
    for (int i = 0; i < p->kernels && i < TL_LAB_PROFILE_KERNELS; i++) {
        const tl_emu_stats *k = &p->kernel[i].stats;
        if (k->threads > 0 && k->global_store_requests > 0 && !kernel)
            kernel = p->kernel[i].name, *stores = k->global_store_requests,
            *atomics = k->global_atomic_requests;
        else if (k->threads == 0 && strcmp(p->kernel[i].name, p->made_by[0].name) == 0)
            return kernel;
    }
    return NULL;
}

TL_TECHNIQUE(lab10_technique, a_warp_level_last_step, 20)
{
    tl_emu_stats t = tl_counts_of(TL_ENTRY(reduce), 1, TECHNIQUE_N, 1);
    unsigned long long stores = 0, atomics = 0;
    const char *over = t.blocks > 0 ? NULL : kernel_stored_before_the_memset(&stores, &atomics);
    /* The memset came after the launch (a student's, 2026-11-28, was told to add with the
     * atomicAdd it used). */
    cr_assert(!over,
              "for n = %zu, *d_out holds what your %s set and nothing your kernels stored: your "
              "kernel %s stored to global memory (%llu requests, %llu of them atomics), and your "
              "%s came after it. Calls on one stream run in the order they are made, so a "
              "%s after the launch writes over the sum the kernel made in *d_out: set it to 0 before "
              "the launch (README.md, step 1).",
              (size_t)TECHNIQUE_N, tl_technique_counts.made_by[0].name, over, stores, atomics,
              tl_technique_counts.made_by[0].name, tl_technique_counts.made_by[0].name);
    cr_assert(t.blocks > 0,
              "for n = %zu, the emulator saw no block of your kernels store into *d_out (only "
              "the cudaMemset did), so it cannot judge their last step: a store it does not see "
              "is one such as *d_out += sum, not atomic, which blocks running at once also lose "
              "on a GPU. Add each block's sum with atomicAdd(d_out, sum) (README.md, step 1).",
              (size_t)TECHNIQUE_N);
    double warp_steps = (double)(t.warp_shuffles + t.warp_syncs) / (double)(t.blocks ? t.blocks : 1);
    /* A block's sum made by atomics in shared memory has no rounds to speak of: its threads
     * wait their turn at one address instead. */
    cr_assert(warp_steps >= 5 || t.shared_atomic_requests == 0,
              "for n = %zu, your kernels' %llu blocks added their threads' sums with atomics in "
              "shared memory (%llu warp requests of them, %.1f a block) and ran %.1f warp shuffles "
              "or __syncwarp()s a block: the threads of a block wait their turn at one address, "
              "one at a time, "
              "where a warp's lanes add 32 values in five steps together. Add each warp's 32 "
              "values with __shfl_down_sync for offsets 16 to 1, then the warps' sums the same "
              "way (README.md, step 8).",
              (size_t)TECHNIQUE_N, t.blocks, t.shared_atomic_requests,
              (double)t.shared_atomic_requests / (double)(t.blocks ? t.blocks : 1), warp_steps);
    cr_assert(warp_steps >= 5,
              "for n = %zu, your kernels' %llu blocks ran %llu warp shuffles and %llu __syncwarp()s "
              "(%.1f a block; one warp's sum takes five) and passed %.1f "
              "__syncthreads() a block: a block's last rounds, from 32 values down to 1, need "
              "one warp alone, and a __syncthreads() a round makes the whole block wait for "
              "them. Finish each block with a warp: __shfl_down_sync for offsets 16 to 1 "
              "(README.md, step 8), or the last warp unrolled with a __syncwarp() between a "
              "round's reads and its stores (step 5).",
              (size_t)TECHNIQUE_N, t.blocks, t.warp_shuffles, t.warp_syncs, warp_steps,
              (double)t.barriers / (double)(t.blocks ? t.blocks : 1));
    /* Shuffles or __syncwarp()s beside a tree whose every round ends at a barrier are no
     * warp-level last step: a block of B threads whose warp finishes passes one barrier after
     * its load and one a round down to 32 values, log2(B) - 4 (step 5, 256 threads: 3), and a
     * few more to hand on its warps' sums (a last block that adds the partials: 4); allowed
     * log2(B) - 2, 3 at least. A tree of barriers down to 1 passes log2(B) + 1, down to 4
     * log2(B) - 1. Judged launch by launch, as a ratio is (a second kernel of few barriers
     * would lift the other's). */
    for (int i = 0; i < tl_made_count(); i++) {
        const tl_emu_stats *k = tl_made(i);
        if (k->threads == 0 || k->blocks == 0)
            continue; /* a cudaMemset */
        unsigned long long block = k->threads / k->blocks;
        int rounds = 0;
        while (rounds < 62 && (1ull << rounds) < block)
            rounds++; /* log2 of the block, rounded up */
        double most = rounds - 2 > 3 ? rounds - 2 : 3, each = (double)k->barriers / (double)k->blocks;
        cr_assert(each <= most,
                  "for n = %zu, %s passed %.1f __syncthreads() a block of %llu threads, where a "
                  "block whose last rounds, from 32 values down to 1, are a warp's passes %.0f at "
                  "most (one after the load, one a round down to 32 values, a few to hand on its "
                  "warps' sums): its tree still waits at a __syncthreads() in rounds a warp does "
                  "alone, whatever shuffles or __syncwarp()s run beside it (%llu and %llu). Stop "
                  "the block's rounds at 32 (or 64) values and finish with the warp: "
                  "__shfl_down_sync for offsets 16 to 1 (README.md, step 8), or the last warp "
                  "unrolled with __syncwarp() (step 5).",
                  (size_t)TECHNIQUE_N, tl_made_named(i), each, block, most, k->warp_shuffles,
                  k->warp_syncs);
    }
}

/*
 * One atomic or one partial a block: of each kernel whose work made *d_out,
 * at most one plain store and one atomic a block, and one store more for the
 * whole launch. A block that adds its sum to *d_out (one atomic), or stores
 * it as a partial (one store), or both: stores its partial and counts itself
 * done so that the last block adds the partials and stores *d_out (one store,
 * one atomicInc, and the final store), passes; a thread or a warp each adding
 * its own sum to *d_out makes all of them wait their turn at one address.
 */
TL_TECHNIQUE(lab10_technique, one_atomic_or_partial_a_block, 20)
{
    tl_counts_of(TL_ENTRY(reduce), 1, TECHNIQUE_N, 1);
    for (int i = 0; i < tl_made_count(); i++) {
        const tl_emu_stats *k = tl_made(i);
        if (k->threads == 0)
            continue; /* a cudaMemset */
        unsigned long long atomics = k->global_atomic_requests,
                           plain = k->global_store_requests - k->global_atomic_requests;
        cr_assert(atomics <= k->blocks && plain <= k->blocks + 1,
                  "%s stored to global memory %llu times (%llu of them atomics) from %llu "
                  "blocks: a block adds its sum once, from one thread, after its threads and "
                  "warps have added theirs together (if (threadIdx.x == 0) atomicAdd(d_out, "
                  "sum);), or stores one partial. README.md, step 1.%s",
                  tl_made_named(i), k->global_store_requests, atomics, k->blocks,
                  tl_unmade_note());
    }
}
