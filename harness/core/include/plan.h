/*
 * A launch plan: what a GPU lab's function asked the GPU to do, written
 * down instead of done.
 *
 * A GPU lab's function only launches work on the default stream (lab.h).
 * So its host code can run where it cannot reach the GPU or the process
 * that times and checks it: in the lab process (lab_process.h), whose CUDA
 * runtime records each launch, memset, device-to-device copy and copy into
 * or out of a __constant__ or __device__ variable as a step of a plan
 * instead of doing it (gpu/plan_record.c). The kit's own process
 * then runs the plan's steps itself, with the lab's kernels loaded from the
 * lab's compiled device code (gpu/plan_run.c): what is timed and checked is
 * exactly what was launched, and no record of it is the lab's word.
 *
 * The recording side does not know a kernel's parameters; the side that
 * loaded the device code does (cuFuncGetParamInfo), and hands them over as
 * a table with each request. Nothing here needs CUDA.
 */
#ifndef TILELAB_PLAN_H
#define TILELAB_PLAN_H

#include <stddef.h>

#define TL_PLAN_KERNELS 64   /* kernels one lab file may define */
#define TL_PLAN_PARAMS 32    /* parameters one kernel may take */
#define TL_PLAN_NAME 256     /* a kernel's (mangled) name, with its NUL */
#define TL_PLAN_STEPS 256    /* steps one call may take */
#define TL_PLAN_ARENA 65536  /* bytes of parameters, all launches of a call together */

/*
 * One kernel of the lab's device code: its name and where each parameter
 * lies; and what the GPU allows a launch of it, as the loaded code says
 * (0 where not known: no launch is then refused for it): the most threads
 * a block may have (its __launch_bounds__ and its registers), its
 * registers per thread, and its static and most dynamic shared memory.
 */
typedef struct {
    char name[TL_PLAN_NAME];
    int params;
    unsigned offset[TL_PLAN_PARAMS], size[TL_PLAN_PARAMS];
    unsigned bytes; /* the parameter buffer: the last offset plus its size */
    unsigned max_threads, registers, static_shared, max_dynamic_shared;
} tl_plan_kernel;

/* The lab's kernels, and the GPU's limits on a block that the recording holds launches to. */
typedef struct {
    int kernels;
    tl_plan_kernel kernel[TL_PLAN_KERNELS];
    unsigned registers_per_block; /* 65536 on the GPUs the kit supports; 0: not known */
    unsigned shared_optin;        /* the most shared memory a block may opt in to, static included */
} tl_plan_table;

typedef enum {
    TL_STEP_LAUNCH,    /* kernel<<<grid, block, shared_bytes>>>(parameters) */
    TL_STEP_MEMSET,    /* cudaMemset(dst, value, bytes); cudaMemset2D where rows > 0 */
    TL_STEP_COPY,      /* cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice); cudaMemcpy2D where rows > 0 */
    TL_STEP_ATTRIBUTE, /* cudaFuncSetAttribute(kernel, attribute, value) */
    TL_STEP_SYMBOL,    /* cudaMemcpyToSymbol, cudaMemcpyFromSymbol: a variable of the device code */
    TL_STEP_ADDRESS,   /* cudaGetSymbolAddress: a variable's stand-in address (below) */
} tl_step_kind;

/*
 * cudaGetSymbolAddress in the lab process: its code is given, for variable i
 * of its device code (in the order it registered them), TL_PLAN_SYMBOL_BASE +
 * i * TL_PLAN_SYMBOL_SPAN, a number no device address takes, and each plan
 * names the variables whose addresses its code holds (an ADDRESS step: src the
 * stand-in, bytes the variable's size, symbol its name). The kit's process
 * replaces a stand-in, and any address inside the variable, in a launch's
 * parameters (each 8-byte word), a memset's or a copy's addresses, by the
 * address of the variable in the device code it loaded: the lab process's own
 * would be another process's memory there.
 */
#define TL_PLAN_SYMBOL_BASE 0xde00000000000000ull
#define TL_PLAN_SYMBOL_SPAN (1ull << 40)

/* A SYMBOL step's direction (its value). */
typedef enum {
    TL_SYMBOL_FROM_HOST = 1, /* into the variable, the bytes in the arena at params */
    TL_SYMBOL_FROM_DEVICE,   /* into the variable, from device memory at src */
    TL_SYMBOL_TO_DEVICE,     /* out of the variable, to device memory at dst */
} tl_symbol_copy;

typedef struct {
    int kind;   /* tl_step_kind */
    int kernel; /* LAUNCH, ATTRIBUTE: its index in the table */
    int refused; /* LAUNCH: the error CUDA refused it with (cudaError_t), which the lab's code got
                  * as it would on a GPU; the launch is in the plan to be logged, not run */
    unsigned grid[3], block[3], shared_bytes;
    size_t params;                       /* LAUNCH: where its parameter buffer starts in the arena;
                                          * SYMBOL from the host: where the bytes are */
    size_t symbol;                       /* SYMBOL, ADDRESS: where the variable's name (its device
                                          * code's, NUL-terminated) starts in the arena */
    unsigned long long dst, src, bytes;  /* MEMSET, COPY, SYMBOL: device addresses as numbers;
                                          * ADDRESS: src the stand-in, bytes the size */
    unsigned long long offset;           /* SYMBOL: the first byte of the variable copied */
    unsigned long long rows, dpitch, spitch; /* MEMSET, COPY of rows (cudaMemset2D, cudaMemcpy2D):
                                          * rows of bytes each, dpitch bytes apart at dst and
                                          * spitch at src; rows 0: one run of bytes */
    int value;                           /* MEMSET: the byte; ATTRIBUTE: the attribute's value;
                                          * SYMBOL: its direction (tl_symbol_copy) */
    int attribute;                       /* ATTRIBUTE: cudaFuncAttribute, CUfunction_attribute alike */
} tl_plan_step;

typedef struct {
    int steps;
    tl_plan_step step[TL_PLAN_STEPS];
    size_t arena_used;
    unsigned char arena[TL_PLAN_ARENA];
    /* What the recording refused, for the student ("" when nothing): a call
     * a lab's function may not make, or more steps than a plan holds. */
    char refused[1024];
    /* CUDA's last error as the call left it (cudaError_t): what cudaGetLastError() returns to
     * the kit after the lab's function returned, as on a GPU, once the plan has run. */
    int error;
} tl_plan;

#endif
