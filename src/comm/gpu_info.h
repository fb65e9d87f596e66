#pragma once
#include <string>

namespace myxtts::comm {

// Number of usable CUDA devices; 0 in a CPU build or when no driver/GPU is present.
int cuda_device_count();
// "CUDA: ... NCCL: ... devices: N" or a line saying the build has no GPU support.
std::string gpu_report();

}  // namespace myxtts::comm
