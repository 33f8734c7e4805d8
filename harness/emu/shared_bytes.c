/*
 * emu-shared-bytes OBJ NAMES
 *
 * Without nvcc, the __shared__ bytes of each kernel of a lab file compiled
 * for the emulator, read from its object (NAMES: rewrite's list of the
 * file's __global__ and __device__ functions): the arrays it declares,
 * those at file scope it uses, and those of the __device__ functions it
 * calls. One line a kernel, "emulator: kernel 'NAME' uses N bytes of shared
 * memory", which tests/gpu_technique.h reads beside ptxas's lines. Fails
 * above 48 KiB, in ptxas's words, as a GPU build does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_names.h"
#include "object_code.h"

#define STATIC_SHARED_LIMIT 49152 /* 0xc000: what ptxas lets a kernel declare */

/* What kernel k reaches of the arrays: those function f uses, and those of the functions
 * f calls, each array once (reached[a]). */
static void reach(const tl_object_code *o, size_t f, char *visited, char *reached)
{
    if (visited[f])
        return;
    visited[f] = 1;
    for (size_t u = 0; u < o->n_uses; u++)
        if (o->uses[u].from == f)
            reached[o->uses[u].array] = 1;
    for (size_t c = 0; c < o->n_calls; c++)
        if (o->calls[c].from == f)
            for (size_t g = 0; g < o->n_functions; g++)
                if (strcmp(o->functions[g].name, o->calls[c].callee) == 0)
                    reach(o, g, visited, reached);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: emu-shared-bytes OBJ NAMES\n");
        return 2;
    }
    tl_object_code o;
    tl_device_names names;
    char why[4352];
    if (tl_object_code_read(argv[1], &o, why, sizeof why) != 0 ||
        tl_device_names_read(argv[2], &names, why, sizeof why) != 0) {
        fprintf(stderr, "emu-shared-bytes: %s\n", why);
        return 1;
    }
    char *visited = malloc(o.n_functions + 1), *reached = malloc(o.n_arrays + 1);
    if (!visited || !reached)
        return 1;
    int status = 0;
    for (size_t f = 0; f < o.n_functions; f++) {
        char *base = tl_cxx_base(o.functions[f].name);
        const char *kind = tl_device_kind(&names, base);
        free(base);
        /* A lambda inside a kernel is part of it, not a kernel. */
        if (!kind || strcmp(kind, "global") != 0 || strstr(o.functions[f].name, "::{lambda"))
            continue;
        memset(visited, 0, o.n_functions);
        memset(reached, 0, o.n_arrays);
        reach(&o, f, visited, reached);
        unsigned long long bytes = 0;
        for (size_t a = 0; a < o.n_arrays; a++)
            if (reached[a])
                bytes += tl_object_code_size(&o, o.arrays[a].name);
        char *shown = tl_cxx_shown(o.functions[f].name);
        printf("emulator: kernel '%s' uses %llu bytes of shared memory (registers: only nvcc can count them)\n",
               shown, bytes);
        if (bytes > STATIC_SHARED_LIMIT) {
            fflush(stdout);
            fprintf(stderr, "ptxas error   : Entry function '%s' uses too much shared data (0x%llx bytes, 0x%x max)\n",
                    shown, bytes, STATIC_SHARED_LIMIT);
            status = 1;
        }
        free(shown);
    }
    return status;
}
