/*
 * Streams and events. The emulator runs every launch and copy as it is
 * asked, in the order it is asked: one queue, a schedule CUDA allows for
 * any number of streams (work in different streams may run in any order,
 * this one included). So a stream is always done by the time its call
 * returns, an event is complete once recorded, and waiting on either only
 * collects a kernel's fault (the next call that waits for the device).
 *
 * Events read the emulator's clock of the GPU (below), never the host's: the
 * harness never shows emulator time as bandwidth, and a lab file that times
 * its kernels must choose as it would on the GPU, the same way every run.
 * Inside a lab's call they see no work, as the kit's GPU path answers there.
 */
#include "cuda_runtime.h"
#include "emulator.h"
#include "lab_refusals.h"

#include <stdlib.h>

/*
 * The GPU's clock as the emulator keeps it, in nanoseconds, which events read outside a
 * lab's call (inside one they read 0 ms, as the kit's GPU path answers: cudaEventElapsedTime).
 * Events once read the host's clock, in which the emulation of a kernel with barriers runs
 * slower than one without, and a program's choice by them moved with the machine's load.
 * So the clock advances
 * by what the GPU would spend: a launch TL_EMU_LAUNCH_NS and the memory it moved, weighed
 * as the profile weighs it (memory_cost.h: sectors of global memory), at the GPU's
 * bandwidth; a copy or memset in device memory TL_EMU_LAUNCH_NS and the bytes it reads and
 * writes. Copies to or from the host (a lab's code makes none) and the host's time between
 * two events are not in it. While an event that keeps time exists, a launch outside a lab's
 * call is counted for the clock alone where counting is off, a sample of its blocks
 * (emulator.c, tl_emu_launch).
 */
static double clock_ns;
static int timing_events;

/* Inside a lab's call no event keeps time (cudaEventElapsedTime, below): nothing to count. */
int tl_emu_timing(void)
{
    return timing_events > 0 && !tl_emu_lab_is_running();
}

/* Bytes a nanosecond: the grading GPU's (its memory clock, on both edges, and bus width:
 * TILELAB_EMU_DEVICE), else an H100 SXM's 3.35 TB/s (HBM3, NVIDIA's datasheet). */
static double bandwidth(void)
{
    int khz = 0, bits = 0;
    if (tl_emu_device_attr(cudaDevAttrMemoryClockRate, &khz) &&
        tl_emu_device_attr(cudaDevAttrGlobalMemoryBusWidth, &bits) && khz > 0 && bits > 0)
        return 2.0 * khz * 1e3 * (bits / 8) / 1e9;
    return 3350.0;
}

/* The GPU's SMs: a grid of fewer blocks than it has SMs moves its memory through only as many
 * of them (one block of a reduction on an H100 reads at a 132nd of the bandwidth, and a GPU
 * times it far slower than a grid that fills it, where the sectors alone were alike). */
static int sms(void)
{
    static int n;
    if (!n && (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || n < 1))
        n = 132;
    return n;
}

void tl_emu_clock_launch(double sectors, unsigned long long blocks)
{
    double share = blocks && blocks < (unsigned long long)sms() ? (double)blocks / sms() : 1.0;
    clock_ns += TL_EMU_LAUNCH_NS + sectors * 32 / (bandwidth() * share);
}

void tl_emu_clock_copy(size_t read, size_t written)
{
    clock_ns += TL_EMU_LAUNCH_NS + (double)(read + written) / bandwidth();
}

struct CUstream_st {
    struct CUstream_st *next; /* the streams that exist (below) */
    unsigned int flags;
    int priority;
};

struct CUevent_st {
    struct CUevent_st *next; /* the events that exist (below) */
    double ns; /* the clock's, when recorded */
    unsigned int flags;
    int recorded;
};

/*
 * The streams and events that exist, so that one destroyed is known as such: CUDA answers
 * cudaErrorInvalidResourceHandle for a handle it no longer has, where the emulator read and
 * wrote memory it had freed, and answered as that memory happened to hold (an event destroyed
 * gave an elapsed time one run and an error the next; one destroyed twice was freed twice, and
 * the clock counted one timing event fewer than there were).
 */
static struct CUstream_st *streams;
static struct CUevent_st *events;

static int stream_exists(cudaStream_t stream)
{
    for (struct CUstream_st *s = streams; s; s = s->next)
        if (s == stream)
            return 1;
    return 0;
}

static int event_exists(cudaEvent_t event)
{
    for (struct CUevent_st *e = events; e; e = e->next)
        if (e == event)
            return 1;
    return 0;
}

/* cudaErrorInvalidResourceHandle where event is not one that exists, said for call. */
static cudaError_t no_event(const char *call, cudaEvent_t event)
{
    if (!event)
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "%s: no event (NULL)", call);
    return tl_emu_fail(cudaErrorInvalidResourceHandle, "%s: an event that was destroyed "
                       "(cudaEventDestroy), or never made by cudaEventCreate", call);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    if (!stream)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamCreate: the pointer to the result is NULL");
    if (flags & ~(unsigned)cudaStreamNonBlocking)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamCreateWithFlags: flags 0x%x", flags);
    cudaError_t err = tl_emu_settle();
    if (err)
        return err;
    *stream = malloc(sizeof **stream);
    if (!*stream)
        return tl_emu_fail(cudaErrorMemoryAllocation, "cudaStreamCreate: out of host memory");
    /* CUDA clamps a priority to its range, 0 (least) to -5 (greatest). */
    (*stream)->flags = flags;
    (*stream)->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;
    (*stream)->next = streams;
    streams = *stream;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithPriority(stream, cudaStreamDefault, 0);
}

/* The default streams are not objects of their own. */
static int is_default(cudaStream_t stream)
{
    return !stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (is_default(stream))
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: the default stream "
                           "is not a stream of yours to destroy");
    if (!stream_exists(stream))
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy: a stream that was "
                           "destroyed already, or never made by cudaStreamCreate");
    for (struct CUstream_st **s = &streams; *s; s = &(*s)->next)
        if (*s == stream) {
            *s = stream->next;
            break;
        }
    free(stream);
    return tl_emu_settle();
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    (void)stream;
    return tl_emu_settle();
}

/* Its work is done: cudaSuccess, or the fault it had. */
cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    (void)stream;
    return tl_emu_settle();
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream, (void)flags;
    if (!event_exists(event))
        return no_event("cudaStreamWaitEvent", event);
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    if (!flags)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamGetFlags: NULL");
    if (!is_default(stream) && !stream_exists(stream))
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaStreamGetFlags: a stream that was destroyed");
    *flags = is_default(stream) ? cudaStreamDefault : stream->flags;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    if (!priority)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamGetPriority: NULL");
    if (!is_default(stream) && !stream_exists(stream))
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaStreamGetPriority: a stream that was destroyed");
    *priority = is_default(stream) ? 0 : stream->priority;
    return cudaSuccess;
}

/* A host function in a stream runs once the work before it is done: at once, here. */
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags)
{
    (void)flags;
    if (!callback)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaStreamAddCallback: no function");
    callback(stream, tl_emu_settle(), user_data);
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data)
{
    (void)stream;
    if (!fn)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaLaunchHostFunc: no function");
    /* In a lab's call, refused as a GPU's plan refuses it (plan_record.c), which cannot hold it. */
    if (tl_emu_lab_is_running())
        return tl_emu_refused_in_lab(TL_REFUSED_LAUNCH("cudaLaunchHostFunc"));
    fn(user_data);
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaEventCreate: the pointer to the result is NULL");
    *event = calloc(1, sizeof **event);
    if (!*event)
        return tl_emu_fail(cudaErrorMemoryAllocation, "cudaEventCreate: out of host memory");
    (*event)->flags = flags;
    (*event)->next = events;
    events = *event;
    timing_events += !(flags & cudaEventDisableTiming);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    if (!event)
        return cudaSuccess;
    if (!event_exists(event))
        return no_event("cudaEventDestroy", event);
    for (struct CUevent_st **e = &events; *e; e = &(*e)->next)
        if (*e == event) {
            *e = event->next;
            break;
        }
    timing_events -= !(event->flags & cudaEventDisableTiming);
    free(event);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    if (!event_exists(event))
        return no_event("cudaEventRecord", event);
    event->ns = clock_ns;
    event->recorded = 1;
    return tl_emu_context_error();
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!event_exists(event))
        return no_event("cudaEventSynchronize", event);
    return tl_emu_settle();
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    if (!event_exists(event))
        return no_event("cudaEventQuery", event);
    return tl_emu_settle();
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop)
{
    if (!ms || !start || !stop)
        return tl_emu_fail(cudaErrorInvalidValue, "cudaEventElapsedTime: a NULL argument");
    /* Inside a lab's call, 0 ms, as the kit answers on a GPU: there the lab process records
     * the call's launches as a plan and runs them after the call (harness/gpu/plan_record.c),
     * so its events see no work between them. A file that times two kernels in its call and
     * keeps the faster keeps the one its rule for a tie keeps, on both. */
    if (tl_emu_lab_is_running()) {
        *ms = 0;
        return cudaSuccess;
    }
    if (!event_exists(start) || !event_exists(stop))
        return no_event("cudaEventElapsedTime", event_exists(start) ? stop : start);
    if ((start->flags | stop->flags) & cudaEventDisableTiming)
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event made "
                           "with cudaEventDisableTiming keeps no time");
    if (!start->recorded || !stop->recorded)
        return tl_emu_fail(cudaErrorInvalidResourceHandle, "cudaEventElapsedTime: an event that "
                           "was never recorded");
    *ms = (float)((stop->ns - start->ns) / 1e6);
    return tl_emu_context_error();
}
