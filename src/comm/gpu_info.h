#pragma once
#include <string>

namespace myxtts::comm {

// CUDA devices this process can use; 0 in a CPU build or without a driver/GPU.
int gpu_count();
// "CUDA: ... NCCL: ... devices: N" or a line saying the build has no GPU support.
std::string gpu_report();
// Makes `device` this thread's current CUDA device (before NCCL or libtorch touch it).
void use_gpu(int device);
// Waits for the work queued on the legacy default stream (where libtorch computes), e.g. copies out
// of a receive slot before the slot is handed back. No-op without CUDA.
void wait_for_default_stream();

}  // namespace myxtts::comm
