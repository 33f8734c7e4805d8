/*
 * callgrind-totals CALLGRIND.out: the data accesses and simulated misses of
 * a callgrind run with --cache-sim=yes, in this order: Dr Dw D1mr D1mw DLmr
 * DLmw, as make labN cachegrind's table shows them (cache-table.sh). Read
 * as the grader reads its own measurements (harness/grade/grade_callgrind.c):
 * a name in the program that carried a line break into the output cannot
 * rename its columns. Exit status 1, with why, where it cannot be read.
 */
#include <stdio.h>

#include "grade_callgrind.h"

int main(int argc, char **argv)
{
    tl_cg_run run;
    char why[256];
    if (argc != 2) {
        fprintf(stderr, "usage: callgrind-totals CALLGRIND.out\n");
        return 2;
    }
    if (tl_cg_read(argv[1], &run, why, sizeof why)) {
        fprintf(stderr, "callgrind-totals: %s: %s\n", argv[1], why);
        return 1;
    }
    for (int e = 1; e < TL_CG_EVENTS; e++) /* all but Ir */
        printf("%.0f%c", run.total[e], e + 1 < TL_CG_EVENTS ? ' ' : '\n');
    return 0;
}
