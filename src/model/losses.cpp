#include "model/losses.h"

#include "model/alignment.h"

namespace myxtts::model {
namespace {

double count_of(Term term, const Counts& c) {
  switch (term) {
    case kMelL1:
    case kMelL2: return c.mel_values;
    case kDuration: return c.tokens;
    case kForwardSum: return c.utterances;
    case kBinarization: return c.frames;
    case kTermCount: break;
  }
  return 1.0;
}

double weight_of(Term term, const LossConfig& c, int64_t step) {
  switch (term) {
    case kMelL1: return c.mel_l1;
    case kMelL2: return c.mel_l2;
    case kDuration: return c.duration;
    case kForwardSum: return c.forward_sum;
    case kBinarization: return step >= c.binarization_start ? c.binarization : 0.0;
    case kTermCount: break;
  }
  return 0.0;
}

}  // namespace

Counts counts_of(const Batch& batch) {
  Counts c;
  const torch::Tensor totals = torch::stack({batch.mel_lengths.sum(), batch.text_lengths.sum()}).to(torch::kCPU);
  c.frames = static_cast<double>(totals[0].item<int64_t>());
  c.mel_values = c.frames * static_cast<double>(batch.mels.size(2));
  c.tokens = static_cast<double>(totals[1].item<int64_t>());
  c.utterances = static_cast<double>(batch.size());
  return c;
}

std::array<torch::Tensor, kTermCount> loss_sums(const ModelOutput& out, const Batch& batch) {
  const torch::Tensor mel_mask = out.mel_mask.unsqueeze(-1).to(out.mel.dtype());
  const torch::Tensor error = (out.mel - batch.mels) * mel_mask;
  const torch::Tensor text_mask = out.text_mask.to(out.log_durations.dtype());
  const torch::Tensor target_log_durations = torch::log1p(out.durations.to(out.log_durations.dtype())) * text_mask;
  // Hard path as a [B, F, T] indicator: frame f is on token t.
  const torch::Tensor ends = torch::cumsum(out.durations, 1);
  const torch::Tensor frame = torch::arange(out.mel.size(1), ends.options()).view({1, -1, 1});
  const torch::Tensor on_path = (frame < ends.unsqueeze(1)) & (frame >= (ends - out.durations).unsqueeze(1));
  std::array<torch::Tensor, kTermCount> sums;
  sums[kMelL1] = error.abs().sum();
  sums[kMelL2] = error.pow(2).sum();
  sums[kDuration] = ((out.log_durations - target_log_durations) * text_mask).pow(2).sum();
  sums[kForwardSum] = forward_sum_loss(out.attention_logits, batch.text_lengths, batch.mel_lengths).sum();
  sums[kBinarization] = -out.attention_log_soft.masked_select(on_path).sum();
  return sums;
}

torch::Tensor objective(const std::array<torch::Tensor, kTermCount>& sums, const Counts& step_counts,
                        const LossConfig& config, int64_t step) {
  torch::Tensor total = torch::zeros({}, sums[0].options());
  for (int t = 0; t < kTermCount; ++t) {
    const double weight = weight_of(static_cast<Term>(t), config, step);
    if (weight != 0.0) total = total + sums[t] * (weight / count_of(static_cast<Term>(t), step_counts));
  }
  return total;
}

double weighted_total(const std::array<double, kTermCount>& terms, const LossConfig& config, int64_t step) {
  double total = 0;
  for (int t = 0; t < kTermCount; ++t) {
    const double weight = weight_of(static_cast<Term>(t), config, step);
    if (weight != 0.0) total += weight * terms[t];
  }
  return total;
}

std::array<double, kTermCount> normalized_terms(const std::array<double, kTermCount>& sums, const Counts& counts) {
  std::array<double, kTermCount> terms{};
  for (int t = 0; t < kTermCount; ++t) terms[t] = sums[t] / count_of(static_cast<Term>(t), counts);
  return terms;
}

}  // namespace myxtts::model
