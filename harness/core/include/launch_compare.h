/*
 * The launches of one call on a GPU beside the emulator's launches of the same
 * call. Technique is judged from the emulator's build of a hand-in (tests/
 * gpu_technique.h), correctness and speed on the GPU from its GPU build: a
 * file whose host code tells the two apart (the device's name or properties,
 * a timing) could launch a tiled kernel where it is counted and a naive one
 * where it is timed. So on a GPU grading the GPU build's launches at the
 * technique checks' shapes are recorded (the plans its calls ran), and the
 * emulator's build must launch the same: the same kernels, in the same
 * order, with the same blocks and dynamic shared memory. A grid may differ
 * where it is sized by the device (a whole number of blocks for each SM, on
 * either side): occupancy is the GPU's own on one side and the emulator's
 * model of it on the other. Nothing here needs CUDA.
 */
#ifndef TILELAB_LAUNCH_COMPARE_H
#define TILELAB_LAUNCH_COMPARE_H

#include <stddef.h>

#include "launch.h"

/* Launches of one call written out whole; past them, a record holds their count alone. */
#define TL_COMPARE_LAUNCHES 16

/* The digest of a call's n launches (l holds the first TL_MAX_LAUNCHES of them; a call that
 * made more fails its technique check anyway): their kernels by base name, blocks and dynamic
 * shared memory, in order, grids left out (a grid may be the device's). Never 0. */
unsigned long long tl_launches_digest(int n, const tl_launch *l);

/* The n launches of a call as one line (no newline): "N#DIGEST|SYMBOL GX GY GZ BX BY BZ
 * SHARED|...", the first TL_COMPARE_LAUNCHES of them written out, the digest of all (l holds
 * them all, as tl_launches_digest reads it). 0, or -1 where it does not fit in len. */
int tl_launches_write(char *buf, size_t len, int n, const tl_launch *l);

/* A line of tl_launches_write's back: the call's count in *n, its first launches (at most
 * max) in l, the digest of them all in *digest (0 where the line has none). 0, or -1 for a
 * line that is not one. */
int tl_launches_read(const char *text, int *n, tl_launch *l, int max, unsigned long long *digest);

/* A kernel's name as its source names it, unqualified and without template arguments, from
 * its symbol ("_Z5tiledPfPKfii", "_ZN2ns4tileILi32EEEvPf": tiled, tile) or a name as the
 * source writes it ("ns::tile<32>": tile); "" for "". */
void tl_kernel_base(const char *symbol, char *out, size_t len);

/*
 * 1 where the emulator's launches of a call (n_emu of them, emu: the first TL_MAX_LAUNCHES)
 * are not the GPU's (n_gpu, gpu, and gpu_digest, tl_launches_digest of them all, 0 where
 * not known: the first TL_COMPARE_LAUNCHES of each are compared, then the counts, then the
 * digests, so that no launch past the first few goes unseen), and
 * why in why, for the student: what ran on the GPU, what on the emulator. sms: the GPU's
 * SMs (0: not known, and then every grid must match). 0 where they agree.
 */
int tl_launches_differ(int n_gpu, const tl_launch *gpu, unsigned long long gpu_digest, int n_emu,
                       const tl_launch *emu, unsigned sms, char *why, size_t len);

#endif
