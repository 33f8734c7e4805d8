/*
 * tilelab's CPU emulator: the CUDA runtime and CUDA C a single-GPU program
 * uses, for machines without an NVIDIA GPU.
 *
 * A lab's .cu file is compiled by g++ with this header forced in first
 * (-include) and rewritten by harness/emu/rewrite.c: its <<<grid, block>>>
 * launches become TL_LAUNCH(...), each kernel's body starts with
 * TL_EMU_KERNEL_ENTRY(...) (its registers, static shared memory and
 * __launch_bounds__, checked when it is launched), and its extern
 * __shared__ arrays name the launch's dynamic shared memory. The harness's
 * own C files include it instead of the toolkit's header.
 *
 * Names, numbers and behaviour follow the CUDA runtime: error codes keep
 * their values, launch limits are the H100's, errors are sticky where the
 * real ones are. What the emulator cannot run (graphs, several devices,
 * memory a kernel shares with the host) fails to build, or its call fails,
 * with a message that says it is the emulator's limit and that a GPU runs it.
 */
#ifndef TILELAB_EMU_CUDA_RUNTIME_H
#define TILELAB_EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "vector_types.h"

/* The CUDA runtime the emulator stands for: 13.0, as on the lent H100. */
#define CUDART_VERSION 13000

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
#define X(name, value, text) name = value,
#include "cuda_errors.h"
#undef X
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16, cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32, cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34, cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41, cudaDevAttrPciDomainId = 50,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78, cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrPageableMemoryAccess = 88,
    cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108, cudaDevAttrReservedSharedMemoryPerBlock = 111,
    cudaDevAttrMemoryPoolsSupported = 115, cudaDevAttrClusterLaunch = 120
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};
enum cudaFuncCache {
    cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2
};
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1 = 0
};
enum cudaLimit {
    cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
    cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
    cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
enum cudaComputeMode {
    cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
};

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceMask 0xff
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
/* Graphs: the types, so a file that names them compiles; their calls fail to build. */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user_data);
typedef void (*cudaHostFn_t)(void *user_data);

typedef struct cudaUUID_st {
    char bytes[16];
} cudaUUID_t;

/* The fields of CUDA's cudaDeviceProp that programs read (CUDA 13 dropped the clocks; older
 * runtimes have them, and so does the emulator). */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID, pciDeviceID, pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int clusterLaunch;
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

/* ---- errors */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t err);
const char *cudaGetErrorName(cudaError_t err);

/* ---- the device: one, an SM of an H100 (runtime.c) */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);

/* ---- memory (runtime.c) */
cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream);
cudaError_t cudaMallocHost(void **ptr, size_t bytes);
cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags);
cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream);
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr);
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream);
/* A __device__ or __constant__ variable's bytes (C++: cudaMemcpyToSymbol(symbol, ...)). */
cudaError_t tl_emu_cuda_memcpy_symbol(const void *symbol, size_t symbol_bytes, void *buf,
                                      size_t bytes, size_t offset, enum cudaMemcpyKind kind,
                                      int to_symbol);

/* ---- streams and events: one queue, run in order, a legal schedule of any streams (streams.c) */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);

/* ---- kernels: attributes, occupancy, launches (kernels.c) */
cudaError_t cudaFuncSetAttribute(const void *fn, enum cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *fn);
cudaError_t cudaFuncSetCacheConfig(const void *fn, enum cudaFuncCache config);
cudaError_t cudaFuncSetSharedMemConfig(const void *fn, enum cudaSharedMemConfig config);
cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream);
/* cudaLaunchKernelEx's configuration (CUDA 11.8): a launch's shape, stream and attributes. The
 * attributes a launch of one block at a time can honour run (kernels.c says which). */
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8,
    cudaLaunchAttributeMemSyncDomainMap = 9,
    cudaLaunchAttributeMemSyncDomain = 10,
    cudaLaunchAttributePreferredClusterDimension = 11,
    cudaLaunchAttributeLaunchCompletionEvent = 12,
    cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
    cudaLaunchAttributePreferredSharedMemoryCarveout = 14
} cudaLaunchAttributeID;
typedef union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    struct {
        unsigned int x, y, z;
    } clusterDim;
    int programmaticStreamSerializationAllowed;
    struct {
        cudaEvent_t event;
        int flags;
        int triggerAtBlockStart;
    } programmaticEvent;
    int priority;
    struct {
        unsigned int x, y, z;
    } preferredClusterDim;
    struct {
        cudaEvent_t event;
        int flags;
    } launchCompletionEvent;
    unsigned int sharedMemCarveout;
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;
/* cudaSuccess where the emulator runs a launch of these attributes; otherwise its refusal. */
cudaError_t tl_emu_cuda_launch_attributes(const cudaLaunchConfig_t *config);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *fn, void **args);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *kernel,
                                                          int block_size, size_t dynamic_shared);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *kernel,
                                                                   int block_size,
                                                                   size_t dynamic_shared,
                                                                   unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, const void *kernel,
                                                      int blocks, int block_size);

/* ---- what device code sees */

/* threadIdx and friends, in one place the emulator lets every thread read (C++ sees the
 * dimensions as CUDA declares them, dim3; C, which sets them, as the same three unsigned ints). */
struct tl_emu_builtins {
    uint3 threadIdx, blockIdx;
#ifdef __cplusplus
    dim3 blockDim, gridDim;
#else
    uint3 blockDim, gridDim;
#endif
    int warpSize; /* 32: a variable, as nvcc's is, not a constant */
};
extern struct tl_emu_builtins tl_emu_builtin;
/* __syncthreads() at file:line; the emulator checks that a block's threads all wait at one. */
void tl_emu_syncthreads_at(const char *file, int line);

/*
 * What the emulator's device headers call; a lab file may call these
 * (harness/lab/isolate-symbols.sh lets it: tl_emu_cuda_*), the rest of the
 * kit's code it may not.
 */
/* __syncthreads() and the ones that also count, AND or OR a predicate over the block. */
enum { TL_SYNC_PLAIN, TL_SYNC_COUNT, TL_SYNC_AND, TL_SYNC_OR };
int tl_emu_cuda_syncthreads(int op, int predicate, const char *file, int line);
/* The warp collectives (sm_30_intrinsics.h). */
enum {
    TL_WARP_SHFL_IDX, TL_WARP_SHFL_UP, TL_WARP_SHFL_DOWN, TL_WARP_SHFL_XOR,
    TL_WARP_BALLOT, TL_WARP_ANY, TL_WARP_ALL, TL_WARP_SYNC, TL_WARP_ACTIVEMASK,
    TL_WARP_MATCH_ANY, TL_WARP_MATCH_ALL,
    TL_WARP_REDUCE_ADD, TL_WARP_REDUCE_MIN, TL_WARP_REDUCE_MAX, TL_WARP_REDUCE_UMIN,
    TL_WARP_REDUCE_UMAX, TL_WARP_REDUCE_AND, TL_WARP_REDUCE_OR, TL_WARP_REDUCE_XOR,
    TL_WARP_OPS
};
/* The running thread's part in warp collective op: it waits until every lane of its warp
 * that mask names (and that has not exited) has come to one with the same op, mask and size
 * of value, and returns what it gets (size bytes of value: a shuffle's; b and c: the
 * shuffle's lane and packed width; *pred: __match_all_sync's). */
unsigned long long tl_emu_cuda_warp(int op, unsigned mask, unsigned long long value, unsigned size,
                                    int b, int c, int *pred, const char *file, int line);
/* The atomic functions (device_atomic_functions.h): op on the type at p, with v (and, for
 * atomicCAS, compare) as bits; returns the old value's bits. */
enum {
    TL_ATOMIC_ADD, TL_ATOMIC_SUB, TL_ATOMIC_EXCH, TL_ATOMIC_MIN, TL_ATOMIC_MAX, TL_ATOMIC_INC,
    TL_ATOMIC_DEC, TL_ATOMIC_CAS, TL_ATOMIC_AND, TL_ATOMIC_OR, TL_ATOMIC_XOR
};
enum { TL_ATOMIC_I32, TL_ATOMIC_U32, TL_ATOMIC_I64, TL_ATOMIC_U64, TL_ATOMIC_U16, TL_ATOMIC_F32,
       TL_ATOMIC_F64, TL_ATOMIC_F16, TL_ATOMIC_BF16 };
unsigned long long tl_emu_cuda_atomic(int op, int type, void *p, unsigned long long v,
                                      unsigned long long compare);
/* atomicAdd on count values of a type (TL_ATOMIC_F32, _F16, _BF16) side by side at p: float2
 * and float4, __half and __half2, __nv_bfloat16 and __nv_bfloat162; one access of all their
 * bytes, each value added on its own. v: the values to add; old: where the old ones go. */
void tl_emu_cuda_atomic_add_vector(int type, int count, void *p, const void *v, void *old);
/* __isGlobal, __isShared, __isConstant, __isLocal (device_functions.h): the space of memory a
 * generic address lies in, TL_SPACE_..., as the emulator's checks of accesses tell it. */
enum { TL_SPACE_GLOBAL, TL_SPACE_SHARED, TL_SPACE_CONSTANT, TL_SPACE_LOCAL };
int tl_emu_cuda_space(const void *p);
/* A kernel's first line (TL_EMU_KERNEL_ENTRY): ptxas's registers a thread and static shared
 * bytes (-1: not known), and its __launch_bounds__ (0: none). The first thread of a launch
 * checks the launch against them, and refuses it as CUDA would. */
void tl_emu_cuda_kernel_entry(int regs, int smem, int max_threads);
/* The dynamic shared memory of the running block: every extern __shared__ array (rewrite
 * names this for them), as large as a block may have; the launch's third argument says how
 * much of it the block may use. */
extern char tl_emu_cuda_dynamic_shared[];
/* A kernel that is not a template, known before it runs (TL_EMU_REGISTER), and how to launch
 * it from pointers to its arguments (cudaLaunchKernel). */
typedef cudaError_t (*tl_emu_argv_launch)(const void *fn, dim3 grid, dim3 block, void **args,
                                          size_t shared, cudaStream_t stream, const char *name);
void tl_emu_cuda_register_kernel(const void *fn, const char *name, int regs, int smem,
                                 int max_threads, tl_emu_argv_launch launch);
/* The registered name of the kernel at fn, or NULL. */
const char *tl_emu_cuda_kernel_name(const void *fn);
/* The special registers inline PTX may read (rewrite turns asm("mov.u32 %0, %%laneid;" ...)
 * into tl_emu_cuda_sreg(TL_SREG_LANEID)): the running thread's. */
enum {
    TL_SREG_TID_X, TL_SREG_TID_Y, TL_SREG_TID_Z, TL_SREG_NTID_X, TL_SREG_NTID_Y, TL_SREG_NTID_Z,
    TL_SREG_CTAID_X, TL_SREG_CTAID_Y, TL_SREG_CTAID_Z, TL_SREG_NCTAID_X, TL_SREG_NCTAID_Y,
    TL_SREG_NCTAID_Z, TL_SREG_LANEID, TL_SREG_WARPID, TL_SREG_NWARPID, TL_SREG_SMID, TL_SREG_NSMID,
    TL_SREG_GRIDID, TL_SREG_LANEMASK_EQ, TL_SREG_LANEMASK_LE, TL_SREG_LANEMASK_LT,
    TL_SREG_LANEMASK_GE, TL_SREG_LANEMASK_GT, TL_SREG_CLOCK64, TL_SREG_CLOCK_HI, TL_SREG_CLOCK,
    TL_SREG_GLOBALTIMER_LO, TL_SREG_GLOBALTIMER_HI, TL_SREG_GLOBALTIMER, TL_SREG_DYNAMIC_SMEM_SIZE,
    TL_SREG_IS_EXPLICIT_CLUSTER, TL_SREG_CLUSTERID_X, TL_SREG_CLUSTERID_Y, TL_SREG_CLUSTERID_Z,
    TL_SREG_NCLUSTERID_X, TL_SREG_NCLUSTERID_Y, TL_SREG_NCLUSTERID_Z, TL_SREG_CLUSTER_CTAID_X,
    TL_SREG_CLUSTER_CTAID_Y, TL_SREG_CLUSTER_CTAID_Z, TL_SREG_CLUSTER_NCTAID_X,
    TL_SREG_CLUSTER_NCTAID_Y, TL_SREG_CLUSTER_NCTAID_Z, TL_SREG_CLUSTER_CTARANK,
    TL_SREG_CLUSTER_NCTARANK
};
unsigned long long tl_emu_cuda_sreg(int which);
/* malloc and free of a lab file (emu-compile.sh renames its calls): in a kernel, the device's
 * heap; in host code, the C library's. */
void *tl_emu_cuda_malloc(size_t bytes);
void tl_emu_cuda_free(void *p);
/* cuda_pipeline.h's asynchronous copies of the running thread. */
void tl_emu_cuda_pipeline_copy(void *dst, const void *src, size_t bytes, size_t zfill);
void tl_emu_cuda_pipeline_commit(void);
void tl_emu_cuda_pipeline_wait(size_t prior);

typedef void (*tl_emu_body)(void *args);
/* Runs body once per thread of the grid, on the launch's arguments (args_bytes of them at
 * args); returns the launch's error (a refused configuration), as cudaGetLastError would. */
cudaError_t tl_emu_launch(dim3 grid, dim3 block, size_t dynamic_shared, cudaStream_t stream,
                          const char *kernel, const char *file, int line, tl_emu_body body,
                          void *args, size_t args_bytes);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus

/* ---- CUDA C as the lab files write it (they are compiled as C++) */

/*
 * What nvcc's cuda_runtime.h brings in for host code, so a lab file needs
 * the same includes here as there: math functions without <math.h>, but
 * printf and assert only with <stdio.h> and <assert.h>.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

/*
 * The built-in variables are names, as nvcc's are, not macros: host code may
 * call its own launch configuration blockDim and gridDim (siboehm's SGEMM
 * runner and llm.c do), a local shadowing the built-in. Each is a constant
 * reference, so a kernel cannot assign to one (nvcc refuses that too), and
 * g++ reads through it straight from tl_emu_builtin: no cost.
 */
static const uint3 &threadIdx = tl_emu_builtin.threadIdx;
static const uint3 &blockIdx = tl_emu_builtin.blockIdx;
static const dim3 &blockDim = tl_emu_builtin.blockDim;
static const dim3 &gridDim = tl_emu_builtin.gridDim;
/* Where each thread waits tells a barrier from another: see tl_emu_syncthreads_at. */
#define __syncthreads() tl_emu_syncthreads_at(__FILE__, __LINE__)
/* warpSize too is a variable, not a constant expression: nvcc refuses it as an array's
 * length (__shared__ float sums[256 / warpSize]) or a template's argument, and so does g++. */
static const int &warpSize = tl_emu_builtin.warpSize;
/* CUDA's hint __builtin_assume(expr) (the Programming Guide's compiler optimization hints),
 * which g++ lacks: nvcc may assume expr holds and leaves what it does unspecified where it has
 * side effects; here it is not evaluated. */
#define __builtin_assume(expr) ((void)sizeof((expr) ? 1 : 0))
/* Programmatic dependent launch (sm_90): a kernel waits for the launch before it to finish, or
 * lets the one after it start early. Every launch here starts once the one before it has ended. */
static inline void cudaGridDependencySynchronize(void) {}
static inline void cudaTriggerProgrammaticLaunchCompletion(void) {}

/* What the emulator cannot run fails to build, saying so (its call, where g++ keeps one). */
#define TL_EMU_UNSUPPORTED(what) \
    __attribute__((error(what " is not supported by the tilelab CPU emulator: run this on a GPU")))
/* Launches and graphs it cannot run: any call of these fails to build, saying why. */
template <class... A> cudaError_t cudaLaunchCooperativeKernel(A...)
    TL_EMU_UNSUPPORTED("cudaLaunchCooperativeKernel (a grid whose blocks all run at once)");
#define TL_EMU_GRAPHS(name) \
    template <class... A> cudaError_t name(A...) TL_EMU_UNSUPPORTED(#name " (CUDA graphs)");
TL_EMU_GRAPHS(cudaStreamBeginCapture)
TL_EMU_GRAPHS(cudaStreamEndCapture)
TL_EMU_GRAPHS(cudaGraphCreate)
TL_EMU_GRAPHS(cudaGraphInstantiate)
TL_EMU_GRAPHS(cudaGraphLaunch)
TL_EMU_GRAPHS(cudaGraphExecDestroy)
TL_EMU_GRAPHS(cudaGraphDestroy)
TL_EMU_GRAPHS(cudaGraphAddKernelNode)
#undef TL_EMU_GRAPHS
/* Other devices: the emulator has one. */
template <class... A> cudaError_t cudaMemcpyPeer(A...) TL_EMU_UNSUPPORTED("cudaMemcpyPeer (several devices)");
template <class... A> cudaError_t cudaMemcpyPeerAsync(A...) TL_EMU_UNSUPPORTED("cudaMemcpyPeerAsync (several devices)");
template <class... A> cudaError_t cudaDeviceEnablePeerAccess(A...) TL_EMU_UNSUPPORTED("cudaDeviceEnablePeerAccess (several devices)");

/* A kernel is never inlined into its launch, nor cloned: the emulator knows which kernel a
 * thread runs by the function its first line is in (kernels.c). */
#define __global__ __attribute__((noinline, noclone))
#define __device__
#define __host__
/* A hint to nvcc, not a rule: g++ must be able to call one through a pointer (an operation
 * passed to cg::reduce, as llm.c passes its own), where always_inline would not build. */
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
/* A const kernel parameter whose address is taken in the parameter space (CUDA 11.7): the
 * emulator's parameters are its pack of the launch's arguments already. */
#define __grid_constant__
/* Read where the kernel starts instead (rewrite passes them to TL_EMU_KERNEL_ENTRY). */
#define __launch_bounds__(...)
/* The registers a thread of the kernel may have (CUDA 12.4): ptxas's count, which the emulator
 * reads where nvcc ran, is what it gives. */
#define __maxnreg__(n)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
/* One copy per kernel, shared by the threads of the block that is running:
 * the emulator runs one block at a time and poisons these before each. The
 * section tells them from other statics (emu-compile.sh has the
 * instrumentation guard it with -fsanitize-sections). */
#define __shared__ static __attribute__((section("tl_shared")))
/* Kernels read these and never write them; the section tells them from other variables. */
#define __constant__ __attribute__((section("tl_constant")))
#define __managed__ TL_EMU_UNSUPPORTED_VARIABLE___managed__variables_need_memory_kernels_and_the_host_share
/* extern __shared__ T name[] is rewritten to extern T name[] TL_EMU_DYNAMIC_SHARED at
 * namespace scope, and to T (&name)[] = TL_EMU_DYNAMIC_SHARED_REF in a function (g++
 * drops the asm label of a local extern in a template): both name the launch's dynamic
 * shared memory. The reference takes its type from the declaration, whatever T is. */
#define TL_EMU_DYNAMIC_SHARED __asm__("tl_emu_cuda_dynamic_shared")
struct tl_emu_dynamic_shared_ref {
    template <class T> operator T &() const { return *reinterpret_cast<T *>(tl_emu_cuda_dynamic_shared); }
};
#define TL_EMU_DYNAMIC_SHARED_REF tl_emu_dynamic_shared_ref()
/* rewrite renames a __shared__ variable, x to x_tl_emu_shared (and a __device__ or __constant__
 * one of namespace scope, to x_tl_emu_reached), and declares x a reference to it, made through
 * this: gcc cannot see that the
 * reference is the variable, so it checks each access (it leaves out the check of an
 * access to a static at a constant offset: a __shared__ int, tile[0][5]). */
template <class T> static inline __attribute__((always_inline)) T *tl_emu_shared_ref(T *p)
{
    __asm__("" : "+r"(p));
    return p;
}
#define TL_EMU_SHARED_REF(x) (*tl_emu_shared_ref(&(x)))
/* The references rewrite declares at namespace scope (a __shared__, __device__ or __constant__
 * variable there): the emulator knows their storage, where a kernel reads which variable it
 * reaches, as moving no memory (emulator.c). */
#define TL_EMU_REF_SECTION __attribute__((section("tl_refs")))

/* __launch_bounds__(max threads, min blocks, max blocks a cluster): the threads. */
static constexpr int tl_emu_bounds(long max_threads = 0, long = 0, long = 0)
{
    return (int)max_threads;
}
/* A kernel's first line: TL_EMU_KERNEL_ENTRY(registers, static shared bytes, (bounds)). */
#define TL_EMU_KERNEL_ENTRY(regs, smem, bounds) tl_emu_cuda_kernel_entry(regs, smem, tl_emu_bounds bounds)

/* The stream argument CUDA gives a default. */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream = 0);
cudaError_t cudaMemset2DAsync(void *ptr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = 0);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaMallocAsync(void **ptr, size_t bytes, cudaStream_t stream);
cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags);
cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t bytes, int device, cudaStream_t stream = 0);
cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args, size_t shared = 0,
                             cudaStream_t stream = 0);

struct tl_emu_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};
static inline tl_emu_config tl_emu_configure(dim3 grid, dim3 block, size_t shared = 0,
                                             cudaStream_t stream = 0)
{
    tl_emu_config c = {grid, block, shared, stream};
    return c;
}

/*
 * A launch's arguments, evaluated once on the host as CUDA does, and
 * copied into each thread's parameters: the threads read them from this
 * pack, the one piece of host memory a kernel may touch.
 */
template <class... T> struct tl_emu_pack;
template <> struct tl_emu_pack<> {
    template <class F, class... D> void call(F f, D &...d) { f(d...); }
};
template <class H, class... T> struct tl_emu_pack<H, T...> {
    H head;
    tl_emu_pack<T...> tail;
    template <class F, class... D> void call(F f, D &...d) { tail.call(f, d..., head); }
};
static inline tl_emu_pack<> tl_emu_pack_args() { return {}; }
template <class H, class... T>
static inline tl_emu_pack<typename std::decay<H>::type, typename std::decay<T>::type...>
tl_emu_pack_args(H &&h, T &&...t)
{
    return {static_cast<H &&>(h), tl_emu_pack_args(static_cast<T &&>(t)...)};
}

/*
 * nvcc converts a launch's arguments to the kernel's parameters where the launch is written,
 * as at any call: kernel<<<g, b>>>(NULL) passes a null float *. The pack holds each argument
 * as its own type, and NULL (g++'s __null, a long) or 0 held so is no longer a null pointer
 * constant: the call from the pack did not compile (invalid conversion from 'long int' to
 * 'float*'). So where the call as packed does not compile, each integer goes as a
 * tl_emu_integer_arg, which converts to a pointer as well as to any arithmetic type: nvcc's
 * check of the file has seen that only a null pointer constant stands where a pointer is
 * taken. Where the call compiles as packed (a template kernel whose parameters are deduced
 * from the arguments, an int to an int), it is made as it is.
 */
template <class T> struct tl_emu_integer_arg {
    T value;
    template <class U> operator U() const
    {
        if constexpr (std::is_pointer<U>::value)
            return reinterpret_cast<U>(static_cast<uintptr_t>(value));
        else
            return static_cast<U>(value);
    }
};
template <class T> static inline decltype(auto) tl_emu_as_argument(T &a)
{
    if constexpr (std::is_integral<T>::value)
        return tl_emu_integer_arg<T>{a};
    else
        return (a);
}
/* f(a...) where it compiles as packed, else with each integer as a tl_emu_integer_arg. f: a
 * pointer to the kernel, or TL_EMU_NAMED_KERNEL's callable of a kernel named in the source. */
template <class F, class... A> static inline void tl_emu_call_kernel(F f, A &...a)
{
    if constexpr (std::is_invocable<F, A &...>::value)
        f(a...);
    else
        f(tl_emu_as_argument(a)...);
}
/* A kernel named in the source (a template's instance, an overload set) as a callable whose
 * call compiles where the kernel's would. */
#define TL_EMU_NAMED_KERNEL(kernel) [](auto &&...x) -> decltype(kernel(x...)) { kernel(x...); }

/* name<<<config>>>(args) is rewritten to TL_LAUNCH("name", (name), (config), (args)). */
#define TL_LAUNCH(name, kernel, config, args)                                              \
    do {                                                                                   \
        tl_emu_config tl_cfg_ = tl_emu_configure config;                                   \
        auto tl_args_ = tl_emu_pack_args args;                                             \
        tl_emu_launch(tl_cfg_.grid, tl_cfg_.block, tl_cfg_.shared, tl_cfg_.stream, name,    \
                      __FILE__, __LINE__,                                                  \
                      [](void *p) {                                                        \
                          (*(decltype(tl_args_) *)p).call([](auto &...a) { tl_emu_call_kernel(TL_EMU_NAMED_KERNEL(kernel), a...); }); \
                      },                                                                   \
                      &tl_args_, sizeof tl_args_);                                         \
    } while (0)

/* kern<<<config>>>(args) where kern holds a pointer to a kernel (a variable, a launch helper's
 * parameter, an element of an array of kernels) is TL_LAUNCH_POINTER("kern", (kern), (config),
 * (args)): the pointer is evaluated once, with the arguments, and travels at the head of their
 * pack; the launch is named for the kernel it points to where the emulator knows its name. */
template <class K> struct tl_emu_pointer_packer {
    K kernel;
    template <class... T> auto operator()(T &&...t)
    {
        return tl_emu_pack_args(kernel, static_cast<T &&>(t)...);
    }
};
template <class K>
static inline tl_emu_pointer_packer<typename std::decay<K>::type> tl_emu_pointer_pack(K &&kernel)
{
    return {kernel};
}
template <class K> static inline const char *tl_emu_pointer_name(K kernel, const char *text)
{
    const char *name = tl_emu_cuda_kernel_name(reinterpret_cast<const void *>(kernel));
    return name ? name : text;
}
#define TL_LAUNCH_POINTER(name, kernel, config, args)                                      \
    do {                                                                                   \
        tl_emu_config tl_cfg_ = tl_emu_configure config;                                   \
        auto tl_args_ = tl_emu_pointer_pack kernel args;                                   \
        tl_emu_launch(tl_cfg_.grid, tl_cfg_.block, tl_cfg_.shared, tl_cfg_.stream,         \
                      tl_emu_pointer_name(tl_args_.head, name), __FILE__, __LINE__,         \
                      [](void *p) {                                                        \
                          (*(decltype(tl_args_) *)p).call([](auto &k, auto &...a) { tl_emu_call_kernel(k, a...); }); \
                      },                                                                   \
                      &tl_args_, sizeof tl_args_);                                         \
    } while (0)

/* The templates and classes of the emulator's headers have internal linkage (an unnamed
 * namespace): a student's file and the reference are linked together, each with its symbols
 * made local (isolate-symbols.sh), and one copy of a shared instance would be thrown away. */
namespace {

/* A launch from pointers to the arguments of a kernel whose parameters are P...
 * (cudaLaunchKernel): each argument copied from where its pointer points, once. */
template <class... P> struct tl_emu_argv {
    template <size_t... I>
    static auto pack(void **args, std::index_sequence<I...>)
    {
        return tl_emu_pack_args(*(typename std::decay<P>::type *)args[I]...);
    }
    static cudaError_t launch(const void *fn, dim3 grid, dim3 block, void **args, size_t shared,
                              cudaStream_t stream, const char *name)
    {
        struct frame {
            void (*kernel)(P...);
            decltype(pack(args, std::index_sequence_for<P...>{})) a;
        } f = {(void (*)(P...))fn, pack(args, std::index_sequence_for<P...>{})};
        return tl_emu_launch(grid, block, shared, stream, name ? name : "cudaLaunchKernel",
                             "cudaLaunchKernel", 0,
                             [](void *p) { ((frame *)p)->a.call(((frame *)p)->kernel); }, &f,
                             sizeof f);
    }
};
/* CUDA's C++ form takes the kernel itself, whose parameters tell how to read the arguments. */
template <class... P>
static inline cudaError_t cudaLaunchKernel(void (*fn)(P...), dim3 grid, dim3 block, void **args,
                                           size_t shared = 0, cudaStream_t stream = 0)
{
    return tl_emu_argv<P...>::launch((const void *)fn, grid, block, args, shared, stream,
                                     tl_emu_cuda_kernel_name((const void *)fn));
}

/* cudaLaunchKernelEx(config, kernel, args...): the arguments converted to the kernel's
 * parameters, as CUDA's template does, and launched as configured where the emulator can run
 * the launch's attributes (tl_emu_cuda_launch_attributes). */
template <class... P, class... A>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(P...),
                                             A &&...args)
{
    cudaError_t refused = tl_emu_cuda_launch_attributes(config);
    if (refused)
        return refused;
    struct frame {
        void (*kernel)(P...);
        tl_emu_pack<typename std::decay<P>::type...> a;
    };
    return [&](P... coerced) {
        frame f = {kernel, tl_emu_pack_args(coerced...)};
        const char *name = tl_emu_cuda_kernel_name((const void *)kernel);
        return tl_emu_launch(config->gridDim, config->blockDim, config->dynamicSmemBytes,
                             config->stream, name ? name : "cudaLaunchKernelEx",
                             "cudaLaunchKernelEx", 0,
                             [](void *p) { ((frame *)p)->a.call(((frame *)p)->kernel); }, &f,
                             sizeof f);
    }(static_cast<A &&>(args)...);
}

/* After a kernel that is not a template: TL_EMU_REGISTER(kernel, "name", registers, static
 * shared bytes, (bounds)). */
struct tl_emu_registration {
    template <class... P>
    tl_emu_registration(void (*kernel)(P...), const char *name, int regs, int smem, int max_threads)
    {
        tl_emu_cuda_register_kernel((const void *)kernel, name, regs, smem, max_threads,
                                    &tl_emu_argv<P...>::launch);
    }
};

} /* namespace */
#define TL_EMU_JOIN2(a, b) a##b
#define TL_EMU_JOIN(a, b) TL_EMU_JOIN2(a, b)
#define TL_EMU_REGISTER(kernel, name, regs, smem, bounds)                                         \
    static const tl_emu_registration TL_EMU_JOIN(tl_emu_registered_, __COUNTER__)(               \
        kernel, name, regs, smem, tl_emu_bounds bounds);

/* A __device__ or __constant__ variable, named by itself (CUDA's C++ forms). */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return tl_emu_cuda_memcpy_symbol(&symbol, sizeof(T), (void *)src, bytes, offset, kind, 1);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes,
                                               size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return tl_emu_cuda_memcpy_symbol(&symbol, sizeof(T), dst, bytes, offset, kind, 0);
}
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t bytes,
                                                  size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t bytes,
                                                    size_t offset = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0)
{
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
/* A device variable's address, which kernels and cudaMemcpy take as device memory. */
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **address, const T &symbol)
{
    if (!address)
        return cudaErrorInvalidValue;
    *address = (void *)&symbol;
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    if (!size)
        return cudaErrorInvalidValue;
    *size = sizeof(T);
    return cudaSuccess;
}

/* The runtime's C++ forms that take a kernel itself or any pointer. */
template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *fn, enum cudaFuncAttribute attr, int value)
{
    return cudaFuncSetAttribute((const void *)fn, attr, value);
}
template <class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *fn)
{
    return cudaFuncGetAttributes(attr, (const void *)fn);
}
template <class T> static inline cudaError_t cudaFuncSetCacheConfig(T *fn, enum cudaFuncCache config)
{
    return cudaFuncSetCacheConfig((const void *)fn, config);
}
template <class T>
static inline cudaError_t cudaFuncSetSharedMemConfig(T *fn, enum cudaSharedMemConfig config)
{
    return cudaFuncSetSharedMemConfig((const void *)fn, config);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F *kernel,
                                                                        int block_size,
                                                                        size_t dynamic_shared = 0)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)kernel, block_size,
                                                         dynamic_shared);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *blocks, F *kernel, int block_size, size_t dynamic_shared, unsigned int flags)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        blocks, (const void *)kernel, block_size, dynamic_shared, flags);
}
template <class F>
static inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *bytes, F *kernel, int blocks,
                                                                    int block_size)
{
    return cudaOccupancyAvailableDynamicSMemPerBlock(bytes, (const void *)kernel, blocks, block_size);
}
/*
 * The block size of most threads resident on an SM (CUDA's search, from the
 * largest size a warp at a time, each block_bytes(size) of dynamic shared
 * memory), and the grid that fills the device with it.
 */
template <class F, class S>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *min_grid, int *block, F kernel, S block_bytes, int limit = 0)
{
    struct cudaDeviceProp p;
    struct cudaFuncAttributes a;
    cudaError_t err;
    if (!min_grid || !block)
        return cudaErrorInvalidValue;
    if ((err = cudaGetDeviceProperties(&p, 0)) || (err = cudaFuncGetAttributes(&a, (const void *)kernel)))
        return err;
    int most = a.maxThreadsPerBlock < p.maxThreadsPerBlock ? a.maxThreadsPerBlock : p.maxThreadsPerBlock;
    if (limit > 0 && limit < most)
        most = limit;
    int best_threads = 0, best_block = 0, best_blocks = 0;
    for (int aligned = (most + p.warpSize - 1) / p.warpSize * p.warpSize; aligned > 0;
         aligned -= p.warpSize) {
        int size = aligned < most ? aligned : most, n = 0;
        if ((err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)kernel, size,
                                                                 (size_t)block_bytes(size))))
            return err;
        if (n * size > best_threads)
            best_threads = n * size, best_block = size, best_blocks = n;
        if (best_threads == p.maxThreadsPerMultiProcessor)
            break;
    }
    *min_grid = best_blocks * p.multiProcessorCount;
    *block = best_block;
    return cudaSuccess;
}
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, F kernel,
                                                             size_t dynamic_shared = 0, int limit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMem(
        min_grid, block, kernel, [dynamic_shared](int) { return dynamic_shared; }, limit);
}

template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t bytes)
{
    return cudaMalloc((void **)ptr, bytes);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)ptr, pitch, width, height);
}
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t bytes)
{
    return cudaMallocHost((void **)ptr, bytes);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **ptr, size_t bytes, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, bytes, flags);
}
template <class T> static inline cudaError_t cudaMallocAsync(T **ptr, size_t bytes, cudaStream_t stream)
{
    return cudaMallocAsync((void **)ptr, bytes, stream);
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t bytes, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)ptr, bytes, flags);
}

/* min and max with CUDA's overloads (crt/math_functions.hpp): mixed signedness gives unsigned. */
#define TL_EMU_MINMAX(R, A, B)                                                \
    static inline R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \
    static inline R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }
TL_EMU_MINMAX(int, int, int)
TL_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
TL_EMU_MINMAX(unsigned int, int, unsigned int)
TL_EMU_MINMAX(unsigned int, unsigned int, int)
TL_EMU_MINMAX(long int, long int, long int)
TL_EMU_MINMAX(unsigned long int, unsigned long int, unsigned long int)
TL_EMU_MINMAX(unsigned long int, long int, unsigned long int)
TL_EMU_MINMAX(unsigned long int, unsigned long int, long int)
TL_EMU_MINMAX(long long int, long long int, long long int)
TL_EMU_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
TL_EMU_MINMAX(unsigned long long int, long long int, unsigned long long int)
TL_EMU_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef TL_EMU_MINMAX
/* The floating-point ones are fmin and fmax: a NaN loses to a number. */
static inline float min(const float a, const float b) { return fminf(a, b); }
static inline float max(const float a, const float b) { return fmaxf(a, b); }
static inline double min(const double a, const double b) { return fmin(a, b); }
static inline double max(const double a, const double b) { return fmax(a, b); }
static inline double min(const float a, const double b) { return fmin(a, b); }
static inline double max(const float a, const double b) { return fmax(a, b); }
static inline double min(const double a, const float b) { return fmin(a, b); }
static inline double max(const double a, const float b) { return fmax(a, b); }


#include "vector_functions.h"
#include "device_functions.h"
#include "math_functions.h"
#include "sm_30_intrinsics.h"
#include "sm_32_intrinsics.h"
#include "device_atomic_functions.h"

#endif /* __cplusplus */

#endif
