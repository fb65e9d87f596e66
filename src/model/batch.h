#pragma once
// One training batch as tensors on the trainer's device (made from a streamed payload by
// train/batch_tensors). Lengths and ids are int64; mels float32.
#include <torch/torch.h>

namespace myxtts::model {

struct Batch {
  torch::Tensor ids;             // [B] cache rows
  torch::Tensor tokens;          // [B, T] padded with <pad> = 0
  torch::Tensor text_lengths;    // [B]
  torch::Tensor languages;       // [B]
  torch::Tensor speakers;        // [B]
  torch::Tensor mels;            // [B, F, M] log-mel, padded with the cache's silence value
  torch::Tensor mel_lengths;     // [B]
  torch::Tensor references;      // [B, R, M] speaker reference segments

  int64_t size() const { return tokens.size(0); }
};

}  // namespace myxtts::model
