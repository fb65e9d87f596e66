#pragma once
// Loss terms as sums over one batch, and their normalisation by counts summed over every batch
// of the optimiser step on every trainer. Because each term is (sum over the step) / (count over
// the step), T trainers with batches b1..bT that sum their gradients make exactly the update one
// trainer would make on b1 u ... u bT.
#include <torch/torch.h>

#include <array>

#include "core/config.h"
#include "model/acoustic_model.h"
#include "model/batch.h"

namespace myxtts::model {

enum Term { kMelL1, kMelL2, kDuration, kForwardSum, kBinarization, kTermCount };
inline constexpr std::array<const char*, kTermCount> kTermNames = {"mel_l1", "mel_l2", "duration",
                                                                   "forward_sum", "binarization"};

// What each term is divided by: mel values, tokens, utterances, frames.
struct Counts {
  double mel_values = 0, tokens = 0, utterances = 0, frames = 0;
};
Counts counts_of(const Batch& batch);

// Unnormalised sums of every term for one batch (scalars on the batch's device).
std::array<torch::Tensor, kTermCount> loss_sums(const ModelOutput& out, const Batch& batch);

// The weighted, normalised objective of one batch's share of the step. `step` decides whether the
// binarisation term has started.
torch::Tensor objective(const std::array<torch::Tensor, kTermCount>& sums, const Counts& step_counts,
                        const LossConfig& config, int64_t step);

// The objective's value from normalised terms (validation reports it with training's weights).
double weighted_total(const std::array<double, kTermCount>& terms, const LossConfig& config, int64_t step);

// Each term's normalised value (for metrics) from sums already added over the step.
std::array<double, kTermCount> normalized_terms(const std::array<double, kTermCount>& sums, const Counts& counts);

}  // namespace myxtts::model
