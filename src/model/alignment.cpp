#include "model/alignment.h"

#include <fmt/format.h>

#include <limits>

#include "core/error.h"

namespace myxtts::model {

std::vector<int64_t> monotonic_alignment_search(const torch::Tensor& log_probs) {
  const torch::Tensor lp = log_probs.detach().to(torch::kCPU, torch::kDouble).contiguous();
  const int64_t tokens = lp.size(0), frames = lp.size(1);
  if (tokens < 1 || frames < tokens)
    throw Error(fmt::format("monotonic alignment needs at least one frame per token, got {} frames "
                            "for {} tokens",
                            frames, tokens));
  auto p = lp.accessor<double, 2>();
  const double impossible = -std::numeric_limits<double>::infinity();
  // best[t][m]: best score of a path that puts frame m on token t.
  std::vector<std::vector<double>> best(tokens, std::vector<double>(frames, impossible));
  best[0][0] = p[0][0];
  for (int64_t m = 1; m < frames; ++m)
    for (int64_t t = 0; t <= std::min(tokens - 1, m); ++t) {
      const double stay = best[t][m - 1], advance = t > 0 ? best[t - 1][m - 1] : impossible;
      best[t][m] = p[t][m] + std::max(stay, advance);
    }
  std::vector<int64_t> durations(tokens, 0);
  for (int64_t m = frames - 1, t = tokens - 1; m >= 0; --m) {
    ++durations[t];
    if (t > 0 && (t == m || best[t - 1][m - 1] >= best[t][m - 1])) --t;
  }
  return durations;
}

torch::Tensor hard_durations(const torch::Tensor& log_probs, const torch::Tensor& text_lengths,
                             const torch::Tensor& mel_lengths) {
  const int64_t batch = log_probs.size(0);
  torch::Tensor durations = torch::zeros({batch, log_probs.size(1)}, torch::kLong);
  const torch::Tensor tl = text_lengths.to(torch::kCPU, torch::kLong), ml = mel_lengths.to(torch::kCPU, torch::kLong);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t t = tl[b].item<int64_t>(), m = ml[b].item<int64_t>();
    std::vector<int64_t> d = monotonic_alignment_search(log_probs[b].slice(0, 0, t).slice(1, 0, m));
    durations[b].slice(0, 0, t).copy_(torch::tensor(d, torch::kLong));
  }
  return durations;
}

torch::Tensor forward_sum_loss(const torch::Tensor& attention_logits, const torch::Tensor& text_lengths,
                               const torch::Tensor& mel_lengths) {
  const int64_t batch = attention_logits.size(0);
  const torch::Tensor tl = text_lengths.to(torch::kCPU, torch::kLong), ml = mel_lengths.to(torch::kCPU, torch::kLong);
  torch::Tensor total = torch::zeros({}, attention_logits.options());
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t t = tl[b].item<int64_t>(), m = ml[b].item<int64_t>();
    const torch::Tensor logits = attention_logits[b].slice(0, 0, m).slice(1, 0, t);  // [m, t]
    // Column 0 is the CTC blank, with a fixed logit of -1 as in RAD-TTS.
    const torch::Tensor with_blank = torch::cat({torch::full({m, 1}, -1.0, logits.options()), logits}, 1);
    const torch::Tensor log_probs = torch::log_softmax(with_blank, 1).unsqueeze(1);  // [m, 1, t+1]
    const torch::Tensor targets = torch::arange(1, t + 1, torch::TensorOptions().dtype(torch::kLong)).unsqueeze(0);
    total = total + torch::ctc_loss(log_probs, targets.to(log_probs.device()), std::vector<int64_t>{m},
                                    std::vector<int64_t>{t}, /*blank=*/0, at::Reduction::Mean,
                                    /*zero_infinity=*/true);
  }
  return total / static_cast<double>(batch);
}

}  // namespace myxtts::model
