/* cuda_pipeline.h for the emulator: the primitives (cuda_pipeline_primitives.h). The C++
 * pipeline objects of CUDA's cuda_pipeline.h (nvcuda::experimental) are not supported. */
#include "cuda_pipeline_primitives.h"
