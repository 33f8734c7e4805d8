/*
 * Which attributes of a cudaLaunchKernelEx launch the kit cannot run. The emulator runs one
 * block after another, and a GPU lab's call is recorded as a plan whose launches run one
 * after another (plan_record.c): an attribute that changes only when or how fast a launch
 * runs (a priority, programmatic serialization with the launch before, a carveout, a
 * policy) makes a plain launch on both; a cooperative grid, clusters and events a kernel
 * triggers need blocks that run at once, and are refused on both, so that a file runs alike.
 * Included after cuda_runtime.h, CUDA's or the emulator's (harness/emu/), whose launch
 * attributes are CUDA's.
 */
#ifndef TILELAB_LAUNCH_ATTRIBUTES_H
#define TILELAB_LAUNCH_ATTRIBUTES_H

/* What a refused attribute asks for, as a message names it; NULL where the kit runs it. */
static inline const char *tl_launch_attribute_refused(const cudaLaunchAttribute *a)
{
    if (a->id == cudaLaunchAttributeCooperative && a->val.cooperative)
        return "a cooperative launch (a grid whose blocks all run at once)";
    if (a->id == cudaLaunchAttributeClusterDimension &&
        a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z > 1)
        return "thread block clusters (cudaLaunchAttributeClusterDimension)";
    if (a->id == cudaLaunchAttributePreferredClusterDimension &&
        a->val.preferredClusterDim.x * a->val.preferredClusterDim.y * a->val.preferredClusterDim.z > 1)
        return "thread block clusters (cudaLaunchAttributePreferredClusterDimension)";
    if (a->id == cudaLaunchAttributeProgrammaticEvent || a->id == cudaLaunchAttributeLaunchCompletionEvent ||
        a->id == cudaLaunchAttributeDeviceUpdatableKernelNode)
        return "events a kernel triggers, and graph nodes (launch attributes 7, 12 and 13)";
    return NULL;
}

#endif
