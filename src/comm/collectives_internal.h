#pragma once
// The device half of the trainer group, built apart so a CPU-only build carries no NCCL
// (private to src/comm/).
#include <mpi.h>

#include <cstddef>
#include <memory>

namespace myxtts::comm {

class DeviceAllReduce {
 public:
  virtual ~DeviceAllReduce() = default;
  // In-place sum of `count` floats of this rank's current device; returns when it is done.
  virtual void sum(float* data, size_t count) = 0;
};

// Collective over `trainers` (an MPI communicator of the trainer ranks); the GPU of each rank
// must be current.
std::unique_ptr<DeviceAllReduce> make_nccl_all_reduce(MPI_Comm trainers);

}  // namespace myxtts::comm
