/*
 * One timing on the GPU at a time, whoever times: the grader's benches of a
 * class run side by side, and what they do before and after timing (start,
 * fresh inputs, the checks, the student's launch plans) goes on together,
 * but a timed section has the GPU to itself. The lock is a file the grader
 * opens (grade-run --lock, read and write: its locks are fcntl's open file
 * description locks) and the bench is given as a descriptor
 * (bench --gpu-lock-fd): held shared from tl_timing_lock_take on, and
 * alone between tl_timing_alone(1) and tl_timing_alone(0); a bench waiting
 * to time goes before benches that start after it. Without a descriptor
 * each call does nothing: a student's make labN bench.
 */
#ifndef TILELAB_TIMING_LOCK_H
#define TILELAB_TIMING_LOCK_H

#include <stddef.h>

/* Takes fd's lock shared, before anything touches the GPU; the descriptor is
 * closed to every program this process starts (a student's lab process) and
 * to others of its user (no /proc/PID/fd/N). 0, or -1 with why. */
int tl_timing_lock_take(int fd, char *why, size_t why_len);

/* on: waits until no other holder is left, then times alone; 0: shares again. */
void tl_timing_alone(int on);

#endif
