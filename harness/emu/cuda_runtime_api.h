/* The emulator keeps the whole runtime API in one header. */
#include "cuda_runtime.h"
