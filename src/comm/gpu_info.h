#pragma once
#include <string>

namespace myxtts::comm {

// "CUDA: ... NCCL: ... devices: N" or a line saying the build has no GPU support.
std::string gpu_report();

}  // namespace myxtts::comm
