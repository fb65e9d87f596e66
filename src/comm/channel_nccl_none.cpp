// CPU-only build: the layout may still ask for NCCL (GPUs configured by hand); say so clearly.
#include "comm/channel_internal.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {
[[noreturn]] void no_nccl() {
  throw Error("the layout puts producers on GPUs (NCCL transport) but this build has no CUDA/NCCL; "
              "set layout.producer_device=cpu or layout.gpus_per_node=0, or build where "
              "/usr/local/cuda has NCCL");
}
}  // namespace

std::unique_ptr<ProducerChannel> make_nccl_producer_channel(const Layout&, int, const ChannelOptions&) { no_nccl(); }
std::unique_ptr<TrainerChannel> make_nccl_trainer_channel(const Layout&, int, const ChannelOptions&) { no_nccl(); }

}  // namespace myxtts::comm
