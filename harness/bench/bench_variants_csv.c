/*
 * bench-variants: every bench variant's label and role, as CSV
 * (unit,variant,label,role), printed from the back ends' tables of
 * bench_variants.h with the kernels of the labs' operations (op.h).
 *
 * The bench writes label and role into each row of its CSV. A CSV written
 * before it did (a recorded run in plots/data/) is drawn with this table
 * instead, looked up by unit and variant: the Makefile writes it to
 * build/bench/variants.csv for the figures and the slides. It exits 1 when
 * two tables of one unit give one name two labels or roles, which would
 * make that lookup ambiguous, or when a label holds a comma.
 */
#include "bench_variants.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name, *label, *role;
} row;

/* Each back end's rows before and after the kernels, the functions left out (this program
 * calls none), and the operations whose labs it benches. */
#define ROW(name, label, role, vs, fn) {name, label, role},
static const row copy[] = {TL_CEILING_COPY(ROW){0}};
static const row cpu[] = {TL_LIBRARY_TRANSPOSE_CPU(ROW){0}}, gpu[] = {TL_LIBRARY_TRANSPOSE_GPU(ROW){0}},
                 inplace[] = {TL_LIBRARY_INPLACE_GPU(ROW){0}};
static const row cublas[] = {TL_CEILING_PRODUCT_GPU(ROW){0}}, cpu_product[] = {TL_LIBRARY_PRODUCT_GPU(ROW){0}};
static const struct {
    const row *before;
    const char *op;
    const row *after;
} tables[] = {{copy, "transpose", cpu}, {copy, "transpose", gpu}, {copy, "inplace", inplace},
              {cublas, "matmul", cpu_product}, {cublas, "sgemm", cpu_product}};

static struct {
    const char *unit;
    row r;
} rows[64];
static int n_rows;

static void add(const char *unit, row r)
{
    if (n_rows < (int)(sizeof rows / sizeof *rows))
        rows[n_rows].unit = unit, rows[n_rows++].r = r;
}

static void add_table(int t)
{
    const tl_op *op = tl_op_named(tables[t].op);
    for (const row *r = tables[t].before; r->name; r++)
        add(op->unit, *r);
    for (int i = 0; i < TL_OPERATION_ENTRIES && op->entries[i].name; i++) {
        const tl_op_entry *e = &op->entries[i];
        add(op->unit, (row){e->ref_variant, e->ref_label, "reference"});
        add(op->unit, (row){e->variant, e->label, "student"});
    }
    for (const row *r = tables[t].after; r->name; r++)
        add(op->unit, *r);
}

int main(void)
{
    int status = 0;
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        add_table((int)t);
    printf("unit,variant,label,role\n");
    for (int i = 0; i < n_rows; i++) {
        int seen = 0;
        if (strchr(rows[i].r.label, ',')) {
            fprintf(stderr, "bench-variants: the label of %s, '%s', holds a comma, which would "
                    "split its CSV field\n", rows[i].r.name, rows[i].r.label);
            status = 1;
        }
        for (int j = 0; j < i && !seen; j++) {
            if (strcmp(rows[i].unit, rows[j].unit) || strcmp(rows[i].r.name, rows[j].r.name))
                continue;
            seen = 1;
            if (strcmp(rows[i].r.label, rows[j].r.label) || strcmp(rows[i].r.role, rows[j].r.role)) {
                fprintf(stderr, "bench-variants: two tables in %s call %s '%s' and '%s': give one "
                        "of them another name\n", rows[i].unit, rows[i].r.name, rows[j].r.label,
                        rows[i].r.label);
                status = 1;
            }
        }
        if (!seen)
            printf("%s,%s,%s,%s\n", rows[i].unit, rows[i].r.name, rows[i].r.label, rows[i].r.role);
    }
    return status;
}
