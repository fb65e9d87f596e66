// CPU-only build: CMake found no CUDA toolkit with NCCL.
#include "comm/gpu_info.h"

namespace myxtts::comm {

int gpu_count() { return 0; }
std::string gpu_report() { return "CUDA/NCCL: not compiled in (CPU-only build)"; }

}  // namespace myxtts::comm
