/*
 * bench-variants: every bench variant's label and role, as CSV
 * (unit,variant,label,role), printed from the tables of bench_variants.h.
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
    const char *unit, *name, *label, *role;
} row;

/* Every table's rows, the functions left out (this program calls none). */
#define TRANSPOSE(name, label, role, vs, fn) {TL_UNIT_TRANSPOSE, name, label, role},
#define PRODUCT(name, label, role, vs, fn) {TL_UNIT_PRODUCT, name, label, role},
static const row rows[] = {
    TL_VARIANTS_TRANSPOSE_CPU(TRANSPOSE) TL_VARIANTS_TRANSPOSE_GPU(TRANSPOSE)
    TL_VARIANTS_INPLACE_GPU(TRANSPOSE) TL_VARIANTS_PRODUCT_GPU(PRODUCT, TL_KERNELS_matmul)
    TL_VARIANTS_PRODUCT_GPU(PRODUCT, TL_KERNELS_sgemm)
};
#define N_ROWS ((int)(sizeof rows / sizeof *rows))

int main(void)
{
    int status = 0;
    printf("unit,variant,label,role\n");
    for (int i = 0; i < N_ROWS; i++) {
        int seen = 0;
        if (strchr(rows[i].label, ',')) {
            fprintf(stderr, "bench-variants: the label of %s, '%s', holds a comma, which would "
                    "split its CSV field\n", rows[i].name, rows[i].label);
            status = 1;
        }
        for (int j = 0; j < i && !seen; j++) {
            if (strcmp(rows[i].unit, rows[j].unit) || strcmp(rows[i].name, rows[j].name))
                continue;
            seen = 1;
            if (strcmp(rows[i].label, rows[j].label) || strcmp(rows[i].role, rows[j].role)) {
                fprintf(stderr, "bench-variants: two tables in %s call %s '%s' and '%s': give one "
                        "of them another name\n", rows[i].unit, rows[i].name, rows[j].label,
                        rows[i].label);
                status = 1;
            }
        }
        if (!seen)
            printf("%s,%s,%s,%s\n", rows[i].unit, rows[i].name, rows[i].label, rows[i].role);
    }
    return status;
}
