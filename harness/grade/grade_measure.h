/*
 * The performance ratio of a hand-in, read from the raw files of one
 * measurement: reference / student for counts (fewer is better), student /
 * reference for GB/s. Where nothing could be read, says why.
 */
#ifndef TILELAB_GRADE_MEASURE_H
#define TILELAB_GRADE_MEASURE_H

#include <stddef.h>

/*
 * method "callgrind": student, reference and baseline are callgrind outputs
 *                     (--cache-sim=yes) of the same driver calling the lab
 *                     once, and not at all (the baseline, from the reference's
 *                     build): each cost is its data misses minus the baseline's.
 * method "emu":       student is the emulator profile's CSV (both variants).
 * method "gpu":       student is the bench's record (--record, bench.h): its
 *                     ratio_to_reference, or why a variant of the student's
 *                     was not timed.
 * 0 and the ratio with what it compares in `how`; -1 with why in `how`
 * (nothing to read: the run's output says more); 2, with why in `how`, where
 * the student's code was not measured for a reason the record names (the
 * bench did not time it: a wrong result, ...); 1, with why in `how`, where the
 * measurement is one no honest run gives and is refused (the grader flags it
 * for the instructor, in tl_refusal's words): on the emulator, fewer
 * transactions than the call must move at least (least_sectors), which means
 * work the emulator did not count; on a GPU, a rate above what the GPU can
 * give, which the bench refused to time.
 */
int tl_measured_ratio(const char *method, const char *student, const char *reference,
                      const char *baseline, double *ratio, char *how, size_t how_len);

/* What the instructor is told of a refused measurement of `method`. */
const char *tl_refusal(const char *method);

int tl_measured_ratio(const char *method, const char *student, const char *reference,
                      const char *baseline, double *ratio, char *how, size_t how_len);

#endif
