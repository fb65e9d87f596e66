// MPI transport of the channel: one MPI message per batch message (header + payload in one
// buffer), matched probes on the trainer side so buffers are sized from the message itself,
// and a one-int credit message per released slot.
#include <fmt/format.h>

#include <chrono>
#include <climits>
#include <deque>
#include <map>
#include <thread>

#include "comm/channel.h"
#include "comm/mpi_check.h"
#include "core/error.h"
#include "core/interrupt.h"

namespace myxtts::comm {
namespace {

constexpr int kTagMessage = 7101;
constexpr int kTagCredit = 7102;
using Clock = std::chrono::steady_clock;

// Spin briefly (latency matters when the data is about to arrive), then back off to short
// sleeps so a waiting rank leaves the CPU to the ranks doing work.
class Backoff {
 public:
  explicit Backoff(double timeout_seconds)
      : deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_seconds))) {}
  bool expired() const { return Clock::now() > deadline_; }
  void wait() {
    throw_if_interrupted();
    if (++spins_ < 2000) return;
    std::this_thread::sleep_for(std::chrono::microseconds(std::min(200, 10 * (spins_ - 1999))));
  }

 private:
  Clock::time_point deadline_;
  int spins_ = 0;
};

bool test(MPI_Request& request) {
  int done = 0;
  MYX_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  return done != 0;
}

int message_count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX))
    throw Error(fmt::format("a batch message of {} bytes exceeds the 2 GiB MPI limit; lower "
                            "batch.max_frames or batch.size",
                            bytes));
  return static_cast<int>(bytes);
}

class MpiProducerChannel : public ProducerChannel {
 public:
  MpiProducerChannel(const std::vector<int>& trainers, const ChannelOptions& options) : options_(options) {
    for (int t : trainers) {
      Peer& peer = peers_[t];
      peer.credits = options.slots;
      post_credit_receive(t, peer);
    }
  }

  ~MpiProducerChannel() override {
    for (auto& [t, peer] : peers_) {
      MPI_Cancel(&peer.credit_request);
      MPI_Wait(&peer.credit_request, MPI_STATUS_IGNORE);
    }
  }

  std::vector<uint8_t> take_buffer() override {
    progress();
    if (spare_.empty()) return {};
    std::vector<uint8_t> buffer = std::move(spare_.back());
    spare_.pop_back();
    return buffer;
  }

  void send(int trainer, std::vector<uint8_t>&& message) override {
    Peer& peer = peer_of(trainer);
    Backoff backoff(options_.timeout_seconds);
    while (peer.credits <= 0) {
      progress();
      if (peer.credits > 0) break;
      if (backoff.expired())
        throw Error(fmt::format("trainer rank {} has not freed a batch slot for {:.0f} s; it is "
                                "stuck or dead (channel timeout)",
                                trainer, options_.timeout_seconds));
      backoff.wait();
    }
    send_unconditionally(trainer, std::move(message));
  }

  void send_unconditionally(int trainer, std::vector<uint8_t>&& message) override {
    Peer& peer = peer_of(trainer);
    --peer.credits;  // may go negative for notices; the trainer's releases even it out
    peer.sending.push_back({MPI_REQUEST_NULL, std::move(message)});
    auto& [request, buffer] = peer.sending.back();
    MYX_MPI(MPI_Isend(buffer.data(), message_count(buffer.size()), MPI_BYTE, trainer, kTagMessage,
                      MPI_COMM_WORLD, &request));
  }

  void flush() override {
    Backoff backoff(options_.timeout_seconds);
    while (true) {
      progress();
      bool empty = true;
      for (auto& [t, peer] : peers_) empty = empty && peer.sending.empty();
      if (empty) return;
      if (backoff.expired())
        throw Error(fmt::format("messages to trainers were not delivered within {:.0f} s", options_.timeout_seconds));
      backoff.wait();
    }
  }

  int in_flight(int trainer) const override { return options_.slots - peers_.at(trainer).credits; }

 private:
  struct Peer {
    int credits = 0;
    int credit_value = 0;
    MPI_Request credit_request = MPI_REQUEST_NULL;
    std::deque<std::pair<MPI_Request, std::vector<uint8_t>>> sending;
  };

  Peer& peer_of(int trainer) {
    auto it = peers_.find(trainer);
    if (it == peers_.end()) throw Error(fmt::format("rank {} is not a trainer fed by this producer", trainer));
    return it->second;
  }

  void post_credit_receive(int trainer, Peer& peer) {
    MYX_MPI(MPI_Irecv(&peer.credit_value, 1, MPI_INT, trainer, kTagCredit, MPI_COMM_WORLD,
                      &peer.credit_request));
  }

  void progress() {
    for (auto& [t, peer] : peers_) {
      while (!peer.sending.empty() && test(peer.sending.front().first)) {
        spare_.push_back(std::move(peer.sending.front().second));
        peer.sending.pop_front();
      }
      while (test(peer.credit_request)) {
        peer.credits += peer.credit_value;
        post_credit_receive(t, peer);
      }
    }
  }

  ChannelOptions options_;
  std::map<int, Peer> peers_;
  std::vector<std::vector<uint8_t>> spare_;
};

class MpiTrainerChannel : public TrainerChannel {
 public:
  MpiTrainerChannel(int producer, const ChannelOptions& options) : producer_(producer), options_(options) {}

  ~MpiTrainerChannel() override {
    for (auto& c : credits_) MPI_Wait(&c.first, MPI_STATUS_IGNORE);
  }

  const std::vector<uint8_t>& receive() override {
    if (holding_) throw Error("TrainerChannel::receive called before release of the previous message");
    Backoff backoff(options_.timeout_seconds);
    while (true) {
      poll();
      if (!slots_.empty()) {
        // The next message is already matched and on its way: wait inside MPI, which keeps the
        // transfer progressing (sleeping here would stall the copy itself).
        MYX_MPI(MPI_Wait(&slots_.front().request, MPI_STATUS_IGNORE));
        slots_.front().complete = true;
        break;
      }
      if (backoff.expired())
        throw Error(fmt::format("no batch from producer rank {} for {:.0f} s: the producer is stuck "
                                "or dead (channel timeout)",
                                producer_, options_.timeout_seconds));
      backoff.wait();
    }
    current_ = std::move(slots_.front().buffer);
    slots_.pop_front();
    holding_ = true;
    return current_;
  }

  void release() override {
    if (!holding_) return;
    holding_ = false;
    free_.push_back(std::move(current_));
    credits_.push_back({MPI_REQUEST_NULL, 1});
    auto& [request, value] = credits_.back();
    MYX_MPI(MPI_Isend(&value, 1, MPI_INT, producer_, kTagCredit, MPI_COMM_WORLD, &request));
  }

  void poll() override {
    while (!credits_.empty() && test(credits_.front().first)) credits_.pop_front();
    // Receive ahead: every free slot takes the next message that has arrived.
    while (static_cast<int>(slots_.size()) + (holding_ ? 1 : 0) < options_.slots) {
      int found = 0;
      MPI_Message message;
      MPI_Status status;
      MYX_MPI(MPI_Improbe(producer_, kTagMessage, MPI_COMM_WORLD, &found, &message, &status));
      if (!found) break;
      int bytes = 0;
      MYX_MPI(MPI_Get_count(&status, MPI_BYTE, &bytes));
      Slot slot;
      if (!free_.empty()) {
        slot.buffer = std::move(free_.back());
        free_.pop_back();
      }
      slot.buffer.resize(bytes);
      slots_.push_back(std::move(slot));
      MYX_MPI(MPI_Imrecv(slots_.back().buffer.data(), bytes, MPI_BYTE, &message, &slots_.back().request));
    }
    for (Slot& s : slots_)
      if (!s.complete) s.complete = test(s.request);
  }

  int ready() const override {
    int n = 0;
    for (const Slot& s : slots_) n += s.complete;
    return n;
  }

 private:
  struct Slot {
    std::vector<uint8_t> buffer;
    MPI_Request request = MPI_REQUEST_NULL;
    bool complete = false;
  };
  int producer_;
  ChannelOptions options_;
  std::deque<Slot> slots_;
  std::vector<uint8_t> current_;
  bool holding_ = false;
  std::vector<std::vector<uint8_t>> free_;
  std::deque<std::pair<MPI_Request, int>> credits_;
};

}  // namespace

std::unique_ptr<ProducerChannel> make_producer_channel(const Layout& layout, int rank,
                                                       const ChannelOptions& options) {
  const RankPlan& me = layout.ranks.at(rank);
  if (me.role != Role::kProducer) throw Error(fmt::format("rank {} is not a producer", rank));
  return std::make_unique<MpiProducerChannel>(me.trainers, options);
}

std::unique_ptr<TrainerChannel> make_trainer_channel(const Layout& layout, int rank,
                                                     const ChannelOptions& options) {
  const RankPlan& me = layout.ranks.at(rank);
  if (me.role != Role::kTrainer) throw Error(fmt::format("rank {} is not a trainer", rank));
  return std::make_unique<MpiTrainerChannel>(me.producer, options);
}

}  // namespace myxtts::comm
