/* A back end's table of variants, with the kernels of the lab's operation (bench_variants.h). */
#include "bench.h"

#include <stddef.h>

static int add(tl_variant *table, int n, tl_variant v)
{
    if (n < TL_MAX_VARIANTS)
        table[n++] = v;
    return n;
}

int tl_bench_table(const tl_variant *before, const tl_variant *after, tl_variant *table)
{
    int n = 0;
    for (; before->name; before++)
        n = add(table, n, *before);
    for (int i = 0; i < TL_OPERATION_ENTRIES && tl_bench_op->entries[i].name; i++) {
        const tl_op_entry *e = &tl_bench_op->entries[i];
        /* Where this program links no lab file of the student's (the grader's bench), the
         * entry point runs by its handle, as a plan (lab_plans.c). */
        tl_entry_fn student = e->student ? e->student : tl_entry_handle(tl_entry_index(e->name));
        n = add(table, n, (tl_variant){e->ref_variant, e->ref_label, "reference", "reference", e->reference, e->name});
        n = add(table, n, (tl_variant){e->variant, e->label, "student", e->ref_variant, student, e->name});
    }
    for (; after->name; after++)
        n = add(table, n, *after);
    return n;
}
