#include "data/batch_assembler.h"

#include <algorithm>
#include <cstring>

#include "data/half.h"

namespace myxtts::data {
namespace {

template <class T>
T* array_at(MessageBuffer& message, size_t offset) {
  return reinterpret_cast<T*>(message.data() + kHeaderBytes + offset);
}

// Writes `rows` mel rows and fills the rest of a [capacity, n_mels] block with silence.
void write_mel_block(const std::vector<float>& rows, size_t capacity_rows, int n_mels, float silence,
                     MelType type, uint8_t* out) {
  const size_t used = rows.size(), total = capacity_rows * n_mels;
  if (type == MelType::kFloat32) {
    float* dst = reinterpret_cast<float*>(out);
    std::memcpy(dst, rows.data(), used * sizeof(float));
    std::fill(dst + used, dst + total, silence);
  } else {
    uint16_t* dst = reinterpret_cast<uint16_t*>(out);
    for (size_t i = 0; i < used; ++i) dst[i] = float_to_half(rows[i]);
    std::fill(dst + used, dst + total, float_to_half(silence));
  }
}

}  // namespace

BatchAssembler::BatchAssembler(const CacheReader& cache, const BatchConfig& config, int sender_rank)
    : cache_(cache),
      config_(config),
      mel_type_(config.mel_dtype == "float16" ? MelType::kFloat16 : MelType::kFloat32),
      sender_(sender_rank) {}

BatchHeader BatchAssembler::assemble(const BatchPlan& plan, int epoch, int step,
                                     MessageBuffer& message) const {
  const CacheIndex& index = cache_.index();
  BatchHeader h;
  h.kind = static_cast<int32_t>(MessageKind::kBatch);
  h.epoch = epoch;
  h.step = step;
  h.batch_size = static_cast<int32_t>(plan.utterances.size());
  h.max_tokens = plan.padded_tokens;
  h.max_frames = plan.padded_frames;
  h.n_mels = cache_.n_mels();
  h.reference_frames = config_.reference_frames;
  h.mel_type = static_cast<int32_t>(mel_type_);
  h.sender = sender_;
  const PayloadLayout layout = payload_layout(h);
  h.payload_bytes = layout.total;
  message.assign(kHeaderBytes + layout.total, 0);
  std::memcpy(message.data(), &h, kHeaderBytes);
  uint8_t* payload = message.data() + kHeaderBytes;

  const size_t mel_bytes = mel_type_ == MelType::kFloat16 ? 2 : 4;
  const float silence = cache_.silence_value();
  for (int32_t b = 0; b < h.batch_size; ++b) {
    const size_t u = static_cast<size_t>(plan.utterances[b]);
    array_at<int32_t>(message, layout.ids)[b] = static_cast<int32_t>(u);
    array_at<int32_t>(message, layout.text_lengths)[b] = index.n_tokens[u];
    array_at<int32_t>(message, layout.mel_lengths)[b] = index.n_frames[u];
    array_at<int32_t>(message, layout.speakers)[b] = index.speaker[u];
    array_at<int32_t>(message, layout.languages)[b] = index.language[u];
    const std::vector<int32_t> tokens = cache_.tokens(u);  // the rest stays <pad> = 0
    std::copy(tokens.begin(), tokens.end(), array_at<int32_t>(message, layout.tokens) + b * h.max_tokens);
    write_mel_block(cache_.mel(u), h.max_frames, h.n_mels, silence, mel_type_,
                    payload + layout.mels + b * h.max_frames * h.n_mels * mel_bytes);
    write_mel_block(cache_.mel_rows(plan.reference[b], plan.reference_offset[b], h.reference_frames),
                    h.reference_frames, h.n_mels, silence, mel_type_,
                    payload + layout.reference_mels + b * h.reference_frames * h.n_mels * mel_bytes);
  }
  return h;
}

}  // namespace myxtts::data
