#pragma once
// CUDA and NCCL call checking for the GPU files of src/comm/ (compiled only with the toolkit).
#include <cuda_runtime.h>
#include <nccl.h>

#include "core/check.h"

#define MYX_CUDA(call)                                                               \
  do {                                                                               \
    cudaError_t myx_rc_ = (call);                                                    \
    if (myx_rc_ != cudaSuccess) MYX_FAIL_CALL("CUDA", #call, cudaGetErrorString(myx_rc_)); \
  } while (0)

#define MYX_NCCL(call)                                                               \
  do {                                                                               \
    ncclResult_t myx_rc_ = (call);                                                   \
    if (myx_rc_ != ncclSuccess) MYX_FAIL_CALL("NCCL", #call, ncclGetErrorString(myx_rc_)); \
  } while (0)
