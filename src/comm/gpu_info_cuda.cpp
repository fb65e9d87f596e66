// Compiled only when CMake found the CUDA toolkit and NCCL (MYXTTS_WITH_CUDA).
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <nccl.h>

#include "comm/gpu_info.h"

namespace myxtts::comm {

int cuda_device_count() {
  int count = 0;
  // No driver or no device is a normal state on CPU machines, not an error.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::string gpu_report() {
  int runtime = 0, nccl = 0;
  cudaRuntimeGetVersion(&runtime);
  ncclGetVersion(&nccl);
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  std::string devices = status == cudaSuccess ? std::to_string(count)
                                              : fmt::format("0 ({})", cudaGetErrorString(status));
  cudaGetLastError();
  return fmt::format("CUDA runtime: {}.{}\nNCCL: {}.{}.{}\nCUDA devices: {}", runtime / 1000,
                     (runtime % 1000) / 10, nccl / 10000, (nccl % 10000) / 100, nccl % 100,
                     devices);
}

}  // namespace myxtts::comm
