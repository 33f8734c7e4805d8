/*
 * emu-host-builtins OBJ SRC
 *
 * The GPU build's link error for host code that reads a built-in variable of
 * device code (threadIdx, blockIdx, blockDim, gridDim, warpSize): nvcc
 * compiles such a file, but its object refers to __device_builtin_variable_
 * NAME, which no library defines, and the link of the lab's program fails
 * ("undefined reference to `__device_builtin_variable_warpSize'"). OBJ is
 * nvcc's object of the lab file (emu-compile.sh's check), whose x86 code is
 * all host code. Says each function's reads on stderr, in SRC's name and in
 * the linker's words, and fails where there is one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_names.h"
#include "object_code.h"

/* What host code has in the built-in's place. */
static const char *instead(const char *name)
{
    if (strcmp(name, "warpSize") == 0)
        return "write the number itself (a warp is 32 threads), or a constant of your own";
    if (strcmp(name, "blockDim") == 0 || strcmp(name, "gridDim") == 0)
        return "use the dim3 you launch with, a variable of your own";
    return "host code is no thread of a block: pass what the kernel needs as its arguments";
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: emu-host-builtins OBJ SRC\n");
        return 2;
    }
    tl_object_code o;
    char why[4352];
    if (tl_object_code_read(argv[1], &o, why, sizeof why) != 0) {
        fprintf(stderr, "emu-host-builtins: %s\n", why);
        return 1;
    }
    int status = 0;
    for (size_t r = 0; r < o.n_builtin_reads; r++) {
        const tl_call *read = &o.builtin_reads[r];
        int said = 0;
        for (size_t q = 0; q < r && !said; q++)
            said = o.builtin_reads[q].from == read->from && strcmp(o.builtin_reads[q].callee, read->callee) == 0;
        if (said)
            continue;
        const char *name = read->callee + strlen(TL_DEVICE_BUILTIN);
        char *function = tl_cxx_shown(o.functions[read->from].name);
        fprintf(stderr, "%s: in function '%s': undefined reference to `%s': %s is a built-in variable of "
                        "device code, and the host function %s reads it. nvcc compiles that, but nothing "
                        "defines %s on the host, so the GPU build's link fails here, and the emulator "
                        "refuses the file too. In host code, %s.\n",
                argv[2], function, read->callee, name, function, name, instead(name));
        free(function);
        status = 1;
    }
    return status;
}
