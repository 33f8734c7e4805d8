/* Part of the CUDA runtime that nvcc brings in; the emulator keeps it in cuda_runtime.h. */
#include "cuda_runtime.h"
