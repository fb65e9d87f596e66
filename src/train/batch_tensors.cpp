#include "train/batch_tensors.h"

#include "comm/gpu_info.h"

namespace myxtts::train {
namespace {

struct View {
  const uint8_t* payload;
  torch::TensorOptions source;  // where the payload lies
  torch::Device device;

  // An array of the payload as an owned tensor of `type` on the trainer's device.
  torch::Tensor array(size_t offset, torch::IntArrayRef sizes, torch::ScalarType stored, torch::ScalarType type) const {
    void* data = const_cast<uint8_t*>(payload + offset);  // from_blob wants non-const; we only read
    const torch::Tensor view = torch::from_blob(data, sizes, source.dtype(stored));
    return view.to(device, type, /*non_blocking=*/false, /*copy=*/true);
  }
};

}  // namespace

model::Batch to_batch(const data::BatchHeader& h, const uint8_t* payload, bool payload_on_device,
                      const torch::Device& device) {
  const data::PayloadLayout at = data::payload_layout(h);
  const View v{payload, torch::TensorOptions().device(payload_on_device ? device : torch::Device(torch::kCPU)),
               device};
  const int64_t b = h.batch_size;
  const auto mel_type = h.mel_type == static_cast<int32_t>(data::MelType::kFloat16) ? torch::kHalf : torch::kFloat;
  model::Batch batch;
  batch.ids = v.array(at.ids, {b}, torch::kInt, torch::kLong);
  batch.text_lengths = v.array(at.text_lengths, {b}, torch::kInt, torch::kLong);
  batch.tokens = v.array(at.tokens, {b, h.max_tokens}, torch::kInt, torch::kLong);
  batch.mel_lengths = v.array(at.mel_lengths, {b}, torch::kInt, torch::kLong);
  batch.speakers = v.array(at.speakers, {b}, torch::kInt, torch::kLong);
  batch.languages = v.array(at.languages, {b}, torch::kInt, torch::kLong);
  batch.mels = v.array(at.mels, {b, h.max_frames, h.n_mels}, mel_type, torch::kFloat);
  batch.references = v.array(at.reference_mels, {b, h.reference_frames, h.n_mels}, mel_type, torch::kFloat);
  // The device copies are asynchronous: they must be done before the slot goes back to the channel.
  if (payload_on_device) comm::wait_for_default_stream();
  return batch;
}

}  // namespace myxtts::train
