// CPU-only build: CMake found no CUDA toolkit with NCCL.
#include "comm/gpu_info.h"

#include "core/error.h"

namespace myxtts::comm {

int gpu_count() { return 0; }
std::string gpu_report() { return "CUDA/NCCL: not compiled in (CPU-only build)"; }
void wait_for_default_stream() {}
void use_gpu(int device) {
  throw Error("GPU " + std::to_string(device) + " requested, but this build has no CUDA; set layout.gpus_per_node=0");
}

}  // namespace myxtts::comm
