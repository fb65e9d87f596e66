// CPU-only build: device all-reduce was asked for but cannot exist; say so clearly.
#include "comm/collectives_internal.h"
#include "core/error.h"

namespace myxtts::comm {

std::unique_ptr<DeviceAllReduce> make_nccl_all_reduce(MPI_Comm) {
  throw Error("the trainers' device all-reduce needs NCCL but myxtts was built without CUDA/NCCL; "
              "train on the CPU or build where /usr/local/cuda has NCCL");
}

}  // namespace myxtts::comm
