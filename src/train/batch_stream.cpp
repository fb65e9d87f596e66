#include "train/batch_stream.h"

#include <fmt/format.h>

#include <chrono>

#include "core/error.h"

namespace myxtts::train {

BatchStream::Event BatchStream::next() {
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
    case data::MessageKind::kEndOfData:
      done();
      return Event::kEndOfData;
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
