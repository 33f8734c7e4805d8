/* The table of operations (op.h): what every reader of a descriptor counts on. */
#include <criterion/criterion.h>
#include <string.h>

#include "op.h"

static int count_ops(void)
{
    int n = 0;
    while (tl_op_at(n))
        n++;
    return n;
}

Test(operations, the_kits_four_each_found_by_its_name)
{
    static const char *const kit[] = {"transpose", "inplace", "matmul", "sgemm"};
    cr_assert_geq(count_ops(), 4, "the table holds %d operations", count_ops());
    for (size_t i = 0; i < sizeof kit / sizeof *kit; i++) {
        const tl_op *op = tl_op_named(kit[i]);
        cr_assert(op, "no operation %s in the table", kit[i]);
        cr_assert_str_eq(op->name, kit[i]);
    }
    cr_assert_null(tl_op_named("reduce_everything"));
    cr_assert_null(tl_op_named(NULL));
    cr_assert_null(tl_op_at(-1));
    cr_assert_null(tl_op_at(count_ops()));
}

/* One name an operation, one name an entry point: a lookup by either finds one. */
Test(operations, names_and_entry_points_unique)
{
    for (int i = 0; tl_op_at(i); i++)
        for (int j = 0; j < i; j++)
            cr_assert(strcmp(tl_op_at(i)->name, tl_op_at(j)->name), "two operations called %s",
                      tl_op_at(i)->name);
    for (int i = 0; tl_entry_at(i); i++)
        cr_assert_eq(tl_entry_index(tl_entry_at(i)->name), i, "two entry points called %s",
                     tl_entry_at(i)->name);
}

/* An entry point's number, handle and operation agree, and a handle is no function's. */
Test(operations, handles_round_trip)
{
    int n = tl_entry_count();
    cr_assert_geq(n, 5, "lab.h has 5 entry points, the table %d", n);
    for (int i = 0; i < n; i++) {
        const tl_op_entry *e = tl_entry_at(i);
        tl_entry_fn h = tl_entry_handle(i);
        cr_assert(h, "entry point %s has no handle", e->name);
        cr_assert_eq(tl_entry_handled(h), i);
        cr_assert_eq(tl_op_of_fn(h), tl_entry_op(i));
        cr_assert_eq(tl_op_of_entry(e->name), tl_entry_op(i));
        cr_assert(h != e->student && h != e->reference, "%s's handle is a function", e->name);
        cr_assert_eq(tl_entry_named(e->name), e->student ? e->student : h);
    }
    cr_assert_null(tl_entry_at(n));
    cr_assert_null(tl_entry_handle(n));
    cr_assert_eq(tl_entry_handled((tl_entry_fn)tl_entry_count), -1);
    cr_assert_eq(tl_entry_index("no_such_entry"), -1);
}

/* What the bench, the profile and the sanitizer read of each, present and well formed. */
Test(operations, every_field_a_reader_takes)
{
    for (int i = 0; tl_op_at(i); i++) {
        const tl_op *op = tl_op_at(i);
        tl_shape s = {97, 89, 65}, shapes[64];
        char why[256];
        cr_assert(op->call && op->check && op->work && op->floats && op->least_floats, "%s", op->name);
        cr_assert(op->entries[0].name, "%s has no entry point", op->name);
        cr_assert(!strcmp(op->unit, "GB/s") || !strcmp(op->unit, "GFLOP/s"), "%s: unit %s", op->name,
                  op->unit);
        cr_assert(op->dims >= 1 && op->dims <= 3, "%s: dims %d", op->name, op->dims);
        for (int m = 0; m < TL_CALL_MATRICES; m++)
            cr_assert_eq(op->floats(s, m) > 0, m < op->call->matrices, "%s: matrix %d of %d", op->name,
                         m, op->call->matrices);
        cr_assert_gt(op->work(s), 0);
        cr_assert_gt(op->least_floats(s), 0);
        const char *lists[] = {op->bench_cpu.sizes, op->bench_gpu.sizes, op->sanitize_sizes, op->grade_size};
        for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
            cr_assert_gt(tl_op_parse_sizes(op, lists[l], shapes, 64, why, sizeof why), 0, "%s: '%s': %s",
                         op->name, lists[l], why);
        cr_assert(op->bench_cpu.reps > 0 && op->bench_gpu.reps > 0);
        cr_assert(op->profile_size.rows > 0 && op->profile_size.cols > 0);
        cr_assert(op->held_back && op->held_back[0], "%s has no held-back keyword", op->name);
        /* held-back.sh reads the form of a case from its first word ("RxC,RxC,...") */
        cr_assert(op->held_back_are && strchr(op->held_back_are, ','), "%s: held_back_are '%s'",
                  op->name, op->held_back_are ? op->held_back_are : "(none)");
        /* The texts the bench writes into its CSV's and its record's "# " lines: one line each,
         * or the line after a break is read as the header (the grader found no timed row). */
        const char *lines[] = {op->summary, op->unit, op->rate_is, op->sizes_are};
        for (size_t l = 0; l < sizeof lines / sizeof *lines; l++)
            cr_assert(lines[l] && !strpbrk(lines[l], "\r\n"), "%s: text %zu is not one line: '%s'",
                      op->name, l, lines[l] ? lines[l] : "(none)");
    }
}

/* The products share lab 7's work: 2 m n k, and a transpose moves its bytes twice. */
Test(operations, work_as_the_bench_reported_it)
{
    tl_shape s = {97, 89, 65};
    cr_assert_float_eq(tl_op_named("matmul")->work(s), 2.0 * 97 * 89 * 65, 1e-6);
    cr_assert_float_eq(tl_op_named("sgemm")->work(s), 2.0 * 97 * 89 * 65, 1e-6);
    cr_assert_float_eq(tl_op_named("transpose")->work(s), 2.0 * 97 * 89 * 4, 1e-6);
    cr_assert_str_eq(tl_op_named("sgemm")->entries[0].name, "sgemm");
    cr_assert_null(tl_op_named("sgemm")->entries[1].name);
    cr_assert_str_eq(tl_op_named("matmul")->entries[1].variant, "naive");
}
