// NCCL transport of the channel (GPU producer -> GPU trainers). The header travels over MPI in
// an envelope that also says how the payload comes: small payloads (notices) inline in the
// envelope, batches by ncclSend/ncclRecv from the producer's device staging buffers into the
// trainer's device slots, on each rank's own CUDA stream, in envelope order. Credits are the
// MPI ones of the host channel. Compiled only with the CUDA toolkit and NCCL.
#include <fmt/format.h>

#include <cstring>
#include <deque>
#include <map>

#include "comm/channel_internal.h"
#include "comm/cuda_check.h"
#include "comm/mpi_check.h"
#include "core/error.h"

namespace myxtts::comm {
namespace {

constexpr size_t kInlineLimit = 4096;  // payloads up to this size ride in the MPI envelope

// Envelope = header bytes, then u64 payload size, then u8 inline flag, then the inline payload.
struct Envelope {
  static constexpr size_t kTrailer = 9;
  static size_t payload_size(const MessageBuffer& e, size_t header) {
    uint64_t n;
    std::memcpy(&n, e.data() + header, 8);
    return n;
  }
  static bool is_inline(const MessageBuffer& e, size_t header) { return e[header + 8] != 0; }
};

// A NCCL communicator over one producer and the trainers it feeds; the producer is rank 0.
class Group {
 public:
  Group(const Layout& layout, int rank, int device) {
    const RankPlan& me = layout.ranks.at(rank);
    const int producer = me.role == Role::kProducer ? rank : me.producer;
    MYX_MPI(MPI_Comm_split(MPI_COMM_WORLD, producer, me.role == Role::kProducer ? 0 : rank + 1, &mpi_));
    int size = 0;
    MYX_MPI(MPI_Comm_rank(mpi_, &rank_));
    MYX_MPI(MPI_Comm_size(mpi_, &size));
    ncclUniqueId id;
    if (rank_ == 0) MYX_NCCL(ncclGetUniqueId(&id));
    MYX_MPI(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi_));
    MYX_CUDA(cudaSetDevice(device));
    MYX_NCCL(ncclCommInitRank(&nccl_, size, id, rank_));
    MYX_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // Group rank of each trainer, by world rank.
    const auto& trainers = layout.ranks.at(producer).trainers;
    for (int t : trainers) {
      int r = 0;
      for (int u : trainers) r += u <= t;  // trainers are ordered by world rank in the split key
      group_rank_of_[t] = r;
    }
  }
  ~Group() {
    ncclCommDestroy(nccl_);
    cudaStreamDestroy(stream_);
    MPI_Comm_free(&mpi_);
  }
  ncclComm_t nccl() const { return nccl_; }
  cudaStream_t stream() const { return stream_; }
  int group_rank(int world_rank) const { return group_rank_of_.at(world_rank); }

 private:
  MPI_Comm mpi_ = MPI_COMM_NULL;
  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int rank_ = 0;
  std::map<int, int> group_rank_of_;
};

// A device buffer that only grows.
struct DeviceBuffer {
  void* data = nullptr;
  size_t capacity = 0;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;  // owns its allocation
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept : data(other.data), capacity(other.capacity) {
    other.data = nullptr;
    other.capacity = 0;
  }
  void reserve(size_t bytes) {
    if (bytes <= capacity) return;
    if (data) MYX_CUDA(cudaFree(data));
    MYX_CUDA(cudaMalloc(&data, bytes));
    capacity = bytes;
  }
  ~DeviceBuffer() {
    if (data) cudaFree(data);
  }
};

class NcclProducerChannel : public CreditedProducerChannel {
 public:
  NcclProducerChannel(const Layout& layout, int rank, const ChannelOptions& options)
      : CreditedProducerChannel(layout.ranks.at(rank).trainers, options),
        group_(layout, rank, layout.ranks.at(rank).gpu) {
    for (int t : layout.ranks.at(rank).trainers) staging_[t].resize(options.slots + 1);
  }

  void send_unconditionally(int trainer, MessageBuffer&& message) override {
    credits_.spend(trainer);
    const size_t header = options_.header_bytes, payload = message.size() - header;
    const bool inline_payload = payload <= kInlineLimit;
    InFlight f;
    f.envelope.assign(message.begin(), message.begin() + header);
    f.envelope.resize(header + Envelope::kTrailer);
    const uint64_t n = payload;
    std::memcpy(f.envelope.data() + header, &n, 8);
    f.envelope[header + 8] = inline_payload;
    if (inline_payload) f.envelope.insert(f.envelope.end(), message.begin() + header, message.end());
    MYX_MPI(MPI_Isend(f.envelope.data(), message_count(f.envelope.size()), MPI_BYTE, trainer,
                      kTagMessage, MPI_COMM_WORLD, &f.request));
    if (!inline_payload) {
      auto& ring = staging_[trainer];
      Staging& slot = ring[next_slot_[trainer]++ % ring.size()];
      if (slot.event) MYX_CUDA(cudaEventSynchronize(slot.event));  // its previous send is done
      else MYX_CUDA(cudaEventCreateWithFlags(&slot.event, cudaEventDisableTiming));
      slot.buffer.reserve(payload);
      MYX_CUDA(cudaMemcpyAsync(slot.buffer.data, message.data() + header, payload,
                               cudaMemcpyHostToDevice, group_.stream()));
      MYX_NCCL(ncclGroupStart());
      MYX_NCCL(ncclSend(slot.buffer.data, payload, ncclUint8, group_.group_rank(trainer), group_.nccl(),
                        group_.stream()));
      MYX_NCCL(ncclGroupEnd());
      MYX_CUDA(cudaEventRecord(slot.event, group_.stream()));
      f.event = slot.event;
    }
    f.message = std::move(message);  // the host copy must outlive the copy to the device
    in_flight_.push_back(std::move(f));
  }

  ~NcclProducerChannel() override {
    for (auto& [t, ring] : staging_)
      for (auto& s : ring)
        if (s.event) cudaEventDestroy(s.event);
  }

 private:
  struct InFlight {
    MessageBuffer envelope, message;
    MPI_Request request = MPI_REQUEST_NULL;
    cudaEvent_t event = nullptr;
  };
  struct Staging {
    DeviceBuffer buffer;
    cudaEvent_t event = nullptr;
  };

  bool reclaim_completed() override {
    for (auto it = in_flight_.begin(); it != in_flight_.end();) {
      const bool copied = !it->event || cudaEventQuery(it->event) == cudaSuccess;
      if (copied && test(it->request)) {
        spare_.push_back(std::move(it->message));
        it = in_flight_.erase(it);
      } else {
        ++it;
      }
    }
    return in_flight_.empty();
  }

  Group group_;
  std::map<int, std::vector<Staging>> staging_;
  std::map<int, size_t> next_slot_;
  std::deque<InFlight> in_flight_;
};

class NcclTrainerChannel : public TrainerChannel {
 public:
  NcclTrainerChannel(const Layout& layout, int rank, const ChannelOptions& options)
      : producer_(layout.ranks.at(rank).producer), options_(options),
        group_(layout, rank, layout.ranks.at(rank).gpu), credits_(producer_), slots_(options.slots) {
    for (Slot& s : slots_) MYX_CUDA(cudaEventCreateWithFlags(&s.event, cudaEventDisableTiming));
  }

  ~NcclTrainerChannel() override {
    for (Slot& s : slots_) cudaEventDestroy(s.event);
  }

  Received receive() override {
    if (holding_) throw Error("TrainerChannel::receive called before release of the previous message");
    wait_for_message(producer_, options_.timeout_seconds, [&] {
      poll();
      return !order_.empty();
    });
    Slot& s = slots_[order_.front()];
    MYX_MPI(MPI_Wait(&s.request, MPI_STATUS_IGNORE));
    post_payloads();
    const size_t header = options_.header_bytes, payload = Envelope::payload_size(s.envelope, header);
    holding_ = true;
    if (Envelope::is_inline(s.envelope, header))
      return {s.envelope.data(), s.envelope.data() + header + Envelope::kTrailer, payload, false};
    MYX_CUDA(cudaEventSynchronize(s.event));
    return {s.envelope.data(), static_cast<const uint8_t*>(s.device.data), payload, true};
  }

  void release() override {
    if (!holding_) return;
    holding_ = false;
    Slot& s = slots_[order_.front()];
    s.busy = s.posted = false;
    order_.pop_front();
    credits_.give();
  }

  void poll() override {
    credits_.poll();
    while (static_cast<int>(order_.size()) < options_.slots) {
      size_t free_slot = 0;
      while (slots_[free_slot].busy) ++free_slot;
      Slot& s = slots_[free_slot];
      if (!receive_arrived(producer_, s.envelope, s.request)) break;
      s.busy = true;
      order_.push_back(free_slot);
    }
    post_payloads();
  }

 private:
  struct Slot {
    MessageBuffer envelope;
    MPI_Request request = MPI_REQUEST_NULL;
    DeviceBuffer device;
    cudaEvent_t event = nullptr;
    bool busy = false, posted = false;
  };

  // ncclRecv must follow the producer's ncclSend order: post payload receives strictly in
  // envelope order, each once its envelope has arrived.
  void post_payloads() {
    const size_t header = options_.header_bytes;
    for (size_t i : order_) {
      Slot& s = slots_[i];
      if (s.posted) continue;
      if (!test(s.request)) return;
      s.posted = true;
      if (Envelope::is_inline(s.envelope, header)) continue;
      const size_t payload = Envelope::payload_size(s.envelope, header);
      s.device.reserve(payload);
      MYX_NCCL(ncclGroupStart());
      MYX_NCCL(ncclRecv(s.device.data, payload, ncclUint8, 0, group_.nccl(), group_.stream()));
      MYX_NCCL(ncclGroupEnd());
      MYX_CUDA(cudaEventRecord(s.event, group_.stream()));
    }
  }

  int producer_;
  ChannelOptions options_;
  Group group_;
  CreditReturn credits_;
  std::vector<Slot> slots_;
  std::deque<size_t> order_;  // slots in message order
  bool holding_ = false;
};

}  // namespace

std::unique_ptr<ProducerChannel> make_nccl_producer_channel(const Layout& layout, int rank,
                                                            const ChannelOptions& options) {
  return std::make_unique<NcclProducerChannel>(layout, rank, options);
}

std::unique_ptr<TrainerChannel> make_nccl_trainer_channel(const Layout& layout, int rank,
                                                          const ChannelOptions& options) {
  return std::make_unique<NcclTrainerChannel>(layout, rank, options);
}

}  // namespace myxtts::comm
