// NCCL all-reduce of device gradients among the trainers. Compiled only with the CUDA toolkit
// and NCCL (MYXTTS_WITH_CUDA).
#include "comm/collectives_internal.h"
#include "comm/cuda_check.h"
#include "comm/mpi_check.h"

namespace myxtts::comm {
namespace {

class NcclAllReduce : public DeviceAllReduce {
 public:
  explicit NcclAllReduce(MPI_Comm trainers) {
    int rank = 0, size = 0;
    MYX_MPI(MPI_Comm_rank(trainers, &rank));
    MYX_MPI(MPI_Comm_size(trainers, &size));
    ncclUniqueId id;
    if (rank == 0) MYX_NCCL(ncclGetUniqueId(&id));
    MYX_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, trainers));
    MYX_NCCL(ncclCommInitRank(&nccl_, size, id, rank));
    MYX_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~NcclAllReduce() override {  // unchecked: a destructor must not throw
    cudaStreamDestroy(stream_);
    ncclCommDestroy(nccl_);
  }

  void sum(float* data, size_t count) override {
    // libtorch queues its work on the legacy default stream; wait for that only. Synchronising the
    // whole device would also wait for the channel's posted receives, which may depend on another
    // trainer that is itself waiting in this all-reduce.
    MYX_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
    MYX_NCCL(ncclAllReduce(data, data, count, ncclFloat, ncclSum, nccl_, stream_));
    MYX_CUDA(cudaStreamSynchronize(stream_));
  }

 private:
  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

}  // namespace

std::unique_ptr<DeviceAllReduce> make_nccl_all_reduce(MPI_Comm trainers) {
  return std::make_unique<NcclAllReduce>(trainers);
}

}  // namespace myxtts::comm
