#pragma once
// The trainer's side of the stream: next batch from the channel, validated, with the time spent
// waiting for it accounted (the data-wait fraction). Notices become events; a producer's error
// becomes an Error carrying the producer's own text.
#include <chrono>
#include <cstdint>

#include "comm/channel.h"
#include "data/batch_format.h"

namespace myxtts::train {

class BatchStream {
 public:
  enum class Event { kBatch, kEndOfEpoch, kEndOfData };

  // Every `metrics_interval_seconds` the stream logs its share of time spent waiting for data.
  explicit BatchStream(comm::TrainerChannel& channel, double metrics_interval_seconds = 10.0);
  // Blocks for the next message. For kBatch, header() and payload() are valid until done().
  Event next();
  void done();
  const data::BatchHeader& header() const { return header_; }
  // Host memory (MPI transport) or this rank's GPU memory (NCCL): see payload_on_device().
  const uint8_t* payload() const { return received_.payload; }
  bool payload_on_device() const { return received_.payload_on_device; }
  double wait_seconds() const { return wait_seconds_; }

 private:
  comm::TrainerChannel& channel_;
  data::BatchHeader header_{};
  comm::Received received_;
  double wait_seconds_ = 0.0;
  int64_t batches_ = 0;
  double interval_;
  std::chrono::steady_clock::time_point start_, interval_start_;
  double interval_wait_start_ = 0.0;
  int64_t interval_batches_start_ = 0;
  void report_interval();
};

}  // namespace myxtts::train
