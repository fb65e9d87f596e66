// Pinned host memory through the CUDA runtime (compiled with the toolkit).
#include <cuda_runtime.h>

#include <cstdlib>
#include <new>

#include "comm/gpu_info.h"
#include "comm/host_memory.h"

namespace myxtts::comm {

bool host_memory_is_pinned() {
  static const bool pinned = gpu_count() > 0;
  return pinned;
}

void* allocate_host(size_t bytes) {
  void* p = nullptr;
  if (host_memory_is_pinned()) {
    if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) != cudaSuccess) throw std::bad_alloc();
    return p;
  }
  p = std::malloc(bytes);
  if (!p && bytes) throw std::bad_alloc();
  return p;
}

void free_host(void* pointer) noexcept {
  if (host_memory_is_pinned())
    cudaFreeHost(pointer);
  else
    std::free(pointer);
}

}  // namespace myxtts::comm
