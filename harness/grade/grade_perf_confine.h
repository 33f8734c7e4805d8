/*
 * The measured CPU run's allow-list (grade_perf_confine.c), which grade-perf
 * installs from its .preinit_array, before any code of the lab file runs.
 */
#ifndef TILELAB_GRADE_PERF_CONFINE_H
#define TILELAB_GRADE_PERF_CONFINE_H

/* 0, or -1 with errno (ENOSYS: not on x86-64 Linux). */
int tl_perf_confine(void);

#endif
