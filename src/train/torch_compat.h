#pragma once
// The few libtorch calls whose names changed between 1.13 (Debian, CI) and 2.x (CUDA machines).
#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace myxtts::train {

// bf16 autocast on CUDA for the lifetime of the guard (inactive when `enabled` is false).
class CudaBf16Autocast {
 public:
  explicit CudaBf16Autocast(bool enabled) : enabled_(enabled) {
    if (enabled_) set(true);
  }
  ~CudaBf16Autocast() {
    if (!enabled_) return;
    set(false);
    at::autocast::clear_cache();
  }
  CudaBf16Autocast(const CudaBf16Autocast&) = delete;
  CudaBf16Autocast& operator=(const CudaBf16Autocast&) = delete;

 private:
  static void set(bool on) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
    at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);
    at::autocast::set_autocast_enabled(at::kCUDA, on);
#else
    at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
    at::autocast::set_enabled(on);
#endif
  }
  bool enabled_;
};

}  // namespace myxtts::train
