/*
 * Launch plans (plan.h), the recording side, which needs no GPU: a GPU
 * lab's lab process, built for a GPU (lab-runner with plan_record.c), asked
 * for the plan of one call. The kernels' table, which on a GPU comes from
 * the loaded device code, is written here from the kernels' signatures.
 *
 * B names the build folder; the lab processes are lab 6's and lab 9's
 * reference and lab 6's stub, built for cuda (make check builds them where
 * nvcc is installed).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "lab_client.h"

static tl_plan_table table;
static tl_plan plan;

/* The lab process of build folder VARIANT, beside plan-test in the build folder. */
static void use(const char *variant)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/lab-runner", variant);
    tl_lab_runner_at(path);
}

/* A kernel of the table: name, then each parameter's size, laid out as a GPU does (aligned to its size). */
static void kernel(const char *name, int params, const unsigned *size)
{
    tl_plan_kernel *k = &table.kernel[table.kernels++];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->params = params;
    for (int i = 0; i < params; i++) {
        k->offset[i] = (k->bytes + size[i] - 1) / size[i] * size[i];
        k->size[i] = size[i];
        k->bytes = k->offset[i] + size[i];
    }
}

/* Lab 6's reference: its kernel for blocks of 8 rows and of 4 (a template). */
static void lab06_table(void)
{
    static const unsigned sizes[] = {8, 8, 4, 4, 4, 4};
    memset(&table, 0, sizeof table);
    kernel("_Z18transpose_unrolledILi8EEvPfPKfiiii", 6, sizes);
    kernel("_Z18transpose_unrolledILi4EEvPfPKfiiii", 6, sizes);
}

static int param_int(const tl_plan_step *s, int i)
{
    int v;
    memcpy(&v, plan.arena + s->params + table.kernel[s->kernel].offset[i], sizeof v);
    return v;
}

static unsigned long long param_pointer(const tl_plan_step *s, int i)
{
    unsigned long long v;
    memcpy(&v, plan.arena + s->params + table.kernel[s->kernel].offset[i], sizeof v);
    return v;
}

Test(plan, records_the_reference_launch_with_its_arguments)
{
    char why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0x7f0000400000ull, 0};
    use("lab06/reference");
    lab06_table();
    cr_assert(tl_lab_plan(tl_entry_named("transpose"), (tl_shape){256, 320, 1}, device, &table, &plan,
                          why, sizeof why) == 0, "%s", why);
    cr_assert_str_empty(plan.refused);
    cr_assert_eq(plan.steps, 1, "one launch, not %d steps", plan.steps);
    const tl_plan_step *s = &plan.step[0];
    cr_assert_eq(s->kind, TL_STEP_LAUNCH);
    cr_assert_eq(s->kernel, 0);
    /* 64 x 64 tiles, blocks of 64 x 8 threads, numbered down the 4 tile rows of 5 tile columns */
    cr_assert(s->grid[0] == 20 && s->grid[1] == 1 && s->grid[2] == 1, "grid %u %u %u", s->grid[0],
              s->grid[1], s->grid[2]);
    cr_assert(s->block[0] == 64 && s->block[1] == 8 && s->block[2] == 1);
    cr_assert_eq(param_pointer(s, 0), device[0], "out");
    cr_assert_eq(param_pointer(s, 1), device[1], "in");
    cr_assert_eq(param_int(s, 2), 256);
    cr_assert_eq(param_int(s, 3), 320);
    cr_assert_eq(param_int(s, 4), 0, "extra: rows of out start on sectors");
    cr_assert_eq(param_int(s, 5), 4, "tiles down");
    tl_lab_stop();
}

Test(plan, refuses_a_kernel_the_table_does_not_hold)
{
    char why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0x7f0000400000ull, 0};
    static const unsigned sizes[] = {8, 8, 4, 4, 4, 4};
    use("lab06/reference");
    memset(&table, 0, sizeof table);
    kernel("_Z5otherPfPKfiiii", 6, sizes);
    cr_assert(tl_lab_plan(tl_entry_named("transpose"), (tl_shape){64, 64, 1}, device, &table, &plan,
                          why, sizeof why) == 0, "%s", why);
    cr_assert_eq(plan.steps, 0);
    cr_assert(strstr(plan.refused, "not a kernel of your lab file"), "%s", plan.refused);
    tl_lab_stop();
}

Test(plan, says_what_a_stub_left_to_do)
{
    char why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0x7f0000400000ull, 0};
    use("lab06/student");
    lab06_table();
    cr_assert(tl_lab_plan(tl_entry_named("transpose"), (tl_shape){64, 64, 1}, device, &table, &plan,
                          why, sizeof why) == 0, "%s", why);
    cr_assert(tl_todo_message() && *tl_todo_message(), "the stub's TODO is reported");
    tl_lab_stop();
}

Test(plan, a_lab_file_without_the_entry_point_says_so)
{
    char why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0, 0};
    use("lab06/reference");
    lab06_table();
    cr_assert(tl_lab_plan(tl_entry_named("transpose_inplace"), (tl_shape){64, 64, 1}, device, &table,
                          &plan, why, sizeof why) != 0);
    cr_assert(strstr(why, "defines no transpose_inplace()"), "%s", why);
    tl_lab_stop();
}

/* ---------------------------------------------------------------- lab files of the tests' own */

static void naive_table(void)
{
    static const unsigned sizes[] = {8, 8, 4, 4};
    memset(&table, 0, sizeof table);
    kernel("_Z5naivePfPKfii", 4, sizes);
}

static void plan_of(const char *name, tl_shape s)
{
    char variant[256], why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0x7f0000400000ull, 0};
    snprintf(variant, sizeof variant, "plans/%s", name);
    use(variant);
    cr_assert(tl_lab_plan(tl_entry_named("transpose"), s, device, &table, &plan, why, sizeof why) == 0,
              "%s", why);
    tl_lab_stop();
}

Test(plan, refuses_memory_of_the_labs_own)
{
    naive_table();
    plan_of("scratch", (tl_shape){64, 64, 1});
    cr_assert(strstr(plan.refused, "cudaMalloc"), "%s", plan.refused);
}

Test(plan, refuses_a_copy_from_the_host)
{
    naive_table();
    plan_of("host_copy", (tl_shape){64, 64, 1});
    cr_assert(strstr(plan.refused, "to or from the host"), "%s", plan.refused);
}

Test(plan, keeps_memsets_copies_and_launches_on_any_stream_in_order)
{
    naive_table();
    plan_of("streams", (tl_shape){64, 96, 1});
    cr_assert_str_empty(plan.refused);
    cr_assert_eq(plan.steps, 3);
    cr_assert(plan.step[0].kind == TL_STEP_MEMSET && plan.step[0].dst == 0x7f0000000000ull &&
              plan.step[0].bytes == 64 * 96 * 4 && plan.step[0].value == 0);
    cr_assert(plan.step[1].kind == TL_STEP_COPY && plan.step[1].src == 0x7f0000400000ull &&
              plan.step[1].bytes == 4);
    cr_assert(plan.step[2].kind == TL_STEP_LAUNCH && plan.step[2].grid[0] == 3 &&
              plan.step[2].grid[1] == 8 && plan.step[2].block[0] == 32 && plan.step[2].block[1] == 8);
}

Test(plan, keeps_memsets_and_copies_of_rows_as_one_step_each)
{
    naive_table();
    plan_of("rows", (tl_shape){40, 72, 1});
    cr_assert_str_empty(plan.refused);
    cr_assert_eq(plan.steps, 3, "memset, launch, copy: %d steps", plan.steps);
    const tl_plan_step *s = plan.step;
    cr_assert(s[0].kind == TL_STEP_MEMSET && s[0].dst == 0x7f0000000000ull && s[0].bytes == 40 * 4 &&
              s[0].rows == 72 && s[0].dpitch == 40 * 4 && s[0].value == 0, "cudaMemset2D: 72 rows of 160 bytes");
    cr_assert_eq(s[1].kind, TL_STEP_LAUNCH);
    cr_assert(s[2].kind == TL_STEP_COPY && s[2].dst == 0x7f0000000000ull && s[2].src == 0x7f0000400000ull &&
              s[2].bytes == 4 && s[2].rows == 40 && s[2].dpitch == 4 && s[2].spitch == 72 * 4,
              "cudaMemcpy2DAsync: 40 rows of a float, after the launch");
}

/* Each call a plan cannot carry (tests/plans/refused.cu, one a shape) is refused, naming it. */
Test(plan, refuses_what_it_cannot_carry_naming_the_call)
{
    static const char *const call[] = {"cudaMallocAsync", "cudaMallocPitch", "cudaFree",
                                       "cudaCreateTextureObject", "cudaLaunchHostFunc",
                                       "cudaLaunchCooperativeKernel"};
    naive_table();
    for (int rows = 1; rows <= 6; rows++) {
        plan_of("refused", (tl_shape){rows, 64, 1});
        char said[128];
        snprintf(said, sizeof said, "your code called %s:", call[rows - 1]);
        cr_assert(strstr(plan.refused, said), "rows %d: %s", rows, plan.refused);
    }
    plan_of("refused", (tl_shape){7, 64, 1});
    cr_assert_str_empty(plan.refused, "cudaFree(NULL) frees nothing, as CUDA's: %s", plan.refused);
}

Test(plan, keeps_copies_into_and_out_of_variables_by_their_names)
{
    naive_table();
    plan_of("symbols", (tl_shape){40, 72, 1});
    cr_assert_str_empty(plan.refused);
    cr_assert_eq(plan.steps, 4, "three copies and the launch: %d steps", plan.steps);
    const tl_plan_step *s = plan.step;
    int shape[2];
    cr_assert(s[0].kind == TL_STEP_SYMBOL && s[0].value == TL_SYMBOL_FROM_HOST && s[0].bytes == sizeof shape &&
              s[0].offset == 0, "the shape, from the host");
    cr_assert_str_eq((const char *)plan.arena + s[0].symbol, "shape");
    memcpy(shape, plan.arena + s[0].params, sizeof shape);
    cr_assert(shape[0] == 40 && shape[1] == 72, "the bytes copied, in the plan: %d %d", shape[0], shape[1]);
    cr_assert(s[1].kind == TL_STEP_SYMBOL && s[1].value == TL_SYMBOL_FROM_DEVICE && s[1].src == 0x7f0000400000ull &&
              s[1].bytes == 4, "in's first element into first");
    cr_assert_str_eq((const char *)plan.arena + s[1].symbol, "first");
    cr_assert_eq(s[2].kind, TL_STEP_LAUNCH);
    cr_assert(s[3].kind == TL_STEP_SYMBOL && s[3].value == TL_SYMBOL_TO_DEVICE && s[3].dst == 0x7f0000000000ull,
              "first out into out, after the launch");
}

/* The stand-in address of variable `name` in plan p's ADDRESS steps (plan.h), or 0. */
static unsigned long long stand_in(const tl_plan *p, const char *name, unsigned long long *size)
{
    for (int i = 0; i < p->steps; i++)
        if (p->step[i].kind == TL_STEP_ADDRESS && !strcmp((const char *)p->arena + p->step[i].symbol, name)) {
            *size = p->step[i].bytes;
            return p->step[i].src;
        }
    return 0;
}

/* A __device__ array's address handed to kernels and a memset (a reduction's partials): the
 * lab's code holds a stand-in the kit's process replaces; a pointer kept in a static from the
 * first call still names the array in the next call's plan. */
Test(plan, a_variables_address_is_a_stand_in_each_plan_names)
{
    char why[2048] = "";
    unsigned long long device[3] = {0x7f0000000000ull, 0x7f0000400000ull, 0}, size = 0;
    naive_table();
    use("plans/address");
    for (int call = 0; call < 2; call++) {
        cr_assert(tl_lab_plan(tl_entry_named("transpose"), (tl_shape){40, 72, 1}, device, &table, &plan,
                              why, sizeof why) == 0, "%s", why);
        cr_assert_str_empty(plan.refused);
        unsigned long long at = stand_in(&plan, "partials", &size);
        cr_assert(at >= TL_PLAN_SYMBOL_BASE && (at - TL_PLAN_SYMBOL_BASE) % TL_PLAN_SYMBOL_SPAN == 0,
                  "call %d: no ADDRESS step for partials (%d steps)", call, plan.steps);
        cr_assert_eq(size, 1024 * sizeof(float));
        cr_assert_eq(stand_in(&plan, "spare", &size), 0, "an address the code never took");
        const tl_plan_step *memset_step = NULL, *launch[2] = {NULL, NULL};
        for (int i = 0, l = 0; i < plan.steps; i++) {
            if (plan.step[i].kind == TL_STEP_MEMSET)
                memset_step = &plan.step[i];
            if (plan.step[i].kind == TL_STEP_LAUNCH && l < 2)
                launch[l++] = &plan.step[i];
        }
        cr_assert(memset_step && memset_step->dst == at && memset_step->bytes == 4096,
                  "call %d: the memset of the array, at its stand-in", call);
        cr_assert(launch[0] && param_pointer(launch[0], 0) == at + 16 * sizeof(float),
                  "call %d: the launch's out is 16 floats into the array", call);
        cr_assert(launch[1] && param_pointer(launch[1], 0) == device[0]);
    }
    tl_lab_stop();
}

Test(plan, refuses_a_copy_out_of_a_variable_to_the_host)
{
    naive_table();
    plan_of("symbols", (tl_shape){1, 72, 1});
    cr_assert(strstr(plan.refused, "cudaMemcpyFromSymbol to the host"), "%s", plan.refused);
}

Test(plan, refuses_more_steps_than_a_plan_holds)
{
    static const unsigned sizes[] = {8, 8, 4, 4, 4};
    memset(&table, 0, sizeof table);
    kernel("_Z3rowPfPKfiii", 5, sizes);
    plan_of("per_row", (tl_shape){TL_PLAN_STEPS + 1, 8, 1});
    cr_assert_eq(plan.steps, TL_PLAN_STEPS);
    cr_assert(strstr(plan.refused, "not one per row"), "%s", plan.refused);
}

/* ---------------------------------------------------------------- what CUDA refuses */

/* cudaError_t's numbers, as plan.h carries them: this test includes no CUDA header. */
#define INVALID_VALUE 1
#define OUT_OF_RESOURCES 701

Test(plan, a_refused_launch_returns_its_error_at_once_and_the_fallback_runs)
{
    naive_table();
    plan_of("fallback", (tl_shape){64, 64, 1});
    cr_assert_str_empty(plan.refused);
    cr_assert_eq(plan.steps, 2, "the refused launch, logged, then the fallback: %d steps", plan.steps);
    cr_assert(plan.step[0].kind == TL_STEP_LAUNCH && plan.step[0].refused == INVALID_VALUE &&
              plan.step[0].block[1] == 64, "32 x 64 refused with invalid value, as CUDA 13 does");
    cr_assert(plan.step[1].kind == TL_STEP_LAUNCH && plan.step[1].refused == 0 &&
              plan.step[1].block[1] == 8 && plan.step[1].grid[1] == 8, "the fallback, 32 x 8, runs");
    cr_assert_eq(plan.error, 0, "the lab's code took the error: none is left for the kit");
}

Test(plan, a_refusal_nobody_took_is_left_for_the_kit)
{
    naive_table();
    plan_of("fallback", (tl_shape){1, 64, 1});
    cr_assert_eq(plan.steps, 1);
    cr_assert_eq(plan.step[0].refused, INVALID_VALUE);
    cr_assert_eq(plan.error, INVALID_VALUE, "cudaGetLastError() after the call finds it, as on a GPU");
}

/* Lab file limits.cu's kernels, with the limits an H100 gives them (probed with CUDA 13). */
static void limits_table(void)
{
    static const unsigned sizes[] = {8};
    static const struct {
        const char *name;
        unsigned threads, registers;
    } k[] = {{"_Z5plainPf", 1024, 10}, {"_Z7boundedPf", 256, 10}, {"_Z5heavyPf", 384, 156},
             {"_Z3dynPf", 1024, 10}};
    memset(&table, 0, sizeof table);
    for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
        kernel(k[i].name, 1, sizes);
        table.kernel[i].max_threads = k[i].threads;
        table.kernel[i].registers = k[i].registers;
        table.kernel[i].max_dynamic_shared = 48 * 1024;
    }
    table.registers_per_block = 65536;
    table.shared_optin = 227 * 1024;
}

/* Case `which` of limits.cu: what cudaFuncSetAttribute said, what cudaGetLastError() said
 * after the launch, and said again, from the memsets that close its plan. */
static void expect_limit(int which, int said, int got, const char *what)
{
    limits_table();
    plan_of("limits", (tl_shape){which, 64, 1});
    cr_assert_str_empty(plan.refused, "%s: %s", what, plan.refused);
    cr_assert(plan.steps >= 3, "%s: %d steps", what, plan.steps);
    const tl_plan_step *m = &plan.step[plan.steps - 3];
    cr_assert(m[0].kind == TL_STEP_MEMSET && m[1].kind == TL_STEP_MEMSET && m[2].kind == TL_STEP_MEMSET);
    cr_assert_eq(m[0].value, said & 0xff, "%s: cudaFuncSetAttribute said %d", what, m[0].value);
    cr_assert_eq(m[1].value, got & 0xff, "%s: cudaGetLastError() said %d", what, m[1].value);
    cr_assert_eq(m[2].value, 0, "%s: the error was not cleared", what);
    cr_assert_eq(plan.error, 0, "%s", what);
}

Test(plan, refuses_launches_past_the_kernels_limits_as_cuda_does)
{
    expect_limit(1, 0, INVALID_VALUE, "512 threads past __launch_bounds__(256)");
    cr_assert(plan.step[0].refused == INVALID_VALUE && plan.step[0].block[0] == 512);
    expect_limit(2, 0, OUT_OF_RESOURCES, "1024 threads of 156 registers each");
    expect_limit(7, 0, 0, "384 threads of 156 registers each");
    cr_assert_eq(plan.step[0].refused, 0);
    expect_limit(3, 0, INVALID_VALUE, "48 KiB + 4 bytes of dynamic shared memory, not opted in");
    expect_limit(4, 0, 0, "100 KiB of dynamic shared memory, opted in");
    cr_assert(plan.step[0].kind == TL_STEP_ATTRIBUTE && plan.step[1].kind == TL_STEP_LAUNCH &&
              plan.step[1].refused == 0 && plan.step[1].shared_bytes == 100 * 1024);
    expect_limit(5, INVALID_VALUE, INVALID_VALUE, "opting in past the 227 KiB a block may have");
    expect_limit(6, 0, INVALID_VALUE, "a grid 65536 blocks high");
}
