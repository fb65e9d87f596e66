// MPI transport of the channel: one MPI message per batch message (header + payload in one
// buffer), matched probes on the trainer side so buffers are sized from the message itself.
#include <fmt/format.h>

#include <deque>

#include "comm/channel_internal.h"
#include "comm/mpi_check.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {

class MpiProducerChannel : public CreditedProducerChannel {
 public:
  using CreditedProducerChannel::CreditedProducerChannel;

  void send_unconditionally(int trainer, MessageBuffer&& message) override {
    credits_.spend(trainer);  // may go negative for notices; the trainer's releases even it out
    sending_.push_back({MPI_REQUEST_NULL, std::move(message)});
    auto& [request, buffer] = sending_.back();
    MYX_MPI(MPI_Isend(buffer.data(), message_count(buffer.size()), MPI_BYTE, trainer, kTagMessage,
                      MPI_COMM_WORLD, &request));
  }

 private:
  bool reclaim_completed() override {
    // Sends to one trainer complete in order; across trainers any finished one is reclaimed.
    for (auto it = sending_.begin(); it != sending_.end();)
      if (test(it->first)) {
        spare_.push_back(std::move(it->second));
        it = sending_.erase(it);
      } else {
        ++it;
      }
    return sending_.empty();
  }

  std::deque<std::pair<MPI_Request, MessageBuffer>> sending_;
};

class MpiTrainerChannel : public TrainerChannel {
 public:
  MpiTrainerChannel(int producer, const ChannelOptions& options)
      : producer_(producer), options_(options), credits_(producer) {}

  Received receive() override {
    if (holding_) throw Error("TrainerChannel::receive called before release of the previous message");
    wait_for_message(producer_, options_.timeout_seconds, [&] {
      poll();
      return !slots_.empty();
    });
    // The next message is matched and on its way: wait inside MPI, which keeps the transfer
    // progressing (sleeping here would stall the copy itself).
    MYX_MPI(MPI_Wait(&slots_.front().request, MPI_STATUS_IGNORE));
    current_ = std::move(slots_.front().buffer);
    slots_.pop_front();
    holding_ = true;
    if (current_.size() < options_.header_bytes)
      throw Error(fmt::format("a {}-byte message from producer rank {} is shorter than a header",
                              current_.size(), producer_));
    return {current_.data(), current_.data() + options_.header_bytes,
            current_.size() - options_.header_bytes, false};
  }

  void release() override {
    if (!holding_) return;
    holding_ = false;
    free_.push_back(std::move(current_));
    credits_.give();
  }

  void poll() override {
    credits_.poll();
    // Receive ahead: every free slot takes the next message that has arrived.
    while (static_cast<int>(slots_.size()) + (holding_ ? 1 : 0) < options_.slots) {
      Slot slot;
      if (!free_.empty()) {
        slot.buffer = std::move(free_.back());
        free_.pop_back();
      }
      if (!receive_arrived(producer_, slot.buffer, slot.request)) {
        if (slot.buffer.capacity() > 0) free_.push_back(std::move(slot.buffer));
        break;
      }
      slots_.push_back(std::move(slot));  // moving keeps the buffer's storage, which MPI writes into
    }
    for (Slot& s : slots_) test(s.request);  // drives the transfers of received-ahead messages
  }

 private:
  struct Slot {
    MessageBuffer buffer;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  int producer_;
  ChannelOptions options_;
  CreditReturn credits_;
  std::deque<Slot> slots_;
  MessageBuffer current_;
  bool holding_ = false;
  std::vector<MessageBuffer> free_;
};

}  // namespace

std::unique_ptr<ProducerChannel> make_producer_channel(const Layout& layout, int rank,
                                                       const ChannelOptions& options) {
  const RankPlan& me = layout.ranks.at(rank);
  if (me.role != Role::kProducer) throw Error(fmt::format("rank {} is not a producer", rank));
  if (me.transport == Transport::kNccl) return make_nccl_producer_channel(layout, rank, options);
  return std::make_unique<MpiProducerChannel>(me.trainers, options);
}

std::unique_ptr<TrainerChannel> make_trainer_channel(const Layout& layout, int rank,
                                                     const ChannelOptions& options) {
  const RankPlan& me = layout.ranks.at(rank);
  if (me.role != Role::kTrainer) throw Error(fmt::format("rank {} is not a trainer", rank));
  if (me.transport == Transport::kNccl) return make_nccl_trainer_channel(layout, rank, options);
  return std::make_unique<MpiTrainerChannel>(me.producer, options);
}

}  // namespace myxtts::comm
