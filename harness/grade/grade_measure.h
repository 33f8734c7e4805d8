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
 * method "gpu":       student is the bench's CSV (its ratio_to_reference).
 * 0 and the ratio with what it compares in `how`; -1 with why in `how`;
 * 1, with why in `how`, where the measurement is one no honest run gives and
 * is refused (the grader flags it for the instructor): on the emulator, fewer
 * transactions than the call must move at least (least_sectors), which means
 * work the emulator did not count.
 */
int tl_measured_ratio(const char *method, const char *student, const char *reference,
                      const char *baseline, double *ratio, char *how, size_t how_len);

#endif
