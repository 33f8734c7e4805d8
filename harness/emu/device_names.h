/*
 * The names device code goes by: rewrite's list of the functions a lab file
 * declares __global__ or __device__ ("global NAME" / "device NAME" lines,
 * each NAME as written, unqualified), and the forms of a demangled C++ name
 * that the list and the messages take (device_names.c).
 */
#ifndef TILELAB_EMU_DEVICE_NAMES_H
#define TILELAB_EMU_DEVICE_NAMES_H

#include <stddef.h>

typedef struct {
    char **names, **kinds; /* kinds[i]: "global" or "device" */
    size_t n;
} tl_device_names;

/* Reads rewrite's list at path. 0, or -1 with why. */
int tl_device_names_read(const char *path, tl_device_names *d, char *why, size_t why_len);

/* How the file declares the function called base ("global", "device"), or NULL where it
 * does not declare it for the device. */
const char *tl_device_kind(const tl_device_names *d, const char *base);

/*
 * The forms of a demangled name, each newly allocated:
 *   qualified  without return type, template arguments and parameters:
 *              "void ns::kern<64>(float*, int)" -> "ns::kern" (a lambda or a
 *              static inside a function keeps its owner: "kern()::tile"; an
 *              operator is "operator+=", a conversion "S<float>::operator")
 *   base       the qualified name's last part: "kern"
 *   shown      without return type and parameters, for a message: "kern<64>"
 */
char *tl_cxx_qualified(const char *name);
char *tl_cxx_base(const char *name);
char *tl_cxx_shown(const char *name);

#endif
