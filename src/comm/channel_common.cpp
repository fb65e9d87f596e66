#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "comm/channel_internal.h"
#include "comm/mpi_check.h"
#include "core/error.h"
#include "core/interrupt.h"

namespace myxtts::comm {

Backoff::Backoff(double timeout_seconds)
    : deadline_(std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(timeout_seconds))) {}

bool Backoff::expired() const { return std::chrono::steady_clock::now() > deadline_; }

void Backoff::wait() {
  throw_if_interrupted();
  if (++spins_ < 2000) return;
  std::this_thread::sleep_for(std::chrono::microseconds(std::min(200, 10 * (spins_ - 1999))));
}

bool test(MPI_Request& request) {
  int done = 0;
  MYX_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  return done != 0;
}

void wait_for_message(int producer, double timeout_seconds, const std::function<bool()>& arrived) {
  Backoff backoff(timeout_seconds);
  while (!arrived()) {
    if (backoff.expired())
      throw Error(fmt::format("no batch from producer rank {} for {:.0f} s: the producer is stuck "
                              "or dead (channel timeout)",
                              producer, timeout_seconds));
    backoff.wait();
  }
}

bool receive_arrived(int producer, MessageBuffer& buffer, MPI_Request& request) {
  int found = 0;
  MPI_Message message;
  MPI_Status status;
  MYX_MPI(MPI_Improbe(producer, kTagMessage, MPI_COMM_WORLD, &found, &message, &status));
  if (!found) return false;
  int bytes = 0;
  MYX_MPI(MPI_Get_count(&status, MPI_BYTE, &bytes));
  buffer.resize(bytes);
  MYX_MPI(MPI_Imrecv(buffer.data(), bytes, MPI_BYTE, &message, &request));
  return true;
}

int message_count(size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX))
    throw Error(fmt::format("a batch message of {} bytes exceeds the 2 GiB MPI limit; lower "
                            "batch.max_frames or batch.size",
                            bytes));
  return static_cast<int>(bytes);
}

Credits::Credits(const std::vector<int>& trainers, int slots) : trainers_(trainers), peers_(trainers.size()) {
  for (size_t i = 0; i < trainers_.size(); ++i) {
    peers_[i].credits = slots;
    post(trainers_[i], peers_[i]);
  }
}

Credits::~Credits() {
  for (Peer& peer : peers_) {
    MPI_Cancel(&peer.request);
    MPI_Wait(&peer.request, MPI_STATUS_IGNORE);
  }
}

void Credits::post(int trainer, Peer& peer) {
  MYX_MPI(MPI_Irecv(&peer.value, 1, MPI_INT, trainer, kTagCredit, MPI_COMM_WORLD, &peer.request));
}

size_t Credits::index_of(int trainer) const {
  auto it = std::find(trainers_.begin(), trainers_.end(), trainer);
  if (it == trainers_.end()) throw Error(fmt::format("rank {} is not a trainer fed by this producer", trainer));
  return static_cast<size_t>(it - trainers_.begin());
}

void Credits::poll() {
  for (size_t i = 0; i < trainers_.size(); ++i)
    while (test(peers_[i].request)) {
      peers_[i].credits += peers_[i].value;
      post(trainers_[i], peers_[i]);
    }
}

int Credits::available(int trainer) const { return peers_[index_of(trainer)].credits; }
bool Credits::has(int trainer) const { return available(trainer) > 0; }
void Credits::spend(int trainer) { --peers_[index_of(trainer)].credits; }

void Credits::wait_for(int trainer, double timeout_seconds) {
  Backoff backoff(timeout_seconds);
  for (poll(); !has(trainer); poll()) {
    if (backoff.expired())
      throw Error(fmt::format("trainer rank {} has not freed a batch slot for {:.0f} s; it is "
                              "stuck or dead (channel timeout)",
                              trainer, timeout_seconds));
    backoff.wait();
  }
}

MessageBuffer CreditedProducerChannel::take_buffer() {
  progress();
  if (spare_.empty()) return {};
  MessageBuffer buffer = std::move(spare_.back());
  spare_.pop_back();
  return buffer;
}

void CreditedProducerChannel::send(int trainer, MessageBuffer&& message) {
  credits_.wait_for(trainer, options_.timeout_seconds);
  send_unconditionally(trainer, std::move(message));
}

void CreditedProducerChannel::flush() {
  Backoff backoff(options_.timeout_seconds);
  credits_.poll();
  while (!reclaim_completed()) {
    if (backoff.expired())
      throw Error(fmt::format("messages to trainers were not delivered within {:.0f} s",
                              options_.timeout_seconds));
    backoff.wait();
    credits_.poll();
  }
}

CreditReturn::~CreditReturn() {
  for (auto& p : pending_) MPI_Wait(&p.first, MPI_STATUS_IGNORE);
}

void CreditReturn::give() {
  poll();
  pending_.emplace_back(MPI_REQUEST_NULL, std::make_unique<int>(1));
  MYX_MPI(MPI_Isend(pending_.back().second.get(), 1, MPI_INT, producer_, kTagCredit, MPI_COMM_WORLD,
                    &pending_.back().first));
}

void CreditReturn::poll() {
  pending_.erase(std::remove_if(pending_.begin(), pending_.end(), [](auto& p) { return test(p.first); }),
                 pending_.end());
}

}  // namespace myxtts::comm
