/*
 * What a GPU lab's function may not ask of CUDA while it runs, in the words
 * both backends refuse it with: the kit's GPU path, whose lab process records
 * the call's launches as a plan that the kit runs after the call, elsewhere
 * (gpu/plan_record.c), and the emulator inside a lab's call (emu/runtime.c,
 * emu/streams.c). A file that asks fails alike on both, saying why.
 *
 * Each takes the call's name, a string literal.
 */
#ifndef TILELAB_LAB_REFUSALS_H
#define TILELAB_LAB_REFUSALS_H

/* cudaMalloc and its kin: the plan runs where such memory was never allocated. */
#define TL_REFUSED_ALLOCATION(call)                                                                \
    "your code called " call ": a lab's function works in the device buffers it is given and "    \
    "allocates none (lab.h)"

/* cudaFree of a pointer (a NULL frees nothing, as CUDA's does). */
#define TL_REFUSED_FREE(call)                                                                      \
    "your code called " call ": a lab's function frees nothing; the device buffers it is given "   \
    "are the kit's (lab.h)"

/* A copy to or from the host. */
#define TL_REFUSED_HOST_COPY(call)                                                                 \
    "your code called " call " to or from the host: a lab's function works on the device "        \
    "buffers it is given, and the kit copies the matrices (lab.h)"

/* Texture and surface objects: made in the call, gone by the time its kernels run. */
#define TL_REFUSED_OBJECT(call)                                                                    \
    "your code called " call ": the kit runs the kernels a lab's function launches after it "     \
    "returns, where a texture or surface object it made does not exist; read the matrix with "    \
    "loads of your own (__ldg reads through a GPU's read-only cache)"

/* Work the plan cannot hold: a cooperative launch, a host function, a graph. */
#define TL_REFUSED_LAUNCH(call)                                                                    \
    "your code called " call ": a lab's function launches its kernels with <<<grid, block>>> "    \
    "(or cudaLaunchKernel), and the kit runs them, in order, after it returns (lab.h)"

#endif
