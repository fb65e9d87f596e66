#pragma once
// Alignment learned without external durations (RAD-TTS / Glow-TTS recipe): a forward-sum
// (CTC) loss makes the soft text-mel attention monotonic, and monotonic alignment search turns
// it into hard per-token durations for the duration predictor and the length regulator.
#include <torch/torch.h>

#include <vector>

namespace myxtts::model {

// The most probable monotonic path through log_probs [T_text, T_mel] (CPU): frames go to tokens
// in order, every token gets at least one frame. Returns the frames of each token (sums to
// T_mel). Throws Error when T_mel < T_text (no such path).
std::vector<int64_t> monotonic_alignment_search(const torch::Tensor& log_probs);

// Batched MAS: log_probs [B, T_text_max, T_mel_max] -> durations [B, T_text_max] (int64, zero
// past each text length).
torch::Tensor hard_durations(const torch::Tensor& log_probs, const torch::Tensor& text_lengths,
                             const torch::Tensor& mel_lengths);

// Forward-sum loss over attention logits [B, T_mel_max, T_text_max]: minus the log-probability of
// all monotonic alignments of each utterance's text to its frames (a blank column lets frames
// attend to nothing), per token: [B], one value per utterance (the caller normalises the sum).
torch::Tensor forward_sum_loss(const torch::Tensor& attention_logits, const torch::Tensor& text_lengths,
                               const torch::Tensor& mel_lengths);

}  // namespace myxtts::model
