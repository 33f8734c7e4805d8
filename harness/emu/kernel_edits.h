/* What rewrite changes in a lab file's kernels (kernel_edits.c). */
#ifndef TILELAB_EMU_KERNEL_EDITS_H
#define TILELAB_EMU_KERNEL_EDITS_H

#include <stddef.h>

/*
 * The n bytes of source s with each kernel's first line and registration
 * added and its extern __shared__ arrays made the dynamic shared memory;
 * resources_path, if not NULL, is nvcc's ptxas report with the names
 * demangled. Returns a new string, its length in *out_n; lines keep their
 * numbers.
 */
/* What a variable's own name becomes, a __shared__ one's and a __device__ or __constant__
 * one's of namespace scope; the kernel reaches it through a reference of its first name
 * (TL_EMU_SHARED_REF), and the emulator's messages drop the suffix. The suffix tells a
 * __shared__ variable that g++ keeps out of the section tl_shared (a template's static). */
#define TL_EMU_SHARED_SUFFIX "_tl_emu_shared"
#define TL_EMU_REACHED_SUFFIX "_tl_emu_reached"

char *tl_edit_kernels(const char *s, size_t n, const char *resources_path, size_t *out_n);

#endif
