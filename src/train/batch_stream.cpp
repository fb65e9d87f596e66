#include "train/batch_stream.h"

#include <fmt/format.h>

#include <chrono>

#include "core/error.h"
#include "core/log.h"

namespace myxtts::train {

BatchStream::BatchStream(comm::TrainerChannel& channel, double metrics_interval_seconds)
    : channel_(channel), interval_(metrics_interval_seconds),
      start_(std::chrono::steady_clock::now()), interval_start_(start_) {}

void BatchStream::report_interval() {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - interval_start_).count();
  if (elapsed < interval_) return;
  log::get("stream")->info("{} batches in {:.1f} s, waited for data {:.1f} % of the time",
                           batches_ - interval_batches_start_, elapsed,
                           100.0 * (wait_seconds_ - interval_wait_start_) / elapsed);
  interval_start_ = now;
  interval_wait_start_ = wait_seconds_;
  interval_batches_start_ = batches_;
}

BatchStream::Event BatchStream::next() {
  report_interval();
  const auto start = std::chrono::steady_clock::now();
  received_ = channel_.receive();
  wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  header_ = data::read_header(received_.header, received_.payload_bytes);
  switch (static_cast<data::MessageKind>(header_.kind)) {
    case data::MessageKind::kBatch:
      ++batches_;
      return Event::kBatch;
    case data::MessageKind::kEndOfEpoch:
      done();
      return Event::kEndOfEpoch;
    case data::MessageKind::kEndOfData: {
      done();
      const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      log::get("stream")->info("stream ended: {} batches in {:.1f} s, waited for data {:.1f} % of the time",
                               batches_, total, total > 0 ? 100.0 * wait_seconds_ / total : 0.0);
      return Event::kEndOfData;
    }
    case data::MessageKind::kError: {
      // Notices travel with the header (MPI), so their text is always in host memory.
      std::string text = data::notice_text(received_.payload, received_.payload_bytes);
      done();
      throw Error(fmt::format("producer rank {} failed: {}", header_.sender, text));
    }
  }
  throw Error("unreachable message kind");
}

void BatchStream::done() {
  received_ = {};
  channel_.release();
}

}  // namespace myxtts::train
