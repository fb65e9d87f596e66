// Compiled only when CMake found the CUDA toolkit and NCCL (MYXTTS_WITH_CUDA).
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <nccl.h>

#include "comm/gpu_info.h"
#include "comm/cuda_check.h"

namespace myxtts::comm {

int gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: a normal CPU machine
    return 0;
  }
  return count;
}

std::string gpu_report() {
  int runtime = 0, nccl = 0, count = 0;
  std::string runtime_text = "unknown", nccl_text, devices;
  if (cudaError_t e = cudaRuntimeGetVersion(&runtime); e == cudaSuccess)
    runtime_text = fmt::format("{}.{}", runtime / 1000, (runtime % 1000) / 10);
  else
    runtime_text = cudaGetErrorString(e);
  if (ncclResult_t e = ncclGetVersion(&nccl); e == ncclSuccess)
    nccl_text = fmt::format("{}.{}.{}", nccl / 10000, (nccl % 10000) / 100, nccl % 100);
  else
    nccl_text = ncclGetErrorString(e);
  if (cudaError_t e = cudaGetDeviceCount(&count); e == cudaSuccess)
    devices = std::to_string(count);
  else
    devices = fmt::format("0 ({})", cudaGetErrorString(e));
  cudaGetLastError();  // clear the sticky "no driver" error for later callers
  return fmt::format("CUDA runtime: {}\nNCCL: {}\nCUDA devices: {}", runtime_text, nccl_text,
                     devices);
}

void use_gpu(int device) { MYX_CUDA(cudaSetDevice(device)); }
void wait_for_default_stream() { MYX_CUDA(cudaStreamSynchronize(cudaStreamLegacy)); }

}  // namespace myxtts::comm
