/* Part of the CUDA runtime that nvcc brings in; the emulator keeps it all in one header. */
#include "cuda_runtime.h"
