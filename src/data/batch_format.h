#pragma once
// The wire format of a batch (docs/wire-protocol.md): a fixed 64-byte header and one
// contiguous payload. Control messages (end of epoch, end of data, error) use the same header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "comm/host_memory.h"

namespace myxtts::data {

using comm::MessageBuffer;

inline constexpr uint32_t kBatchMagic = 0x4254584d;  // "MXTB" little-endian
inline constexpr uint32_t kBatchVersion = 1;

enum class MessageKind : int32_t { kBatch = 0, kEndOfEpoch = 1, kEndOfData = 2, kError = 3 };
enum class MelType : int32_t { kFloat32 = 0, kFloat16 = 1 };

struct BatchHeader {
  uint32_t magic = kBatchMagic;
  uint32_t version = kBatchVersion;
  int32_t kind = 0;
  int32_t epoch = 0;
  int32_t step = 0;
  int32_t batch_size = 0;
  int32_t max_tokens = 0;
  int32_t max_frames = 0;
  int32_t n_mels = 0;
  int32_t reference_frames = 0;
  int32_t mel_type = 0;
  int32_t sender = 0;            // rank that sent it (named in errors)
  uint64_t payload_bytes = 0;    // batch payload, or the UTF-8 error text for kError
  int32_t split = 0;             // data::Split of a batch or end-of-epoch notice: 0 train, 1 validation
  int32_t reserved = 0;
};
static_assert(sizeof(BatchHeader) == 64, "the header is 64 bytes on the wire");

// Byte offsets of each array in the payload, in this order:
// ids[B] i32, text_lengths[B] i32, tokens[B,T] i32, mel_lengths[B] i32, speakers[B] i32,
// languages[B] i32, mels[B,F,M] f32|f16, reference_mels[B,R,M] f32|f16. Arrays are 8-byte aligned.
struct PayloadLayout {
  size_t ids, text_lengths, tokens, mel_lengths, speakers, languages, mels, reference_mels, total;
};
PayloadLayout payload_layout(const BatchHeader& header);

// Throws Error naming the sender when the header is not a batch header of this version or its
// sizes are inconsistent: a receiver never reads past its buffer.
void validate(const BatchHeader& header, size_t received_payload_bytes);

// A message on the channel is the header's 64 bytes followed by the payload.
inline constexpr size_t kHeaderBytes = sizeof(BatchHeader);
// The validated header of a message held in one buffer, or of a header whose payload of
// `payload_bytes` arrived elsewhere (device memory).
BatchHeader read_header(const MessageBuffer& message);
BatchHeader read_header(const uint8_t* header_bytes, size_t payload_bytes);
// End of epoch / end of data / error notice; `text` is the error message for kError.
MessageBuffer make_notice(MessageKind kind, int epoch, int sender, const std::string& text = "");
// Marks a batch or end-of-epoch message as belonging to `split` (the training stream interleaves
// validation passes).
void set_split(MessageBuffer& message, int32_t split);
// The error text carried by a kError message.
std::string notice_text(const MessageBuffer& message);
std::string notice_text(const uint8_t* payload, size_t payload_bytes);

}  // namespace myxtts::data
