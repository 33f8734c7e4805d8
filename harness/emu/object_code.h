/*
 * What the object of a lab file compiled for the emulator says of its code
 * (object_code.c reads its ELF symbols and relocations): its functions,
 * the __shared__ arrays each references, and the calls each makes (and, in
 * nvcc's object of it, the device built-ins its host code reads). Names are
 * demangled as c++filt writes them. Read by emu-shared-bytes and
 * emu-host-calls, beside rewrite's list of the functions the file declares
 * __global__ or __device__ (device_names.c).
 */
#ifndef TILELAB_EMU_OBJECT_CODE_H
#define TILELAB_EMU_OBJECT_CODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *name;
    size_t section; /* the ELF section its code lies in */
    uint64_t lo, hi;
} tl_function;

/* A __shared__ array: in section tl_shared (placed, at lo..hi there), or a static of a
 * function (a template kernel's, "kern<64>()::tile"), found by its name. */
typedef struct {
    const char *name;
    int placed;
    uint64_t lo, hi;
} tl_shared_array;

typedef struct {
    size_t from, array; /* a function, and an array it references */
} tl_shared_use;

typedef struct {
    size_t from;        /* a function */
    const char *callee; /* what it calls, by name: a function of the file or not */
} tl_call;

typedef struct {
    tl_function *functions;
    size_t n_functions;
    tl_shared_array *arrays;
    size_t n_arrays;
    tl_shared_use *uses;
    size_t n_uses;
    tl_call *calls;
    size_t n_calls;
    /* In an object nvcc compiled, whose x86 code is all host code: each function's reads of
     * a built-in variable of device code (threadIdx, warpSize, ...), by the symbol nvcc
     * names it with, __device_builtin_variable_NAME, which nothing defines on the host. */
    tl_call *builtin_reads;
    size_t n_builtin_reads;
    /* The bytes of each name that is a __shared__ array, the last symbol of the name's. */
    struct tl_sized_name {
        const char *name;
        uint64_t size;
    } *sizes;
    size_t n_sizes;
} tl_object_code;

/* The prefix of nvcc's symbols of the built-in variables (device_launch_parameters.h). */
#define TL_DEVICE_BUILTIN "__device_builtin_variable_"

/* Reads the x86-64 relocatable object at path. 0, or -1 with why. */
int tl_object_code_read(const char *path, tl_object_code *o, char *why, size_t why_len);

/* The bytes of the __shared__ array called name, 0 where no array has that name. */
uint64_t tl_object_code_size(const tl_object_code *o, const char *name);

#endif
