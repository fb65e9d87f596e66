#pragma once
// Reductions among the trainer ranks (gradient all-reduce, loss sums, replica checks). MPI for
// host memory, NCCL for device memory; nothing here exposes either.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "comm/layout.h"

namespace myxtts::comm {

// The trainer ranks of a layout, ordered by trainer_index: gradient all-reduce and the small
// host reductions a training step needs. Results are bit-identical on every trainer.
class TrainerGroup {
 public:
  virtual ~TrainerGroup() = default;
  virtual int size() const = 0;   // number of trainers
  virtual int index() const = 0;  // this rank's trainer_index
  // In-place sum over all trainers of `count` floats. `on_device`: data is this rank's CUDA memory
  // (NCCL); otherwise host memory (MPI). The device variant synchronises the device first (so
  // work queued by libtorch has finished) and returns after the reduction completed.
  virtual void all_reduce_sum(float* data, size_t count, bool on_device) = 0;
  // Small host reductions (loss sums, counts, flags).
  virtual void all_reduce_sum(double* data, size_t count) = 0;
  virtual double all_reduce_max(double value) = 0;
  // True on every trainer when every trainer passed the same value (replica check).
  virtual bool all_equal(uint64_t value) = 0;
};

// Collective over the WHOLE world (every rank calls it, producers too: it splits MPI_COMM_WORLD);
// returns nullptr on producer ranks. `use_nccl`: build an NCCL communicator among the trainers for
// device buffers (requires this rank's GPU to be current; the id is broadcast over MPI). Without it,
// device all-reduce throws Error.
std::unique_ptr<TrainerGroup> make_trainer_group(const Layout& layout, int rank, bool use_nccl);

}  // namespace myxtts::comm
