#include "data/batch_format.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstring>

#include "core/error.h"

namespace myxtts::data {
namespace {

size_t aligned(size_t bytes) { return (bytes + 7) / 8 * 8; }

}  // namespace

PayloadLayout payload_layout(const BatchHeader& h) {
  const size_t b = h.batch_size, mel_bytes = h.mel_type == static_cast<int32_t>(MelType::kFloat16) ? 2 : 4;
  PayloadLayout l{};
  size_t at = 0;
  auto take = [&](size_t bytes) {
    size_t offset = at;
    at += aligned(bytes);
    return offset;
  };
  l.ids = take(b * 4);
  l.text_lengths = take(b * 4);
  l.tokens = take(b * h.max_tokens * 4);
  l.mel_lengths = take(b * 4);
  l.speakers = take(b * 4);
  l.languages = take(b * 4);
  l.mels = take(b * h.max_frames * h.n_mels * mel_bytes);
  l.reference_mels = take(b * h.reference_frames * h.n_mels * mel_bytes);
  l.total = at;
  return l;
}

void validate(const BatchHeader& h, size_t received) {
  auto refuse = [&](const std::string& why) {
    throw Error(fmt::format("bad message from rank {}: {}; are producer and trainer the same "
                            "MyXTTS build?",
                            h.sender, why));
  };
  if (h.magic != kBatchMagic) refuse(fmt::format("magic {:#x} is not a MyXTTS batch", h.magic));
  if (h.version != kBatchVersion)
    refuse(fmt::format("wire version {} but this build speaks {}", h.version, kBatchVersion));
  if (h.kind < 0 || h.kind > static_cast<int32_t>(MessageKind::kError))
    refuse(fmt::format("unknown message kind {}", h.kind));
  if (h.payload_bytes != received)
    refuse(fmt::format("header announces {} payload bytes, {} arrived", h.payload_bytes, received));
  if (h.kind != static_cast<int32_t>(MessageKind::kBatch)) return;
  if (h.batch_size < 1 || h.max_tokens < 1 || h.max_frames < 1 || h.n_mels < 1 ||
      h.reference_frames < 1 || (h.mel_type != 0 && h.mel_type != 1))
    refuse("impossible batch shape");
  if (payload_layout(h).total != h.payload_bytes)
    refuse(fmt::format("shape needs {} payload bytes but {} were sent", payload_layout(h).total,
                       h.payload_bytes));
}

BatchHeader read_header(const MessageBuffer& message) {
  if (message.size() < kHeaderBytes)
    throw Error(fmt::format("a {}-byte message is too short for a batch header; are producer and "
                            "trainer the same MyXTTS build?",
                            message.size()));
  return read_header(message.data(), message.size() - kHeaderBytes);
}

BatchHeader read_header(const uint8_t* header_bytes, size_t payload_bytes) {
  BatchHeader header;
  std::memcpy(&header, header_bytes, kHeaderBytes);
  validate(header, payload_bytes);
  return header;
}

MessageBuffer make_notice(MessageKind kind, int epoch, int sender, const std::string& text) {
  BatchHeader header;
  header.kind = static_cast<int32_t>(kind);
  header.epoch = epoch;
  header.sender = sender;
  header.payload_bytes = text.size();
  MessageBuffer message(kHeaderBytes + text.size());
  std::memcpy(message.data(), &header, kHeaderBytes);
  std::memcpy(message.data() + kHeaderBytes, text.data(), text.size());
  return message;
}

void set_split(MessageBuffer& message, int32_t split) {
  std::memcpy(message.data() + offsetof(BatchHeader, split), &split, sizeof split);
}

std::string notice_text(const MessageBuffer& message) {
  return notice_text(message.data() + kHeaderBytes, message.size() - kHeaderBytes);
}

std::string notice_text(const uint8_t* payload, size_t payload_bytes) {
  return std::string(reinterpret_cast<const char*>(payload), payload_bytes);
}

}  // namespace myxtts::data
