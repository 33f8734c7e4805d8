/*
 * Loads and stores with cache hints (the Programming Guide's "Read-Only
 * Data Cache Load Function", "Load Functions Using Cache Hints", "Store
 * Functions Using Cache Hints"): for the emulator, which has no caches,
 * each is the load or store it hints at, checked and counted as any.
 */
#ifndef TILELAB_EMU_SM_32_INTRINSICS_H
#define TILELAB_EMU_SM_32_INTRINSICS_H

#include "cuda_runtime.h"

#ifdef __cplusplus

/* Each is an instruction of its own on a GPU (inline PTX, which nvcc neither merges with
 * another access nor leaves out): the pointer goes through an empty asm, so that g++ cannot
 * tell it from another and must make this access as written. */
#define TL_EMU_LOAD(name)                                                                      \
    template <class T> static inline T name(const T *p)                                       \
    {                                                                                          \
        __asm__("" : "+r"(p));                                                                 \
        return *p;                                                                             \
    }
#define TL_EMU_STORE(name)                                                                     \
    template <class T> static inline void name(T *p, T v)                                     \
    {                                                                                          \
        __asm__("" : "+r"(p));                                                                 \
        *p = v;                                                                                \
    }
TL_EMU_LOAD(__ldg)
TL_EMU_LOAD(__ldcg)
TL_EMU_LOAD(__ldca)
TL_EMU_LOAD(__ldcs)
TL_EMU_LOAD(__ldlu)
TL_EMU_LOAD(__ldcv)
TL_EMU_STORE(__stwb)
TL_EMU_STORE(__stcg)
TL_EMU_STORE(__stcs)
TL_EMU_STORE(__stwt)
#undef TL_EMU_LOAD
#undef TL_EMU_STORE

#endif /* __cplusplus */

#endif
