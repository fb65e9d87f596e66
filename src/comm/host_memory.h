#pragma once
// Host memory for batch messages: page-locked (pinned) when this process can use a CUDA device,
// so copies to and from the GPU run asynchronously at full speed; ordinary memory otherwise.
// The choice is made once per process.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace myxtts::comm {

void* allocate_host(size_t bytes);
void free_host(void* pointer) noexcept;
bool host_memory_is_pinned();

template <class T>
struct HostAllocator {
  using value_type = T;
  HostAllocator() = default;
  template <class U>
  HostAllocator(const HostAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(allocate_host(n * sizeof(T))); }
  void deallocate(T* p, size_t) noexcept { free_host(p); }
  template <class U>
  bool operator==(const HostAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HostAllocator<U>&) const { return false; }
};

// One producer -> trainer message: header followed by payload.
using MessageBuffer = std::vector<uint8_t, HostAllocator<uint8_t>>;

}  // namespace myxtts::comm
