#pragma once
// Sequence helpers the model shares: padding masks and the length regulator that expands
// per-token states to frames by their durations.
#include <torch/torch.h>

namespace myxtts::model {

// [B, max_length] bool, true at valid positions (index < length).
torch::Tensor sequence_mask(const torch::Tensor& lengths, int64_t max_length);

// Repeats x [B, T, C] along time by durations [B, T] (int64, zero on padding) into
// [B, frames, C]; frames past an utterance's total duration are zero. frames < 0 means the
// batch's largest total.
torch::Tensor length_regulate(const torch::Tensor& x, const torch::Tensor& durations, int64_t frames = -1);

}  // namespace myxtts::model
