// The trainer group over an MPI sub-communicator of the trainers (host buffers), with the NCCL
// device all-reduce attached on request.
#include <fmt/format.h>

#include <algorithm>

#include "comm/collectives.h"
#include "comm/collectives_internal.h"
#include "comm/mpi_check.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {

// MPI_Allreduce may combine the contributions in a different order on each rank (recursive
// doubling, for one), so a float sum can differ in its last bit between trainers and the replicas
// drift apart. Reducing on trainer 0 and broadcasting its bits gives every trainer the same value.
// Pieces of 64 MiB keep counts within int and bound the library's temporary buffers.
template <class T>
void reduce_identically(T* data, size_t count, MPI_Datatype type, MPI_Op op, int index, MPI_Comm comm) {
  constexpr size_t kPiece = (size_t{64} << 20) / sizeof(T);
  for (size_t done = 0; done < count; done += kPiece) {
    T* piece = data + done;
    const int n = static_cast<int>(std::min(kPiece, count - done));
    MYX_MPI(MPI_Reduce(index == 0 ? MPI_IN_PLACE : piece, piece, n, type, op, 0, comm));
    MYX_MPI(MPI_Bcast(piece, n, type, 0, comm));
  }
}

class MpiTrainerGroup : public TrainerGroup {
 public:
  explicit MpiTrainerGroup(MPI_Comm trainers) : comm_(trainers) {
    MYX_MPI(MPI_Comm_rank(comm_, &index_));
    MYX_MPI(MPI_Comm_size(comm_, &size_));
  }
  ~MpiTrainerGroup() override { MPI_Comm_free(&comm_); }  // unchecked: a destructor must not throw

  void attach_device(std::unique_ptr<DeviceAllReduce> device) { device_ = std::move(device); }
  MPI_Comm comm() const { return comm_; }

  int size() const override { return size_; }
  int index() const override { return index_; }

  void all_reduce_sum(float* data, size_t count, bool on_device) override {
    if (!on_device) {
      reduce_identically(data, count, MPI_FLOAT, MPI_SUM, index_, comm_);
      return;
    }
    if (!device_)
      throw Error("device all-reduce on a trainer group made without NCCL (make_trainer_group "
                  "with use_nccl = false)");
    device_->sum(data, count);
  }

  void all_reduce_sum(double* data, size_t count) override {
    reduce_identically(data, count, MPI_DOUBLE, MPI_SUM, index_, comm_);
  }

  double all_reduce_max(double value) override {
    // Through trainer 0 as well: with a NaN among the values, the maximum depends on the order.
    reduce_identically(&value, 1, MPI_DOUBLE, MPI_MAX, index_, comm_);
    return value;
  }

  bool all_equal(uint64_t value) override {
    // One exact integer reduction: max(~v) = ~min(v), so min == max reads off both halves.
    uint64_t both[2] = {value, ~value};
    MYX_MPI(MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_UINT64_T, MPI_MAX, comm_));
    return both[0] == ~both[1];
  }

 private:
  MPI_Comm comm_;
  int index_ = 0, size_ = 0;
  std::unique_ptr<DeviceAllReduce> device_;
};

}  // namespace

std::unique_ptr<TrainerGroup> make_trainer_group(const Layout& layout, int rank, bool use_nccl) {
  const RankPlan& me = layout.ranks.at(rank);
  const bool trainer = me.role == Role::kTrainer;
  MPI_Comm trainers = MPI_COMM_NULL;
  // Keyed by trainer_index, so the rank in the sub-communicator is the trainer index.
  MYX_MPI(MPI_Comm_split(MPI_COMM_WORLD, trainer ? 0 : MPI_UNDEFINED, me.trainer_index, &trainers));
  if (!trainer) return nullptr;
  auto group = std::make_unique<MpiTrainerGroup>(trainers);
  if (use_nccl) {
    // Every trainer reaches the same verdict (one gpus_per_node for all), so none is left waiting.
    if (me.gpu < 0)
      throw Error(fmt::format("NCCL all-reduce needs a GPU per trainer but the layout puts trainer "
                              "rank {} on the CPU (layout.gpus_per_node = {}); train without NCCL "
                              "or give the node GPUs",
                              rank, layout.gpus_per_node));
    group->attach_device(make_nccl_all_reduce(group->comm()));
  }
  return group;
}

}  // namespace myxtts::comm
