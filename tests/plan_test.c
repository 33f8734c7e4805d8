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
    cr_assert(tl_lab_plan((void (*)(void))transpose, (tl_shape){256, 320, 1}, device, &table, &plan,
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
    cr_assert(tl_lab_plan((void (*)(void))transpose, (tl_shape){64, 64, 1}, device, &table, &plan,
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
    cr_assert(tl_lab_plan((void (*)(void))transpose, (tl_shape){64, 64, 1}, device, &table, &plan,
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
    cr_assert(tl_lab_plan((void (*)(void))transpose_inplace, (tl_shape){64, 64, 1}, device, &table,
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
    cr_assert(tl_lab_plan((void (*)(void))transpose, s, device, &table, &plan, why, sizeof why) == 0,
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

Test(plan, refuses_more_steps_than_a_plan_holds)
{
    static const unsigned sizes[] = {8, 8, 4, 4, 4};
    memset(&table, 0, sizeof table);
    kernel("_Z3rowPfPKfiii", 5, sizes);
    plan_of("per_row", (tl_shape){TL_PLAN_STEPS + 1, 8, 1});
    cr_assert_eq(plan.steps, TL_PLAN_STEPS);
    cr_assert(strstr(plan.refused, "not one per row"), "%s", plan.refused);
}
