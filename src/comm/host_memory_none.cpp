// CPU-only build: ordinary host memory.
#include <cstdlib>
#include <new>

#include "comm/host_memory.h"

namespace myxtts::comm {

bool host_memory_is_pinned() { return false; }

void* allocate_host(size_t bytes) {
  void* p = std::malloc(bytes);
  if (!p && bytes) throw std::bad_alloc();
  return p;
}

void free_host(void* pointer) noexcept { std::free(pointer); }

}  // namespace myxtts::comm
