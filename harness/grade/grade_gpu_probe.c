/*
 * grade-gpu-probe: can a CUDA program use the GPU here? The grader runs it
 * inside its sandbox before grading the GPU labs on the GPU. Exits 0 when
 * it can; otherwise prints why and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"

int main(void)
{
    char why[512];
    if (getenv("TILELAB_GRADE_NO_GPU")) { /* the grader's tests: a sandbox without the GPU */
        printf("TILELAB_GRADE_NO_GPU is set\n");
        return 1;
    }
    if (!tl_gpu_available(why, sizeof why)) {
        printf("%s\n", why);
        return 1;
    }
    return 0;
}
