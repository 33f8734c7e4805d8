/*
 * The emulator's race check on shared memory (harness/emu/race.c): planted
 * races of each kind (read after write, write after read, write after
 * write; between warps and between lanes of one warp) fail the kernel with
 * a message that names both threads, the shared byte and both lines, and
 * their correct twins (a barrier, a __syncwarp(), a shuffle, bytes apart,
 * atomics, warps at barriers of their own branch) run clean.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "emu.h"
#include "gpu.h"

void launch_read_after_write(float *out, int synced);
void launch_write_after_read(float *out);
void launch_write_after_write(float *out);
void launch_write_same_twice(float *out, int warps);
void launch_lanes(float *out, int how);
void launch_shift_down(float *out, int fixed);
void launch_add_to_neighbour(float *out);
void launch_barrier_inside_if(float *out, int inside);
void launch_bytes_and_atomics(float *out);
void launch_dynamic_race(float *out);
void launch_warp_specialised(float *out);
void launch_template_dynamic(float *out);
void launch_forgotten_reader(float *out);
void launch_template_race(float *out);
void launch_one_barrier_a_step(float *out);
void launch_tile_smaller_than_block(float *out);
void launch_lanes_then_warps(float *out);
void launch_namespace_scope_shared(float *out);
void launch_device_scratch(float *out, int how);
void launch_malloc_scratch(float *out, float *scratch);
void launch_add_to_one_word(float *out);
void launch_transpose_unguarded(float *out, const float *in, int rows, int cols);
void launch_tree_sum(float *out, int how);
extern const int tree_add_line;
extern const int leader_write_line, leader_read_line, later_write_line, early_read_line,
    skipped_barrier_line;

#define KERNELS "tests/emu_race_kernels.cu"

static float *device_floats(void)
{
    float *d = NULL;
    cr_assert_eq(cudaMalloc((void **)&d, 128 * sizeof *d), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, 128 * sizeof *d), cudaSuccess);
    return d;
}

/* The launch failed with a race, and the emulator's words say each of the texts. */
static const char *race(const char *const *texts)
{
    cudaError_t got = cudaDeviceSynchronize();
    cr_assert_eq(got, cudaErrorLaunchFailure, "expected a race, got %s", cudaGetErrorName(got));
    const char *d = tl_emu_error_detail();
    cr_assert(d && strstr(d, "a race on shared memory"), "%s", d ? d : "(none)");
    for (; *texts; texts++)
        cr_assert(strstr(d, *texts), "the message lacks \"%s\": %s", *texts, d);
    return d;
}

static void clean(void)
{
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", tl_emu_error_detail());
}

static const char *at(int line)
{
    static char buf[4][96];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], KERNELS ":%d", line);
    return b;
}

Test(emulator_race, a_read_of_another_warps_write_without_a_barrier)
{
    float *out = device_floats();
    launch_read_after_write(out, 0);
    const char *d = race((const char *const[]){"thread (0, 1, 0)", "this thread read 4 byte(s)",
                                              "which thread (0, 0, 0) wrote", at(leader_read_line),
                                              at(leader_write_line), "the __shared__ variable origin",
                                              "different warps", NULL});
    cr_assert(strstr(d, at(leader_read_line)) < strstr(d, at(leader_write_line)), "this access first: %s", d);
    cr_assert(!strstr(d, "__syncwarp"), "two warps: a __syncwarp() would not help: %s", d);
    cr_assert(!strstr(d, "_tl_emu_shared"), "the variable's own name: %s", d);
}

Test(emulator_race, a_barrier_between_orders_them)
{
    float *out = device_floats(), h[64];
    launch_read_after_write(out, 1);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(h[i], 7.0f);
}

Test(emulator_race, a_write_over_what_an_earlier_warp_read)
{
    float *out = device_floats();
    launch_write_after_read(out);
    race((const char *const[]){"thread (32, 0, 0)", "this thread wrote 4 byte(s)", at(later_write_line),
                               "which thread (31, 0, 0) read", at(early_read_line),
                               "byte 128 of the __shared__ array tile (of 256 bytes)", NULL});
}

Test(emulator_race, two_warps_writing_one_word)
{
    float *out = device_floats();
    launch_write_after_write(out);
    const char *d = race((const char *const[]){"thread (32, 0, 0)", "which thread (0, 0, 0) wrote",
                                              "which of the two values stays", "by the same store",
                                              "No barrier can come between the two", NULL});
    cr_assert(!strstr(d, "Put a __syncthreads() between the two"), "one store, no barrier between: %s", d);
}

/* Two threads that store the same value into one word race with nothing: either order leaves
 * it (a block launched with twice the rows of threads its kernel steps by, each row storing
 * what another does: an H200 passed it, the emulator stopped it as a race, 2026-11-28). A third
 * that stores another value races with the last of them. */
Test(emulator_race, two_warps_writing_one_word_the_same_value_do_not_race)
{
    float *out = device_floats();
    launch_write_same_twice(out, 2);
    clean();
    launch_write_same_twice(out, 3);
    race((const char *const[]){"thread (64, 0, 0)", "which thread (32, 0, 0) wrote",
                               "which of the two values stays", NULL});
}

/* One store by two threads at one element, because the array is smaller than the threads that
 * index it: the store past its end is named, not the race it made first, which no barrier fixes. */
Test(emulator_race, a_store_past_a_small_arrays_end_comes_before_its_race)
{
    float *out = device_floats();
    launch_tile_smaller_than_block(out);
    cudaError_t got = cudaDeviceSynchronize();
    const char *d = tl_emu_error_detail();
    cr_assert(got == cudaErrorIllegalAddress && d && strstr(d, "the __shared__ array tile at byte 1024, past its end"),
              "%s: %s", cudaGetErrorName(got), d ? d : "(none)");
    cr_assert(!strstr(d, "a race on shared memory"), "the race is the index's: %s", d);
}

/* Lanes of one warp race first, and warps after them in the same stretch: no __syncwarp(). */
Test(emulator_race, a_syncwarp_is_offered_only_where_one_warp_alone_races)
{
    float *out = device_floats();
    launch_lanes_then_warps(out);
    const char *d = race((const char *const[]){"thread (1, 0, 0)", "lanes of one warp",
                                              "Threads of different warps race on shared memory in "
                                              "the same stretch", NULL});
    cr_assert(!strstr(d, "or, as they are lanes of one warp, a __syncwarp()"), "%s", d);
}

Test(emulator_race, lanes_of_one_warp_need_a_syncwarp)
{
    float *out = device_floats();
    launch_lanes(out, 0);
    race((const char *const[]){"thread (1, 0, 0)", "which thread (0, 0, 0) wrote", "lanes of one warp",
                               "__syncwarp()", NULL});
}

Test(emulator_race, a_syncwarp_or_a_shuffle_orders_the_lanes)
{
    for (int how = 1; how <= 2; how++) {
        float *out = device_floats(), h[32];
        launch_lanes(out, how);
        clean();
        cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < 32; i++)
            cr_assert_eq(h[i], 42.0f, "how %d, lane %d", how, i);
    }
}

Test(emulator_race, a_syncwarp_orders_only_the_lanes_of_its_mask)
{
    float *out = device_floats();
    launch_lanes(out, 3);
    race((const char *const[]){"thread (16, 0, 0)", "which thread (0, 0, 0) wrote", NULL});
}

Test(emulator_race, a_lane_that_overwrites_what_another_read_in_the_same_step)
{
    float *out = device_floats();
    launch_shift_down(out, 0);
    race((const char *const[]){"thread (16, 0, 0)", "this thread wrote", "which thread (0, 0, 0) read",
                               "byte 64 of the __shared__ array s", NULL});
}

Test(emulator_race, lanes_that_read_wait_then_write_run_clean)
{
    float *out = device_floats(), h[32], s[64];
    launch_shift_down(out, 1);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int t = 0; t < 64; t++)
        s[t] = (float)t;
    for (int d = 16; d > 0; d /= 2) {
        float v[32];
        for (int t = 0; t < 32; t++)
            v[t] = s[t + d];
        for (int t = 0; t < 32; t++)
            s[t] = v[t] + 1.0f;
    }
    for (int t = 0; t < 32; t++)
        cr_assert_eq(h[t], s[t], "lane %d: %g, not %g", t, h[t], s[t]);
}

Test(emulator_race, threads_that_skip_a_barrier_inside_an_if)
{
    float *out = device_floats();
    char waits[160];
    launch_barrier_inside_if(out, 32);
    snprintf(waits, sizeof waits, "went on to wait at the __syncthreads() of %s, which this thread has not passed",
             at(skipped_barrier_line));
    race((const char *const[]){"thread (32, 0, 0)", "which thread (31, 0, 0) wrote", waits,
                               "not inside an if that some threads skip", NULL});
    launch_barrier_inside_if(out, 64); /* a lost context runs nothing more: nothing to check */
}

Test(emulator_race, a_thread_that_ended_without_the_barrier_the_others_wait_at)
{
    float *out = device_floats();
    char ended[160];
    launch_barrier_inside_if(out, -1);
    snprintf(ended, sizeof ended, "thread (31, 0, 0) ended without passing the __syncthreads() of %s, "
             "where other threads of the block wait", at(skipped_barrier_line));
    race((const char *const[]){"thread (32, 0, 0)", "this thread wrote", "which thread (31, 0, 0) read",
                               ended, NULL});
}

Test(emulator_race, every_thread_at_the_barrier_inside_an_if_runs_clean)
{
    float *out = device_floats();
    launch_barrier_inside_if(out, 64);
    clean();
}

Test(emulator_race, neighbouring_bytes_and_atomics_do_not_race)
{
    float *out = device_floats(), h[64];
    launch_bytes_and_atomics(out);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(h[i], (float)(63 - i + 64));
}

Test(emulator_race, dynamic_shared_memory_races_too)
{
    float *out = device_floats();
    launch_dynamic_race(out);
    race((const char *const[]){"thread (32, 0, 0)", "byte 128 of the dynamic shared memory (extern __shared__)",
                               "which thread (0, 0, 0) read", NULL});
}

Test(emulator_race, a_template_kernels_shared_array_races_too)
{
    float *out = device_floats();
    launch_template_race(out);
    const char *d = race((const char *const[]){"thread (1, 0, 0)", "byte 4 of the __shared__ array t (of 128 bytes)",
                                              "which thread (0, 0, 0) read", NULL});
    cr_assert(!strstr(d, "of a template kernel"), "the array by its name: %s", d);
}

/* Lanes of one warp, but a step of a loop apart, the barrier between the steps the block's:
 * the fix is a __syncthreads(), and a __syncwarp() is not offered. */
Test(emulator_race, a_lane_a_step_ahead_needs_the_blocks_barrier)
{
    float *out = device_floats();
    launch_one_barrier_a_step(out);
    const char *d = race((const char *const[]){"thread (1, 0, 0)", "which thread (0, 0, 0) wrote",
                                              "went on to wait at the __syncthreads()",
                                              "Put a __syncthreads() between the two",
                                              "so it came round a loop again, into its next step",
                                              "in a loop, a second one at the end of its body", NULL});
    cr_assert(!strstr(d, "or, as they are lanes of one warp, a __syncwarp()"),
              "a __syncwarp() would leave the other warps racing: %s", d);
}

/* What a student reads first is the race, not an error a GPU would never give for it. */
Test(emulator_race, the_race_comes_first_and_not_as_a_cuda_error)
{
    float *out = device_floats();
    launch_lanes(out, 0);
    race((const char *const[]){"a race on shared memory", NULL});
    char said[4096];
    tl_gpu_explain(cudaErrorLaunchFailure, said, sizeof said);
    const char *first_line_end = strchr(said, '\n');
    static const char who[] = "thread (1, 0, 0) of block (0, 0, 0)";
    cr_assert(strncmp(said, who, strlen(who)) == 0 && first_line_end &&
              strstr(said, "a race on shared memory") < first_line_end, "%s", said);
    cr_assert(!strstr(said, "unspecified launch failure") && !strstr(said, "see the CUDA Runtime API"), "%s", said);
    cr_assert(strstr(said, "an error no GPU gives for this"), "%s", said);
}

Test(emulator_race, warps_at_barriers_of_their_own_branches_meet)
{
    float *out = device_floats(), h[64];
    launch_warp_specialised(out);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(h[i], 3.0f, "thread %d", i);
}

Test(emulator_race, blocks_never_race_with_each_other)
{
    float *out = device_floats(), h[64];
    launch_template_dynamic(out);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(h[i], (float)(64 + 63 - i));
}

/* A __device__ array every block uses as its own tile: the emulator runs the blocks one after
 * another, and each reads back what it wrote; a GPU runs them at once. */
Test(emulator_race, blocks_writing_one_device_array_race)
{
    float *out = device_floats();
    launch_device_scratch(out, 0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    const char *d = tl_emu_error_detail();
    const char *texts[] = {"a race between blocks: block (1, 0, 0) of device_scratch wrote 4 byte(s) "
                           "at byte 0 of the __device__ variable block_scratch",
                           "emu_race_kernels.cu:", "that block (0, 0, 0) had written there",
                           "belongs in __shared__ memory", NULL};
    for (const char *const *t = texts; *t; t++)
        cr_assert(d && strstr(d, *t), "the message lacks \"%s\": %s", *t, d ? d : "(none)");
}

/* The same mistake in a small allocation from cudaMalloc (a scratch of 128 floats), which is
 * checked as a __device__ variable is. */
Test(emulator_race, blocks_sharing_a_small_scratch_from_cudamalloc_race)
{
    float *out = device_floats(), *scratch = device_floats();
    launch_malloc_scratch(out, scratch);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    const char *d = tl_emu_error_detail();
    const char *texts[] = {"a race between blocks: block (1, 0, 0) of malloc_scratch wrote 4 byte(s) "
                           "at byte 0 of a cudaMalloc allocation",
                           "that block (0, 0, 0) had written there", NULL};
    for (const char *const *t = texts; *t; t++)
        cr_assert(d && strstr(d, *t), "the message lacks \"%s\": %s", *t, d ? d : "(none)");
}

/* out[0] += v from every block, not atomic (lab 10's *d_out += sum): gcc checks the word once,
 * as a read, and the emulator sees the store by the bytes it changed; the second block's store
 * over the first's is a race between blocks, named with its fix. (The emulator once saw no
 * store at all, and its sums came out right.) */
Test(emulator_race, blocks_adding_to_one_word_without_atomics_race)
{
    float *out = device_floats();
    launch_add_to_one_word(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    const char *d = tl_emu_error_detail();
    const char *texts[] = {"a race between blocks: block (1, 0, 0) of add_to_one_word wrote 4 byte(s)",
                           "that block (0, 0, 0) had written there", "atomicAdd", NULL};
    for (const char *const *t = texts; *t; t++)
        cr_assert(d && strstr(d, *t), "the message lacks \"%s\": %s", *t, d ? d : "(none)");
}

/* A transpose with no bounds test, on matrices named as the kit names a lab's (gpu.c), with
 * margins of 64 floats: thread (0, 1, 0) of block (0, 1, 0), row 9 of a 9 x 5 matrix, reads
 * in[45], past in's end, and writes out[9], which thread (1, 0, 0) of block (0, 0, 0) wrote
 * first. The emulator names that thread outside the matrix and its bounds test, never a race
 * between blocks sharing a value, whose fixes (__shared__ memory, atomics) are no fix here (a
 * student's lab 3, 2026-11-28). */
Test(emulator_race, a_thread_past_the_edge_names_the_bounds_test)
{
    enum { ROWS = 9, COLS = 5, MARGIN = 64, ALL = ROWS * COLS + 2 * MARGIN };
    float *in = NULL, *out = NULL, h[ALL];
    for (int i = 0; i < ALL; i++)
        h[i] = (float)i; /* each its own value: a store over another's changes it */
    cr_assert_eq(cudaMalloc((void **)&in, sizeof h), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&out, sizeof h), cudaSuccess);
    cr_assert_eq(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    tl_emu_name_allocation(in, "in", MARGIN * sizeof(float), ROWS * COLS * sizeof(float));
    tl_emu_name_allocation(out, "out", MARGIN * sizeof(float), ROWS * COLS * sizeof(float));
    launch_transpose_unguarded(out + MARGIN, in + MARGIN, ROWS, COLS);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "%s", tl_emu_error_detail());
    const char *d = tl_emu_error_detail();
    const char *texts[] = {"a thread outside the matrix: thread (1, 0, 0) of block (0, 0, 0) and thread "
                           "(0, 1, 0) of block (0, 1, 0) of transpose_unguarded both wrote 4 byte(s) at "
                           "out[9] (", "emu_race_kernels.cu:",
                           "the second had first read in[45], where in has 45 elements (in[0] .. in[44])",
                           "bounds test", NULL};
    for (const char *const *t = texts; *t; t++)
        cr_assert(d && strstr(d, *t), "the message lacks \"%s\": %s", *t, d ? d : "(none)");
    const char *misleading[] = {"a race between blocks", "__shared__", "atomic", NULL};
    for (const char *const *t = misleading; *t; t++)
        cr_assert(d && !strstr(d, *t), "the message says \"%s\", a fix for blocks sharing a value: %s", *t, d);
}

/* The same variable written by every block with the same value, or by one block a launch
 * over the last launch's value: one answer whatever the order. */
Test(emulator_race, blocks_storing_one_value_or_in_turn_do_not_race)
{
    float *out = device_floats();
    launch_device_scratch(out, 1);
    clean();
    launch_device_scratch(out, 2);
    clean();
    launch_device_scratch(out, 3);
    clean();
}

/* gcc checks s[0] += 1 once, as a read (asan's table of references checked in straight
 * code): the emulator sees its store by the bytes it changed, so lane 0's read of s[0], with
 * nothing between it and lane 1's add, races. */
Test(emulator_race, the_store_of_a_read_modify_write_races)
{
    float *out = device_floats();
    launch_add_to_neighbour(out);
    race((const char *const[]){"thread (1, 0, 0)", "this thread wrote 4 byte(s)",
                               "which thread (0, 0, 0) read", "the __shared__ array s",
                               "or, as they are lanes of one warp, a __syncwarp()", NULL});
}

/* A tree's rounds with no barrier between them: the message names the array, both threads,
 * the one line and the pass of the loop each ran it in, and the barrier at the loop's end. */
Test(emulator_race, a_tree_without_a_barrier_between_its_rounds)
{
    float *out = device_floats();
    launch_tree_sum(out, 0);
    const char *d = race((const char *const[]){
        "thread (1, 0, 0) of block (0, 0, 0) of tree_sum", "this thread wrote 4 byte(s) at",
        at(tree_add_line), "byte 4 of the __shared__ array partial (of 512 bytes)",
        "which thread (0, 0, 0) read at",
        "(the 1st time it ran that line since the __syncthreads() of line",
        "(the 7th time it ran that line since then)",
        "in different passes (this thread's 1st, thread (0, 0, 0)'s 7th)",
        "at the end of the loop's body, after the if",
        "Threads of different warps race on shared memory in the same stretch", NULL});
    cr_assert(!strstr(d, "by the same store"), "%s", d);
}

Test(emulator_race, a_tree_with_a_barrier_a_round_is_clean)
{
    float *out = device_floats(), h[1];
    launch_tree_sum(out, 1);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[0], 128.0f * 129.0f / 2, "the sum of 1 .. 128: %g", h[0]);
}

/* ---- known limits (harness/emu/README.md) */

/* A store of the value already there changes no byte: the emulator, which sees the store of
 * s[t] += v by the bytes it changed, does not see it, and the race it makes with another
 * thread's read goes unnoticed (racecheck reports it; no result depends on it). */
Test(emulator_limits, a_read_modify_write_that_stores_the_same_value_goes_unseen)
{
    float *out = device_floats(), h[1];
    launch_tree_sum(out, 2);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[0], 34.0f, "slot 0's 1 and slot 32's 33: %g", h[0]);
}

Test(emulator_limits, a_third_reader_of_the_writers_warp_is_forgotten)
{
    float *out = device_floats();
    launch_forgotten_reader(out);
    clean();
}

/* A namespace-scope __shared__ int, read and written at a constant offset, is reached through a
 * reference as a function's are (kernel_edits.c): its race is seen, where gcc's leaving out the
 * check of a static at a constant offset hid it, and the reads of a tile so made from the cost
 * (tests/hostile/lab05-namespace-shared-constant-offsets.cu). */
Test(emulator_race, a_namespace_scope_shared_variable_at_a_constant_offset_races)
{
    float *out = device_floats();
    launch_namespace_scope_shared(out);
    const char *d = race((const char *const[]){"thread (32, 0, 0)", "which thread (0, 0, 0) wrote",
                                              "the __shared__ variable flag", "different warps", NULL});
    cr_assert(!strstr(d, "_tl_emu_shared"), "the variable's own name: %s", d);
}

/* A block's scratch in a large allocation from cudaMalloc, shared by every block: no shadow is
 * kept of cudaMalloc's memory past 64 KiB (it would cost as much again as the matrices), and
 * the blocks, run one after another, each read back their own values. */
Test(emulator_limits, blocks_sharing_a_large_scratch_from_cudamalloc_go_unseen)
{
    float *out = device_floats(), *scratch = NULL, h[128];
    cr_assert_eq(cudaMalloc((void **)&scratch, (size_t)32768 * sizeof *scratch), cudaSuccess);
    launch_malloc_scratch(out, scratch);
    clean();
    cr_assert_eq(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(h[64], 163.0f, "block 1 read its own value back: %g", h[64]);
}
