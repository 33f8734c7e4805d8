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
/* What a __shared__ variable's own name becomes; the kernel reaches it through a reference
 * of its first name (TL_EMU_SHARED_REF), and the emulator's messages drop the suffix. */
#define TL_EMU_SHARED_SUFFIX "_tl_emu_shared"

char *tl_edit_kernels(const char *s, size_t n, const char *resources_path, size_t *out_n);

#endif
