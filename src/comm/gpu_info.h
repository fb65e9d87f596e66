#pragma once
#include <string>

namespace myxtts::comm {

// CUDA devices this process can use; 0 in a CPU build or without a driver/GPU.
int gpu_count();
// "CUDA: ... NCCL: ... devices: N" or a line saying the build has no GPU support.
std::string gpu_report();
// Makes `device` this thread's current CUDA device (before NCCL or libtorch touch it).
void use_gpu(int device);

}  // namespace myxtts::comm
