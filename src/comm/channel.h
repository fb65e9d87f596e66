#pragma once
// Producer -> trainer message channel. A message is one contiguous host buffer: a fixed-size
// header (ChannelOptions::header_bytes, see data/batch_format.h) followed by its payload. Flow control is by credits: each trainer
// owns `slots` receive buffers, and a producer never has more than `slots` messages in flight to
// one trainer, so memory stays bounded (back-pressure, not growth). Transports: MPI (host
// buffers) and NCCL (payload delivered into the trainer's GPU memory; header and credits over
// MPI), chosen from the layout.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/host_memory.h"
#include "comm/layout.h"

namespace myxtts::comm {


struct ChannelOptions {
  int slots = 3;                 // receive slots per trainer (credits)
  double timeout_seconds = 300;  // longest wait for a credit or a message before giving up
  size_t header_bytes = 64;      // the fixed header every message starts with
};

// A received message: header in host memory; payload in host memory (MPI) or in this rank's
// GPU memory (NCCL). Valid until TrainerChannel::release().
struct Received {
  const uint8_t* header = nullptr;
  const uint8_t* payload = nullptr;
  size_t payload_bytes = 0;
  bool payload_on_device = false;
};

class ProducerChannel {
 public:
  virtual ~ProducerChannel() = default;
  // A buffer to fill with the next message (reuses buffers whose sends completed).
  virtual MessageBuffer take_buffer() = 0;
  // Sends `message` to `trainer` (a world rank fed by this producer). Waits while that trainer
  // has no free slot. The channel owns the buffer until the send completes.
  virtual void send(int trainer, MessageBuffer&& message) = 0;
  // Sends without waiting for a credit (error and end-of-data notices must always get through).
  virtual void send_unconditionally(int trainer, MessageBuffer&& message) = 0;
  // Waits until every message sent has been delivered.
  virtual void flush() = 0;
  virtual int in_flight(int trainer) const = 0;
};

class TrainerChannel {
 public:
  virtual ~TrainerChannel() = default;
  // The next message from this trainer's producer, in order; valid until release(). Throws
  // Error naming the producer when nothing arrives within the timeout.
  virtual Received receive() = 0;
  // Returns the slot of the last received message and gives the producer a credit.
  virtual void release() = 0;
  // Lets the transport make progress on messages that are arriving (call it while computing).
  virtual void poll() = 0;
};

std::unique_ptr<ProducerChannel> make_producer_channel(const Layout& layout, int rank,
                                                       const ChannelOptions& options);
std::unique_ptr<TrainerChannel> make_trainer_channel(const Layout& layout, int rank,
                                                     const ChannelOptions& options);

}  // namespace myxtts::comm
