#pragma once
// Pieces the MPI and NCCL channels share (private to src/comm/).
#include <mpi.h>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "comm/channel.h"

namespace myxtts::comm {

inline constexpr int kTagMessage = 7101;
inline constexpr int kTagCredit = 7102;

// Spin briefly (latency matters when data is about to arrive), then back off to short sleeps so
// a waiting rank leaves the CPU to ranks doing work. Checks for SIGINT/SIGTERM while waiting.
class Backoff {
 public:
  explicit Backoff(double timeout_seconds);
  bool expired() const;
  void wait();

 private:
  std::chrono::steady_clock::time_point deadline_;
  int spins_ = 0;
};

bool test(MPI_Request& request);
// Trainer side: calls `arrived` (which polls the transport) until it returns true; Error naming
// the producer after the timeout.
void wait_for_message(int producer, double timeout_seconds, const std::function<bool()>& arrived);
int message_count(size_t bytes);  // bytes as an MPI count; Error beyond 2 GiB
// Trainer side: when `producer`'s next message has arrived, sizes `buffer` to it and starts
// receiving it into `buffer` (completion on `request`); false when nothing has arrived yet.
bool receive_arrived(int producer, MessageBuffer& buffer, MPI_Request& request);

// Credits a producer holds for each of its trainers (one int message per released slot).
class Credits {
 public:
  Credits(const std::vector<int>& trainers, int slots);
  ~Credits();
  void poll();
  int available(int trainer) const;
  void spend(int trainer);
  // Waits until `trainer` has a credit; Error after the timeout.
  void wait_for(int trainer, double timeout_seconds);
  bool has(int trainer) const;

 private:
  struct Peer {
    int credits = 0, value = 0;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  void post(int trainer, Peer& peer);
  std::vector<int> trainers_;
  std::vector<Peer> peers_;  // parallel to trainers_
  size_t index_of(int trainer) const;
};

// Trainer side: send one credit per released slot.
class CreditReturn {
 public:
  explicit CreditReturn(int producer) : producer_(producer) {}
  ~CreditReturn();
  void give();
  void poll();

 private:
  int producer_;
  std::vector<std::pair<MPI_Request, std::unique_ptr<int>>> pending_;
};

// What every producer transport shares: credits, recycled host buffers, waiting and flushing.
// A transport implements the sending itself and reports finished sends through progress().
class CreditedProducerChannel : public ProducerChannel {
 public:
  CreditedProducerChannel(const std::vector<int>& trainers, const ChannelOptions& options)
      : options_(options), credits_(trainers, options.slots) {}
  MessageBuffer take_buffer() override;
  void send(int trainer, MessageBuffer&& message) override;
  void flush() override;
  int in_flight(int trainer) const override { return options_.slots - credits_.available(trainer); }

 protected:
  // Moves the host buffers of completed sends into spare_; returns true when none is pending.
  virtual bool reclaim_completed() = 0;
  void progress() {
    credits_.poll();
    reclaim_completed();
  }
  ChannelOptions options_;
  Credits credits_;
  std::vector<MessageBuffer> spare_;
};

std::unique_ptr<ProducerChannel> make_nccl_producer_channel(const Layout& layout, int rank,
                                                            const ChannelOptions& options);
std::unique_ptr<TrainerChannel> make_nccl_trainer_channel(const Layout& layout, int rank,
                                                          const ChannelOptions& options);

}  // namespace myxtts::comm
